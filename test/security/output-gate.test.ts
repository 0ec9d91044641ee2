// Issue 20, points 3, 4 and 9: the one output gate masks every secret the command knows, in
// every message and every encoding a server may echo, and commander's own messages pass it too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useConfigDir } from '../helpers/config-dir.js';
import { f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runSched, spawnSched } from '../helpers/run.js';

const KEY = 'k7Qz9XvB2mWp4RtL8sNc3Hd6';
const config = useConfigDir('sched-sec-gate-');
let srv: FaultServer;
beforeAll(async () => {
  srv = await startFaultServer();
});
afterAll(() => srv.close());

const env = () => ({
  SCHED_BASE_URL: srv.baseUrl,
  SCHED_API_KEY: KEY,
  SCHED_CONFIG_DIR: config.path,
});

describe('3. a key in a Location header is masked in the error line', () => {
  it('302 to a URL holding the key, followed, then an error status: the URL is masked', async () => {
    srv.clear();
    srv.on('GET', '/api/users/me/meeting-types', f.redirect(`/api/next?k=${KEY}`, 302));
    srv.on('GET', '/api/next', f.json(500, { message: 'boom' }));
    const r = await runSched(['types', 'list'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stderr).toContain('/api/next?k=****');
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('307 answering a POST, not re-sent: the location is masked', async () => {
    srv.clear();
    srv.on('POST', '/api/webhooks', f.redirect(`${srv.baseUrl}/hooks?k=${KEY}`, 307));
    const r = await runSched(['webhooks', 'add', '--url', 'https://example.com/h', '--no-secret'], {
      env: env(),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('redirect');
    expect(r.stderr).toContain('?k=****');
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('the key URL-encoded in a Location: masked too', async () => {
    const key = 'k7Qz9X/B2mWp+RtL8sNc=Hd6';
    srv.clear();
    srv.on(
      'GET',
      '/api/users/me/meeting-types',
      f.redirect(`/api/next?k=${encodeURIComponent(key)}`),
    );
    srv.on('GET', '/api/next', f.json(404, { message: 'nope' }));
    const r = await runSched(['types', 'list'], { env: { ...env(), SCHED_API_KEY: key } });
    expect(r.code).toBe(5);
    expect(r.stderr).not.toContain(encodeURIComponent(key));
    expect(r.stderr).not.toContain(key);
  });
});

describe("4. commander's own messages pass the gate", () => {
  const hostile = '--x\x1b]0;PWNED\x07\x1b[2J';
  it.each([
    ['an unknown option', [hostile]],
    ['an unknown command', ['\x1b[2Jtypes\x1b]52;c;aGk=\x07']],
    ['an invalid option value', ['--timeout', '\x1b[2J5', 'types', 'list']],
    ['an unknown subcommand', ['webhooks', '\x1b]0;PWNED\x07']],
  ])('%s: no escape or control character reaches stderr', async (_what, argv) => {
    const r = await spawnSched(argv, { env: { SCHED_CONFIG_DIR: config.path } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: /);
    // eslint-disable-next-line no-control-regex
    expect(r.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(r.stdout).toBe('');
  });

  it('help on stdout passes the gate too (a hostile word in a help request)', async () => {
    const r = await spawnSched(['help', 'webhooks', '\x1b[2J'], {
      env: { SCHED_CONFIG_DIR: config.path },
    });
    // eslint-disable-next-line no-control-regex
    expect(r.stdout + r.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  });
});

describe('9. every encoding of a secret a server may echo is masked', () => {
  const SECRET = 'my"secret\\value&x=1 y';
  const encodings = [
    ['JSON-escaped', JSON.stringify(SECRET).slice(1, -1)],
    ['URL-encoded', encodeURIComponent(SECRET)],
    ['form-encoded', new URLSearchParams({ s: SECRET }).toString().slice(2)],
    ['raw', SECRET],
  ] as const;

  it.each(encodings)('%s, in a 422 body echoed into the error line', async (_what, echoed) => {
    srv.clear();
    srv.on('POST', '/api/webhooks', f.json(422, { message: `bad secret ${echoed}`, errors: {} }));
    const r = await runSched(
      ['webhooks', 'add', '--url', 'https://example.com/h', '--secret', SECRET],
      { env: env() },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad secret ****');
    expect(r.stderr).not.toContain(echoed);
  });

  it('a server echoing the body: the JSON output does not show the given secret', async () => {
    srv.clear();
    srv.on('POST', '/api/webhooks', (req) =>
      f.json(201, { uuid: '0f8fad5b-d9cb-469f-a165-70867728950e', ...JSON.parse(req.body) }),
    );
    const r = await runSched(
      ['webhooks', 'add', '--url', 'https://example.com/h', '--secret', SECRET, '--json'],
      { env: env() },
    );
    expect(r.code, r.stderr).toBe(0);
    for (const [, echoed] of encodings) expect(r.stdout).not.toContain(echoed);
    expect(JSON.parse(r.stdout)).toMatchObject({ secret: '****' });
  });
});
