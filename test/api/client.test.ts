import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createApiClient,
  encodeQuery,
  parseRetryAfter,
  type ApiClient,
  type ApiClientOptions,
  type RateLimitInfo,
} from '../../src/api/client.js';
import {
  ApiError,
  AuthError,
  Interrupted,
  NetworkError,
  NotFoundError,
  SchedError,
  UsageError,
} from '../../src/errors.js';
import {
  envelope,
  f,
  refusedUrl,
  startFaultServer,
  startProxy,
  type FaultServer,
} from '../helpers/fault-server.js';
import { failure } from '../helpers/failure.js';

const KEY = 'sk_live_DISTINCTIVE_key_9f3a';

let srv: FaultServer;
const clients: ApiClient[] = [];
let logs: string[];

function client(extra: Partial<ApiClientOptions> = {}): ApiClient {
  const c = createApiClient({
    baseUrl: srv.baseUrl,
    apiKey: KEY,
    timeoutMs: 5_000,
    userAgent: 'sched/9.9.9',
    log: (l) => logs.push(l),
    retry: { baseDelayMs: 5 },
    ...extra,
  });
  clients.push(c);
  return c;
}

beforeEach(async () => {
  srv = await startFaultServer();
  logs = [];
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await srv.close();
});

describe('requests', () => {
  it('sends the key, JSON headers and user agent, and encodes the query keeping brackets', async () => {
    srv.on(
      'GET',
      '/api/users/me/meeting-types',
      f.json(200, envelope([], { path: '/api/users/me/meeting-types' })),
    );
    const res = await client().request({
      method: 'GET',
      path: '/users/me/meeting-types',
      query: [
        ['limit', '50'],
        ['sorting[created_at]', 'desc'],
        ['q', 'a b&c'],
      ],
    });
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(1);
    const r = srv.requests[0]!;
    expect(r.url).toBe('/api/users/me/meeting-types?limit=50&sorting[created_at]=desc&q=a%20b%26c');
    expect(r.headers['x-api-key']).toBe(KEY);
    expect(r.headers.accept).toBe('application/json');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['user-agent']).toBe('sched/9.9.9');
  });

  it('sends a JSON body and returns every field the API returned', async () => {
    srv.on(
      'POST',
      '/api/webhooks',
      f.json(201, { uuid: 'u1', url: 'https://x', extra: { deep: 1 } }),
    );
    const res = await client().request<Record<string, unknown>>({
      method: 'POST',
      path: '/webhooks',
      body: { url: 'https://x', events: ['meetingScheduled'] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ uuid: 'u1', url: 'https://x', extra: { deep: 1 } });
    expect(JSON.parse(srv.requests[0]!.body)).toEqual({
      url: 'https://x',
      events: ['meetingScheduled'],
    });
  });

  it('accepts 204 with no body for DELETE', async () => {
    srv.on('DELETE', '/api/webhooks/abc', f.status(204));
    const res = await client().request({ method: 'DELETE', path: '/webhooks/abc' });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(res.alreadyGone).toBeUndefined();
  });
});

