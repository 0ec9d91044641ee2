// What a user reads when the base URL is not quite the API: a server that accepts the
// connection and never answers (on a terminal: that it waits, and when it tries again), another
// HTTP server (its web page is not the API: said at once, not retried), a path that repeats the
// base URL's /api, and an IPv6 loopback URL for a sandbox that listens on 127.0.0.1.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { refusedPort } from '../helpers/ports.js';
import { runSched, type RunOptions } from '../helpers/run.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { useFastRetries } from './fast-retry.js';

useFastRetries();
const config = useConfigDir('sched-wrong-server-');
const MT_PATH = '/api/users/me/meeting-types';

let srv: FaultServer;
beforeEach(async () => {
  srv = await startFaultServer();
});
afterEach(() => srv.close());

const sched = (argv: string[], baseUrl: string, opts: RunOptions = {}) =>
  runSched(['--no-input', ...argv], {
    ...opts,
    env: {
      SCHED_CONFIG_DIR: config.path,
      SCHED_BASE_URL: baseUrl,
      SCHED_API_KEY: 'test-key-1234',
      NO_COLOR: '1',
    },
  });

describe('a server that accepts the connection and never answers', () => {
  it('on a terminal: says that it waits, when it gives up, and that it tries again', async () => {
    srv.on('GET', MT_PATH, f.hang());
    const r = await sched(['--timeout', '1', 'types', 'list'], srv.baseUrl, { tty: true });
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n');
    const host = `127.0.0.1:${srv.port}`;
    expect(lines).toContain(
      `waiting for ${host} to answer GET /users/me/meeting-types: nothing for 0.5 s; gives up after 1 s (--timeout), then tries once more`,
    );
    expect(
      lines.some((l) =>
        /^no answer from .* within 1 s; trying again in [\d.]+ s \(attempt 2\)$/.test(l),
      ),
    ).toBe(true);
    // The second wait is the last: no promise of another try.
    expect(lines).toContain(
      `waiting for ${host} to answer GET /users/me/meeting-types: nothing for 0.5 s; gives up after 1 s (--timeout)`,
    );
    expect(r.stderr).toMatch(
      /error: no answer from .* within 1 s \(--timeout\) \(after 2 attempts\)/,
    );
    expect(srv.count('GET', MT_PATH)).toBe(2);
  });

  it('off a terminal (a pipe, a CI log): only the error', async () => {
    srv.on('GET', MT_PATH, f.hang());
    const r = await sched(['--timeout', '1', 'types', 'list'], srv.baseUrl);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('waiting for');
    expect(r.stderr).not.toContain('trying again');
  });
});

describe('a base URL pointing at another HTTP server', () => {
  const page = (status: number, title: string) =>
    f.html(status, `<!DOCTYPE html><html><head><title>${title}</title></head><body></body></html>`);

  it('a POST answered 501 with a web page: not the scheduling API, naming the base URL', async () => {
    srv.on('POST', '/api/webhooks', page(501, 'Unsupported method'));
    const r = await sched(
      ['api', '-X', 'POST', '/webhooks', '-f', 'url=https://example.com/h'],
      srv.baseUrl,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `error: the server at ${srv.baseUrl} does not look like the scheduling API: POST ${srv.baseUrl}/webhooks was answered 501 Not Implemented with a web page: Unsupported method`,
    );
    expect(r.stderr).toContain(
      'hint: check the base URL (--base-url, SCHED_BASE_URL or the profile)',
    );
    expect(r.stderr).not.toContain('problem on the service side');
    expect(srv.count('POST', '/api/webhooks')).toBe(1);
  });

  it('a GET answered the same way is not retried', async () => {
    srv.on('GET', MT_PATH, page(501, 'Unsupported method'));
    const r = await sched(['types', 'list'], srv.baseUrl);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('does not look like the scheduling API');
    expect(srv.count('GET', MT_PATH)).toBe(1);
  });

  it('a 503 page from a gateway in front of the API is still a service outage, retried', async () => {
    srv.on('GET', MT_PATH, page(503, 'Service Unavailable'));
    const r = await sched(['types', 'list'], srv.baseUrl);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('problem on the service side');
    expect(srv.count('GET', MT_PATH)).toBe(4);
  });
});

describe('the path and the base URL', () => {
  it('`sched api /api/webhooks` under a base URL ending in /api: a 404 with the fix', async () => {
    srv.on('GET', '/api/api/webhooks', f.json(404, { message: 'Not Found' }));
    const r = await sched(['api', '/api/webhooks'], srv.baseUrl);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(`not found (404): GET ${srv.baseUrl}/api/webhooks`);
    expect(r.stderr).toContain(
      `hint: the base URL ${srv.baseUrl} already ends in /api: leave /api out of the path (e.g. sched api /webhooks, not /api/webhooks)`,
    );
  });

  it('an IPv6 loopback base URL where nothing listens: says the sandbox is on 127.0.0.1', async () => {
    const port = await refusedPort();
    const r = await sched(['types', 'list'], `http://[::1]:${port}/api`);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `hint: is the sandbox running? start it with \`sched sandbox\`; it listens on 127.0.0.1 (IPv4) unless started with --host ::1, so try --base-url http://127.0.0.1:${port}/api`,
    );
  });
});