describe('retries', () => {
  it('retries a GET after 503 and succeeds; exactly 2 requests', async () => {
    srv.on('GET', '/api/webhooks', f.status(503), f.json(200, envelope([])));
    const res = await client().request({ method: 'GET', path: '/webhooks' });
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(2);
    expect(srv.count('GET', '/api/webhooks')).toBe(2);
  });

  it('gives up on a persistent 500 after 1 + 3 attempts with one clear line', async () => {
    srv.on('GET', '/api/webhooks', f.json(500, { message: 'Internal <b>failure</b>' }));
    const e = await failure(client().request({ method: 'GET', path: '/webhooks' }));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.exitCode).toBe(1);
    expect(e.message).toContain('500 Internal Server Error');
    expect(e.message).toContain(`GET ${srv.baseUrl}/webhooks`);
    expect(e.message).toContain('after 4 attempts');
    expect(srv.count()).toBe(4);
  });

  it('uses the default policy (base 250 ms) and still recovers', async () => {
    srv.on('GET', '/api/webhooks', f.status(502), f.json(200, envelope([])));
    const c = createApiClient({
      baseUrl: srv.baseUrl,
      apiKey: KEY,
      timeoutMs: 5000,
      userAgent: 'x',
    });
    clients.push(c);
    await c.request({ method: 'GET', path: '/webhooks' });
    expect(srv.count()).toBe(2);
  });

  it('never retries a POST after a 5xx', async () => {
    srv.on('POST', '/api/single-use-link', f.status(503));
    const e = await failure(
      client().request({ method: 'POST', path: '/single-use-link', body: {} }),
    );
    expect(e).toBeInstanceOf(ApiError);
    expect(srv.count()).toBe(1);
  });

  it('retries a GET after a connection reset', async () => {
    srv.on('GET', '/api/webhooks', f.reset(), f.json(200, envelope([])));
    const res = await client().request({ method: 'GET', path: '/webhooks' });
    expect(res.status).toBe(200);
    expect(srv.count()).toBe(2);
  });

  it('never duplicates a POST after a reset: one request, outcome unknown', async () => {
    srv.on('POST', '/api/webhooks', f.reset(), f.json(201, { uuid: 'dup' }));
    const e = await failure(
      client().request({
        method: 'POST',
        path: '/webhooks',
        body: { url: 'https://x' },
        unknownOutcomeHint: 'check with `sched webhooks ls`',
      }),
    );
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.message).toMatch(/outcome of POST http:\/\/[^ ]+\/api\/webhooks is unknown/);
    expect(e.hint).toContain('sched webhooks ls');
    expect(srv.count('POST')).toBe(1);
  });

  it('never duplicates a POST after a timeout', async () => {
    srv.on('POST', '/api/single-use-link', f.hang());
    const e = await failure(
      client({ timeoutMs: 300 }).request({ method: 'POST', path: '/single-use-link', body: {} }),
    );
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.message).toContain('unknown');
    expect(srv.count()).toBe(1);
  });

  it('retries a POST when the connection was refused (nothing was sent)', async () => {
    const base = await refusedUrl();
    const c = createApiClient({
      baseUrl: base,
      apiKey: KEY,
      timeoutMs: 2000,
      userAgent: 'x',
      log: (l) => logs.push(l),
      retry: { baseDelayMs: 1 },
    });
    clients.push(c);
    const e = await failure(c.request({ method: 'POST', path: '/webhooks', body: {} }));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.message).toMatch(
      /cannot connect to 127\.0\.0\.1:\d+: connection refused \(after 4 attempts\)/,
    );
    expect(e.hint).toContain('sched sandbox');
    expect(logs).toHaveLength(4);
    expect(logs[0]).toContain('ECONNREFUSED');
  });

  it('honours Retry-After in seconds on 429 and reports the 429 to the caller', async () => {
    srv.on('GET', '/api/webhooks', f.rateLimit(1), f.json(200, envelope([])));
    const seen: RateLimitInfo[] = [];
    const c = client();
    const unsubscribe = c.onRateLimit((i) => seen.push(i));
    const perRequest: RateLimitInfo[] = [];
    const res = await c.request({
      method: 'GET',
      path: '/webhooks',
      onRateLimit: (i) => perRequest.push(i),
    });
    unsubscribe();
    expect(res.status).toBe(200);
    expect(srv.count()).toBe(2);
    expect(seen).toEqual([{ method: 'GET', path: '/webhooks', retryAfterMs: 1000, attempt: 1 }]);
    expect(perRequest).toHaveLength(1);
    expect(logs[0]).toContain('retrying in 1 s');
  });

  it("hands a 429 to the request's owner and fails the attempt instead of retrying it", async () => {
    srv.on('POST', '/api/single-use-link', f.rateLimit(2), f.json(200, { code: 'c', url: 'u' }));
    const owned: RateLimitInfo[] = [];
    const e = await failure(
      client().request({
        method: 'POST',
        path: '/single-use-link',
        body: {},
        rateLimitOwner: (i) => {
          owned.push(i);
          return 1500;
        },
      }),
    );
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(429);
    expect(owned).toEqual([
      { method: 'POST', path: '/single-use-link', retryAfterMs: 2000, attempt: 1 },
    ]);
    expect(srv.count()).toBe(1);
    // --verbose says when the owner sends it again.
    expect(logs[0]).toMatch(/-> 429 in \d+ ms \(attempt 1; retrying in 1\.5 s\)$/);
    expect(logs).toHaveLength(1);
  });

  it('retries a POST answered 429 (the server did not process it)', async () => {
    srv.on('POST', '/api/single-use-link', f.rateLimit(), f.json(200, { code: 'c', url: 'u' }));
    const res = await client().request({ method: 'POST', path: '/single-use-link', body: {} });
    expect(res.body).toEqual({ code: 'c', url: 'u' });
    expect(srv.count()).toBe(2);
  });

  it('fails at once when Retry-After is beyond the cap, saying when to retry', async () => {
    srv.on('GET', '/api/webhooks', f.rateLimit(120));
    const e = await failure(client().request({ method: 'GET', path: '/webhooks' }));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.message).toMatch(/rate limited .*\(429\).*wait 120 s \(until \d\d:\d\d:\d\d\)/);
    expect(srv.count()).toBe(1);
  });

  it('gives up on persistent 429 without Retry-After after 4 attempts', async () => {
    srv.on('GET', '/api/webhooks', f.rateLimit());
    const e = await failure(client().request({ method: 'GET', path: '/webhooks' }));
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(429);
    expect(srv.count()).toBe(4);
  });

  it('treats a DELETE 404 after a lost answer as already deleted', async () => {
    srv.on(
      'DELETE',
      '/api/webhooks/w1',
      f.reset(),
      f.json(404, { code: 404, message: 'Not found.' }),
    );
    const res = await client().request({ method: 'DELETE', path: '/webhooks/w1' });
    expect(res.status).toBe(204);
    expect(res.alreadyGone).toBe(true);
    expect(srv.count()).toBe(2);
  });

  it('times out a silent server once per attempt and retries a GET once', async () => {
    srv.on('GET', '/api/webhooks', f.hang());
    const e = await failure(
      client({ timeoutMs: 200 }).request({ method: 'GET', path: '/webhooks' }),
    );
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.message).toMatch(/^no answer from 127\.0\.0\.1:\d+ within 0\.2 s \(--timeout\)/);
    expect(srv.count()).toBe(2);
  });

  it('covers the body in the timeout (headers sent, body never finished)', async () => {
    srv.on('GET', '/api/webhooks', f.truncated(), f.json(200, envelope([])));
    // The truncated answer closes the socket; recovery on the retry.
    const res = await client().request({ method: 'GET', path: '/webhooks' });
    expect(res.status).toBe(200);
    expect(srv.count()).toBe(2);
  });
});

describe('error mapping', () => {
  it('401 -> AuthError exit 4 with the server message and a login hint', async () => {
    srv.on('GET', '/api/webhooks', f.json(401, { message: 'Invalid API key' }));
    const e = await failure(client().request({ method: 'GET', path: '/webhooks' }));
    expect(e).toBeInstanceOf(AuthError);
    expect(e.exitCode).toBe(4);
    expect(e.message).toBe(
      `the API rejected the key (401) for GET ${srv.baseUrl}/webhooks: Invalid API key`,
    );
    expect(e.hint).toContain('sched auth login');
    expect(srv.count()).toBe(1);
  });

  it('403 with an HTML body -> AuthError', async () => {
    srv.on('GET', '/api/webhooks', f.html(403, '<html><title>Forbidden</title></html>'));
    const e = await failure(client().request({ method: 'GET', path: '/webhooks' }));
    expect(e.exitCode).toBe(4);
    expect(e.message).toBe(
      `the API rejected the key (403) for GET ${srv.baseUrl}/webhooks: Forbidden`,
    );
  });

  it('a server message that echoes the key is masked', async () => {
    srv.on('GET', '/api/webhooks', f.json(401, { message: `key ${KEY} is not valid` }));
    const e = await failure(client().request({ method: 'GET', path: '/webhooks' }));
    expect(e.message).not.toContain(KEY);
    expect(e.message).toContain('key **** is not valid');
  });

  it('404 -> NotFoundError exit 5', async () => {
    srv.on('DELETE', '/api/webhooks/nope', f.json(404, { code: 404, message: 'Not found.' }));
    const e = await failure(client().request({ method: 'DELETE', path: '/webhooks/nope' }));
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.exitCode).toBe(5);
    expect(e.message).toBe(`not found (404): DELETE ${srv.baseUrl}/webhooks/nope: Not found`);
    expect(srv.count()).toBe(1);
  });

  it('422 -> UsageError exit 2 with one line per field message', async () => {
    srv.on(
      'POST',
      '/api/single-use-link',
      f.json(422, {
        message: 'Invalid arguments',
        errors: { meetingTypeUuid: ['Meeting Type with uuid 123 was not found.'], url: ['a', 'b'] },
      }),
    );
    const e = await failure(
      client().request({ method: 'POST', path: '/single-use-link', body: {} }),
    );
    expect(e).toBeInstanceOf(UsageError);
    expect(e.exitCode).toBe(2);
    expect(e.message).toBe(
      `the API rejected POST ${srv.baseUrl}/single-use-link (422): Invalid arguments`,
    );
    expect(e.details).toEqual([
      'meetingTypeUuid: Meeting Type with uuid 123 was not found.',
      'url: a',
      'url: b',
    ]);
  });

  it('422 in other shapes (violations list, plain text) still reads well', async () => {
    srv.on(
      'POST',
      '/api/webhooks',
      f.json(422, {
        violations: [{ propertyPath: 'url', message: 'This value is not a valid URL.' }],
      }),
    );
    let e = await failure(client().request({ method: 'POST', path: '/webhooks', body: {} }));
    expect(e.details).toEqual(['url: This value is not a valid URL.']);
    srv.on('POST', '/api/webhooks', f.text(400, 'Bad request, sorry'));
    e = await failure(client().request({ method: 'POST', path: '/webhooks', body: {} }));
    expect(e.exitCode).toBe(2);
    expect(e.message).toContain('(400): Bad request, sorry');
  });

  it('200 with an HTML page -> ApiError naming the content type', async () => {
    srv.on('GET', '/api/webhooks', f.html(200, '<!doctype html><html><body>Login</body></html>'));
    const e = await failure(client().request({ method: 'GET', path: '/webhooks' }));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.message).toBe(`expected JSON from GET ${srv.baseUrl}/webhooks, got text/html`);
    expect(srv.count()).toBe(1);
  });

  it('broken JSON -> ApiError', async () => {
    srv.on('GET', '/api/webhooks', f.brokenJson());
    const e = await failure(client().request({ method: 'GET', path: '/webhooks' }));
    expect(e.message).toMatch(/^invalid JSON in the answer to GET http:\/\/[^ ]+\/api\/webhooks /);
  });

  it('an answer cut off on every attempt -> ApiError after retries', async () => {
    srv.on('GET', '/api/webhooks', f.truncated());
    const e = await failure(client().request({ method: 'GET', path: '/webhooks' }));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.message).toContain('was cut off');
    expect(srv.count()).toBe(4);
  });

  it('a POST whose answer is cut off is not retried', async () => {
    srv.on('POST', '/api/webhooks', f.truncated('{"uuid":"x'));
    const e = await failure(client().request({ method: 'POST', path: '/webhooks', body: {} }));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.message).toContain('unknown');
    expect(srv.count()).toBe(1);
  });

  it('an empty 200 where JSON is expected -> ApiError', async () => {
    srv.on('GET', '/api/webhooks', f.empty());
    const e = await failure(client().request({ method: 'GET', path: '/webhooks' }));
    expect(e.message).toBe(
      `empty answer from GET ${srv.baseUrl}/webhooks (200 with no body); expected JSON`,
    );
  });

  it('a huge answer is refused (default cap 50 MB)', async () => {
    srv.on('GET', '/api/webhooks', f.huge(60 * 1024 * 1024));
    const e = await failure(client().request({ method: 'GET', path: '/webhooks' }));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.message).toContain('larger than 50 MB');
    expect(srv.count()).toBe(1);
  });

  it('another 4xx -> ApiError naming the status', async () => {
    srv.on('POST', '/api/webhooks', f.json(409, { error: 'duplicate' }));
    const e = await failure(client().request({ method: 'POST', path: '/webhooks', body: {} }));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.message).toBe(
      `the API answered 409 Conflict to POST ${srv.baseUrl}/webhooks: duplicate`,
    );
  });

  it('DNS failure -> NetworkError naming the host, not retried', async () => {
    const c = createApiClient({
      baseUrl: 'http://sched-test.invalid/api',
      apiKey: KEY,
      timeoutMs: 5000,
      userAgent: 'x',
      log: (l) => logs.push(l),
    });
    clients.push(c);
    const e = await failure(c.request({ method: 'GET', path: '/webhooks' }));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.message).toMatch(/sched-test\.invalid/);
    expect(e.message).toMatch(/DNS/);
  });

  it('an untrusted certificate -> NetworkError naming TLS and NODE_EXTRA_CA_CERTS, not retried', async () => {
    const dir = new URL('../fixtures/tls/', import.meta.url);
    const tls = await startFaultServer({
      tls: {
        key: readFileSync(new URL('server.key', dir)),
        cert: readFileSync(new URL('server.pem', dir)),
      },
    });
    try {
      const c = createApiClient({
        baseUrl: tls.baseUrl,
        apiKey: KEY,
        timeoutMs: 3000,
        userAgent: 'x',
        log: (l) => logs.push(l),
      });
      clients.push(c);
      const e = await failure(c.request({ method: 'GET', path: '/webhooks' }));
      expect(e).toBeInstanceOf(NetworkError);
      expect(e.message).toMatch(
        /^TLS error talking to 127\.0\.0\.1:\d+: .*\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)$/,
      );
      expect(e.hint).toContain('NODE_EXTRA_CA_CERTS');
      expect(logs).toHaveLength(1);
      expect(tls.count()).toBe(0);
    } finally {
      await tls.close();
    }
  });

  it('no error ever carries a stack trace into its message', async () => {
    srv.on('GET', '/api/webhooks', f.reset());
    const e = await failure(client().request({ method: 'GET', path: '/webhooks' }));
    expect(e.message).not.toMatch(/\n\s+at /);
    expect(e.message).toMatch(/connection to 127\.0\.0\.1:\d+ was reset/);
  });
});

describe('redirects', () => {
  it('follows a same-origin redirect for GET with the key', async () => {
    srv.on('GET', '/api/webhooks', f.redirect('/api/v2/webhooks', 301));
    srv.on('GET', '/api/v2/webhooks', f.json(200, envelope([])));
    const res = await client().request({ method: 'GET', path: '/webhooks' });
    expect(res.status).toBe(200);
    expect(srv.requests[1]!.headers['x-api-key']).toBe(KEY);
  });

  it('drops the key when a redirect leaves the configured origin', async () => {
    const other = await startFaultServer();
    try {
      other.on('GET', '/api/webhooks', f.json(401, { message: 'who are you' }));
      srv.on('GET', '/api/webhooks', f.redirect(`${other.url}/api/webhooks`));
      const e = await failure(client().request({ method: 'GET', path: '/webhooks' }));
      expect(other.count()).toBe(1);
      expect(other.requests[0]!.headers['x-api-key']).toBeUndefined();
      expect(e).toBeInstanceOf(AuthError);
      expect(e.message).toContain('never sent to another host');
    } finally {
      await other.close();
    }
  });

  it('does not follow a redirect for POST', async () => {
    srv.on('POST', '/api/webhooks', f.redirect('/elsewhere', 307));
    const e = await failure(client().request({ method: 'POST', path: '/webhooks', body: {} }));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.message).toContain('a POST is not re-sent');
    expect(srv.count()).toBe(1);
  });

  it.each([
    ['ftp://files.sched-test.invalid/x', 'to a non-HTTP address'],
    ['http://[not-an-address', 'to an invalid address'],
  ])('does not follow a redirect to %s', async (location, words) => {
    srv.on('GET', '/api/webhooks', f.redirect(location));
    const e = await failure(client().request({ method: 'GET', path: '/webhooks' }));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.message).toMatch(new RegExp(`redirected GET \\S*/api/webhooks ${words}$`));
    expect(srv.count()).toBe(1);
  });

  it('stops after 5 redirects', async () => {
    srv.on('GET', '/api/loop', f.redirect('/api/loop'));
    const e = await failure(client().request({ method: 'GET', path: '/loop' }));
    expect(e.message).toContain('too many redirects');
    expect(srv.count()).toBe(6);
  });
});

describe('verbose, abort, proxy', () => {
  it('logs one line per attempt with method, URL, status, ms and attempt, never the key', async () => {
    srv.on('GET', '/api/webhooks', f.status(503), f.json(200, envelope([])));
    await client().request({ method: 'GET', path: '/webhooks', query: [['page', '1']] });
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/api\/webhooks\?page=1 -> 503 in \d+ ms \(attempt 1; retrying in [\d.]+ s\)$/,
    );
    expect(logs[1]).toMatch(/-> 200 in \d+ ms \(attempt 2\)$/);
    for (const l of logs) {
      expect(l).not.toContain(KEY);
      expect(l).not.toContain(KEY.slice(0, 8));
    }
  });

  it('an aborted signal ends the request with Interrupted (exit 130, 143 for SIGTERM)', async () => {
    srv.on('GET', '/api/webhooks', f.hang());
    const ctl = new AbortController();
    const p = client().request({ method: 'GET', path: '/webhooks', signal: ctl.signal });
    setTimeout(() => ctl.abort('SIGTERM'), 50);
    const e = await failure(p);
    expect(e).toBeInstanceOf(Interrupted);
    expect(e.exitCode).toBe(143);
    const ctl2 = new AbortController();
    ctl2.abort('SIGINT');
    const e2 = await failure(
      client().request({ method: 'GET', path: '/webhooks', signal: ctl2.signal }),
    );
    expect(e2.exitCode).toBe(130);
  });

  it('close() does not hang on a request still in flight', async () => {
    srv.on('GET', '/api/webhooks', f.hang());
    const c = createApiClient({
      baseUrl: srv.baseUrl,
      apiKey: KEY,
      timeoutMs: 60_000,
      userAgent: 'x',
    });
    const pending = c.request({ method: 'GET', path: '/webhooks' }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    await c.close();
    expect(await pending).toBeInstanceOf(SchedError);
  });

  it('goes through HTTPS_PROXY/HTTP_PROXY from the env it is given', async () => {
    srv.on('GET', '/api/webhooks', f.json(200, envelope([{ uuid: 'via-proxy' }])));
    const proxy = await startProxy({ host: '127.0.0.1', port: srv.port });
    try {
      const c = createApiClient({
        // A host that does not resolve: only the proxy can make this work.
        baseUrl: 'http://api.sched-test.invalid/api',
        apiKey: KEY,
        timeoutMs: 5000,
        userAgent: 'x',
        env: { HTTP_PROXY: proxy.url },
      });
      clients.push(c);
      const res = await c.request<{ _embedded: { items: unknown[] } }>({
        method: 'GET',
        path: '/webhooks',
      });
      expect(res.body._embedded.items).toEqual([{ uuid: 'via-proxy' }]);
      expect(proxy.connects).toEqual(['api.sched-test.invalid:80']);
      expect(srv.count()).toBe(1);
      expect(srv.requests[0]!.headers['x-api-key']).toBe(KEY);
    } finally {
      await proxy.close();
    }
  });

  it('NO_PROXY and loopback bypass the proxy', async () => {
    srv.on('GET', '/api/webhooks', f.json(200, envelope([])));
    const proxy = await startProxy({ host: '127.0.0.1', port: srv.port });
    try {
      const c = createApiClient({
        baseUrl: srv.baseUrl,
        apiKey: KEY,
        timeoutMs: 5000,
        userAgent: 'x',
        env: { https_proxy: proxy.url, http_proxy: proxy.url },
      });
      clients.push(c);
      await c.request({ method: 'GET', path: '/webhooks' });
      expect(proxy.connects).toEqual([]);
      const viaNoProxy = createApiClient({
        baseUrl: 'http://api.sched-test.invalid/api',
        apiKey: KEY,
        timeoutMs: 5000,
        userAgent: 'x',
        env: { HTTP_PROXY: proxy.url, NO_PROXY: '.sched-test.invalid' },
        retry: { baseDelayMs: 1 },
      });
      clients.push(viaNoProxy);
      const e = await failure(viaNoProxy.request({ method: 'GET', path: '/webhooks' }));
      expect(e).toBeInstanceOf(NetworkError);
      expect(proxy.connects).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});

describe('helpers', () => {
  it('encodeQuery keeps brackets of names literal and encodes everything else', () => {
    expect(encodeQuery([['sorting[name]', 'asc']])).toBe('?sorting[name]=asc');
    expect(encodeQuery([['x', '[v]']])).toBe('?x=%5Bv%5D');
    expect(encodeQuery([])).toBe('');
  });

  it('parseRetryAfter reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});
