// The one HTTP client (api/exchange.ts), driven directly against local servers on port 0: what
// reaches the server (headers, bytes), what comes back (status, headers, body, the ceiling on
// it), each way of getting no answer (timeout, abort, reset, cut-off, refused, closed), the
// redirect policy of the API and the receiver's, and which requests go through a proxy. The
// callers' wording of these results is tested with them (client*.test.ts, webhooks/http.test.ts).
// These tests are also the ones `npm run mutation` runs against the exchange's mutants.
import { getEventListeners } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/errors.js';
import {
  createTransport,
  MAX_REDIRECTS,
  sendToReceiver,
  type ExchangeRequest,
  type ExchangeResult,
  type Transport,
  type TransportOptions,
} from '../../src/api/exchange.js';
import {
  f,
  refusedUrl,
  startFaultServer,
  startProxy,
  type FaultServer,
} from '../helpers/fault-server.js';

const KEY = 'sk_live_exchange_KEY_41c7';

let srv: FaultServer;
/** Another origin (another port), for redirects that leave the configured one. */
let other: FaultServer;
/** For what the fault server cannot show or do: raw bytes, repeated headers, a body in pieces. */
let raw: RawServer;
beforeAll(async () => {
  srv = await startFaultServer();
  other = await startFaultServer();
  raw = await startRawServer();
});
afterAll(async () => {
  await srv.close();
  await other.close();
  await raw.close();
});

const transports: Transport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close(true)));
  srv.clear();
  other.clear();
  raw.got.length = 0;
  raw.sockets = 0;
  raw.reply = (_req, res) => res.end();
});

function transport(extra: Partial<TransportOptions> = {}): Transport {
  const t = createTransport({
    baseUrl: srv.baseUrl,
    apiKey: KEY,
    timeoutMs: 5_000,
    userAgent: 'sched/9.9.9',
    maxBodyBytes: 1_000_000,
    connections: 4,
    env: {},
    ...extra,
  });
  transports.push(t);
  return t;
}

/** One exchange; the redirect log lines collected in `logs`. */
async function run(
  req: Partial<ExchangeRequest> & { path: string },
  extra: Partial<TransportOptions> = {},
  attempt = 1,
): Promise<{ r: ExchangeResult; logs: string[]; elapsed: number }> {
  const logs: string[] = [];
  const started = performance.now();
  const r = await transport(extra).exchange({ method: 'GET', ...req }, attempt, (l) =>
    logs.push(l),
  );
  return { r, logs, elapsed: performance.now() - started };
}

function answerOf(r: ExchangeResult) {
  if (r.kind !== 'answer') throw new Error(`expected an answer, got ${JSON.stringify(r)}`);
  return r.answer;
}

function failureOf(r: ExchangeResult | Awaited<ReturnType<typeof sendToReceiver>>) {
  if (r.kind !== 'failed') throw new Error(`expected a failure, got ${r.kind}`);
  return r.failure;
}

/** A server that records each request's raw bytes and answers with `reply`. */
interface RawServer {
  url: string;
  got: Array<{ method: string; url: string; rawHeaders: string[]; body: Buffer }>;
  /** Connections opened so far. */
  sockets: number;
  /** Connections still open. */
  open(): number;
  reply: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  close(): Promise<void>;
}
async function startRawServer(): Promise<RawServer> {
  const open = new Set<net.Socket>();
  const s: RawServer = {
    url: '',
    got: [],
    sockets: 0,
    open: () => open.size,
    reply: (_req, res) => res.end(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const sock of open) sock.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      s.got.push({
        method: req.method ?? '',
        url: req.url ?? '',
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
      });
      s.reply(req, res);
    });
  });
  server.on('connection', (sock) => {
    s.sockets++;
    open.add(sock);
    sock.on('close', () => open.delete(sock));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return s;
}

/** Header names as they reached the server, lower-cased and sorted. */
const names = (rawHeaders: string[]) =>
  rawHeaders
    .filter((_, i) => i % 2 === 0)
    .map((n) => n.toLowerCase())
    .sort();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('what the API client sends', () => {
  it('the base path, the path and the query; JSON headers, the user agent and the key', async () => {
    srv.on('GET', '/api/users/me', f.json(200, { ok: true }));
    const { r } = await run(
      { path: '/users/me', query: [['sorting[name]', 'a b']] },
      { baseUrl: `${srv.baseUrl}//` },
    );
    expect(r.kind).toBe('answer');
    const got = srv.requests[0]!;
    expect(got.url).toBe('/api/users/me?sorting[name]=a%20b');
    expect(got.headers.accept).toBe('application/json');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe('sched/9.9.9');
    expect(got.headers['x-api-key']).toBe(KEY);
    expect(got.body).toBe('');
  });

  it("the caller's headers replace the defaults whatever their case; a secret one stays", async () => {
    srv.on('GET', '/api/x', f.status(204));
    await run({
      path: '/x',
      headers: { Accept: 'text/csv', Authorization: 'Bearer t', 'X-Trace': '1' },
    });
    const got = srv.requests[0]!;
    expect(got.headers.accept).toBe('text/csv');
    expect(got.headers.authorization).toBe('Bearer t');
    expect(got.headers['x-trace']).toBe('1');
  });

  it('a body as JSON; raw bytes byte for byte', async () => {
    const base = { baseUrl: `${raw.url}/api` };
    await run({ method: 'POST', path: '/j', body: { a: [1, 'é'] } }, base);
    const bytes = Uint8Array.from([0xff, 0x00, 0x80, 0x7b, 0x0a]);
    await run({ method: 'PUT', path: '/r', rawBody: bytes, body: { ignored: true } }, base);
    expect(raw.got.map((g) => [g.method, g.url])).toEqual([
      ['POST', '/api/j'],
      ['PUT', '/api/r'],
    ]);
    expect(raw.got[0]!.body.toString('utf8')).toBe('{"a":[1,"é"]}');
    expect([...raw.got[1]!.body]).toEqual([...bytes]);
  });

  it('keeps connections to the given number (a pool per client)', async () => {
    raw.reply = (_req, res) => setTimeout(() => res.end('{}'), 60);
    const t = transport({ baseUrl: `${raw.url}/api`, connections: 1 });
    const all = await Promise.all(
      [1, 2, 3].map(() => t.exchange({ method: 'GET', path: '/p' }, 1, () => {})),
    );
    expect(all.map((r) => r.kind)).toEqual(['answer', 'answer', 'answer']);
    expect(raw.got).toHaveLength(3);
    expect(raw.sockets).toBe(1);
  });
});

describe('what the API client gets back', () => {
  it('status, lower-case headers (repeated ones joined), the whole body, the URL and a duration', async () => {
    raw.reply = (_req, res) => {
      res.setHeader('X-Two', ['a', 'b']);
      res.setHeader('Content-Type', 'application/json');
      res.writeHead(201);
      res.end('{"id":7}');
    };
    const { r, elapsed } = await run({ path: '/things' }, { baseUrl: `${raw.url}/api` });
    expect(r.kind).toBe('answer');
    const a = answerOf(r);
    expect(a.status).toBe(201);
    expect(a.headers['x-two']).toBe('a, b');
    expect(a.headers['content-type']).toBe('application/json');
    expect(a.body.toString()).toBe('{"id":7}');
    expect(a.url.href).toBe(`${raw.url}/api/things`);
    expect(a.crossOrigin).toBe(false);
    const ms = r.kind === 'answer' ? r.ms : -1;
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(ms).toBeLessThanOrEqual(Math.ceil(elapsed));
  });

  it('an answer of exactly the ceiling is read whole; one byte more is refused by its length', async () => {
    srv.on('GET', '/api/ten', f.text(200, '0123456789'));
    const { r } = await run({ path: '/ten' }, { maxBodyBytes: 10 });
    expect(answerOf(r).body.toString()).toBe('0123456789');
    const { r: over } = await run({ path: '/ten' }, { maxBodyBytes: 9 });
    expect(failureOf(over)).toEqual({
      kind: 'too-large',
      code: 'ETOOLARGE',
      notSent: false,
      detail: '10 bytes',
    });
  });

  it('an answer without a length is refused once it passes the ceiling, kept at it', async () => {
    // 64 bytes, in two pieces, without a Content-Length.
    raw.reply = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('x'.repeat(63));
      setTimeout(() => res.end('y'), 20);
    };
    const base = { baseUrl: `${raw.url}/api` };
    const at = await run({ path: '/chunked' }, { ...base, maxBodyBytes: 64 });
    expect(answerOf(at.r).body.toString()).toBe('x'.repeat(63) + 'y');
    const over = await run({ path: '/chunked' }, { ...base, maxBodyBytes: 63 });
    expect(failureOf(over.r)).toMatchObject({ kind: 'too-large', detail: 'over 63 bytes' });
    const first = await run({ path: '/chunked' }, { ...base, maxBodyBytes: 62 });
    expect(failureOf(first.r)).toMatchObject({ kind: 'too-large', detail: 'over 62 bytes' });
  });
});

describe('the API client getting no answer', () => {
  it('a refused connection: its failure and the URL', async () => {
    const base = await refusedUrl();
    const { r, elapsed } = await run({ path: '/x' }, { baseUrl: base });
    expect(r).toMatchObject({
      kind: 'failed',
      failure: { kind: 'refused', code: 'ECONNREFUSED', notSent: true },
      url: new URL(`${base}/x`),
    });
    const ms = r.kind === 'failed' ? r.ms : -1;
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(ms).toBeLessThanOrEqual(Math.ceil(elapsed));
  });

  it('no headers within the timeout: timed out', async () => {
    srv.on('GET', '/api/silent', f.hang());
    const { r } = await run({ path: '/silent' }, { timeoutMs: 150 });
    expect(failureOf(r)).toEqual({
      kind: 'timeout',
      code: 'ETIMEDOUT',
      notSent: false,
      detail: 'timed out',
    });
  });

  it('headers sent, then the body stalls: timed out, not cut off', async () => {
    raw.reply = (_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"a":');
    };
    const { r } = await run({ path: '/stall' }, { baseUrl: `${raw.url}/api`, timeoutMs: 150 });
    expect(failureOf(r)).toMatchObject({ kind: 'timeout', code: 'ETIMEDOUT' });
  });

  it('reset before the answer: reset; closed in the middle of the body: cut off', async () => {
    srv.on('GET', '/api/reset', f.reset());
    const { r } = await run({ path: '/reset' });
    expect(failureOf(r)).toMatchObject({ kind: 'reset', notSent: false });
    srv.on('GET', '/api/cut', f.truncated());
    const { r: cut } = await run({ path: '/cut' });
    expect(failureOf(cut)).toMatchObject({ kind: 'cut-off', notSent: false });
  });

  it('a signal aborted before: no request, aborted; aborted in flight: aborted', async () => {
    const before = await run({ path: '/never', signal: AbortSignal.abort() });
    expect(before.r).toEqual({ kind: 'aborted', url: new URL(`${srv.baseUrl}/never`) });
    await sleep(30);
    expect(srv.count()).toBe(0);
    srv.on('GET', '/api/hang', f.hang());
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 50);
    const during = await run({ path: '/hang', signal: ctl.signal }, { timeoutMs: 10_000 });
    expect(during.r.kind).toBe('aborted');
    expect(during.elapsed).toBeLessThan(5_000);
  });

  it("leaves no listener on the caller's signal (one signal serves a whole command)", async () => {
    srv.on('GET', '/api/ok', f.json(200, {}));
    srv.on('GET', '/api/fail', f.reset());
    const ctl = new AbortController();
    for (const path of ['/ok', '/fail']) await run({ path, signal: ctl.signal });
    expect(getEventListeners(ctl.signal, 'abort')).toHaveLength(0);
    // An abort after the answer changes nothing.
    ctl.abort();
  });

  it('leaves no timer running once answered (nothing holds the process until --timeout)', async () => {
    srv.on('GET', '/api/quick', f.json(200, {}));
    // Our timers are the ones set for --timeout (60 s here); undici's own come and go.
    const set = vi.spyOn(globalThis, 'setTimeout');
    const cleared = vi.spyOn(globalThis, 'clearTimeout');
    try {
      const t = transport({ timeoutMs: 60_000 });
      for (let i = 0; i < 3; i++) await t.exchange({ method: 'GET', path: '/quick' }, 1, () => {});
      const ours = set.mock.calls.flatMap((call, i) =>
        call[1] === 60_000 ? [set.mock.results[i]!.value as unknown] : [],
      );
      expect(ours).toHaveLength(3);
      for (const timer of ours) expect(cleared.mock.calls.some((c) => c[0] === timer)).toBe(true);
    } finally {
      set.mockRestore();
      cleared.mockRestore();
    }
  });

  it('close(true) fails a request in flight; close(false) lets it finish', async () => {
    srv.on('GET', '/api/late', f.delay(150, f.json(200, { late: true })));
    const cut = transport();
    const p = cut.exchange({ method: 'GET', path: '/late' }, 1, () => {});
    await sleep(40);
    await cut.close(true);
    expect(failureOf(await p)).toMatchObject({ kind: 'closed', notSent: false });
    const graceful = transport();
    let answered = false;
    const q = graceful.exchange({ method: 'GET', path: '/late' }, 1, () => {});
    void q.then(() => (answered = true));
    await sleep(40);
    await graceful.close(false);
    // Closing waited for the answer.
    expect(answered).toBe(true);
    expect(answerOf(await q).body.toString()).toBe('{"late":true}');
  });

  it('an answer refused by its length frees its connection for the next request', async () => {
    raw.reply = (req, res) => {
      if (req.url === '/api/big') {
        res.writeHead(200, { 'content-length': String(4 * 1024 * 1024) });
        res.end(Buffer.alloc(4 * 1024 * 1024, 0x61));
      } else res.end('small');
    };
    const t = transport({
      baseUrl: `${raw.url}/api`,
      connections: 1,
      maxBodyBytes: 1_000,
      timeoutMs: 2_000,
    });
    const big = await t.exchange({ method: 'GET', path: '/big' }, 1, () => {});
    expect(failureOf(big)).toMatchObject({ kind: 'too-large' });
    const next = await t.exchange({ method: 'GET', path: '/small' }, 1, () => {});
    expect(answerOf(next).body.toString()).toBe('small');
  });
});

describe("the API's redirects", () => {
  it('a GET follows a same-origin redirect with the key, one log line per hop', async () => {
    srv.on('GET', '/api/a', f.redirect('/api/b', 302));
    srv.on('GET', '/api/b', f.redirect('c', 307));
    srv.on('GET', '/api/c', f.json(200, { at: 'c' }));
    const { r, logs } = await run({ path: '/a' }, {}, 3);
    const a = answerOf(r);
    expect(a.body.toString()).toBe('{"at":"c"}');
    expect(a.url.href).toBe(`${srv.baseUrl}/c`);
    expect(srv.requests.map((q) => [q.path, q.headers['x-api-key']])).toEqual([
      ['/api/a', KEY],
      ['/api/b', KEY],
      ['/api/c', KEY],
    ]);
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatch(
      new RegExp(
        `^GET ${srv.baseUrl}/a -> 302 in \\d+ ms \\(attempt 3; redirect to ${srv.baseUrl}/b\\)$`,
      ),
    );
    expect(logs[1]).toMatch(/ -> 307 in \d+ ms \(attempt 3; redirect to .*\/api\/c\)$/);
  });

  it.each([301, 302, 303, 307, 308])('%i is followed', async (status) => {
    srv.on('GET', '/api/from', f.redirect('/api/to', status));
    srv.on('GET', '/api/to', f.json(200, {}));
    const { r } = await run({ path: '/from' });
    expect(answerOf(r).status).toBe(200);
    expect(srv.count('GET', '/api/to')).toBe(1);
  });

  it.each([300, 304, 200])('%i with a Location is an answer', async (status) => {
    srv.on('GET', '/api/from', { kind: 'respond', status, headers: { location: '/api/to' } });
    const { r, logs } = await run({ path: '/from' });
    expect(answerOf(r).status).toBe(status);
    expect(srv.count('GET', '/api/to')).toBe(0);
    expect(logs).toEqual([]);
  });

  it('a redirect without a Location is an answer', async () => {
    srv.on('GET', '/api/nowhere', f.status(302));
    const { r } = await run({ path: '/nowhere' });
    expect(answerOf(r).status).toBe(302);
  });

  it('another origin: no key, no secret header, the others kept; the answer says so', async () => {
    srv.on('GET', '/api/out', f.redirect(`${other.url}/landing`));
    other.on('GET', '/landing', f.json(200, { there: true }));
    const { r } = await run({
      path: '/out',
      headers: { Authorization: 'Bearer secret', 'X-Trace': 't1' },
    });
    const a = answerOf(r);
    expect(a.crossOrigin).toBe(true);
    expect(a.url.href).toBe(`${other.url}/landing`);
    const got = other.requests[0]!.headers;
    expect(got).not.toHaveProperty('x-api-key');
    expect(got).not.toHaveProperty('authorization');
    expect(got['x-trace']).toBe('t1');
    expect(got['user-agent']).toBe('sched/9.9.9');
    expect(srv.requests[0]!.headers.authorization).toBe('Bearer secret');
  });

  it('a POST is not redirected: refused, with status, location and URL', async () => {
    srv.on('POST', '/api/make', f.redirect('/api/made', 303));
    const { r } = await run({ method: 'POST', path: '/make', body: {} });
    expect(r).toEqual({
      kind: 'redirect-refused',
      why: 'post',
      status: 303,
      location: '/api/made',
      url: new URL(`${srv.baseUrl}/make`),
    });
    expect(srv.count()).toBe(1);
  });

  it('DELETE follows a same-origin redirect, never one to another origin; PUT none', async () => {
    srv.on('DELETE', '/api/d', f.redirect('/api/d2', 307));
    srv.on('DELETE', '/api/d2', f.status(204));
    const { r } = await run({ method: 'DELETE', path: '/d' });
    expect(answerOf(r).status).toBe(204);
    expect(srv.count('DELETE', '/api/d2')).toBe(1);
    srv.on('DELETE', '/api/e', f.redirect(`${other.url}/e`, 308));
    const { r: away } = await run({ method: 'DELETE', path: '/e' });
    expect(away).toMatchObject({ kind: 'redirect-refused', why: 'elsewhere', status: 308 });
    for (const method of ['PUT', 'PATCH'] as const) {
      srv.on(method, '/api/p', f.redirect('/api/p2', 307));
      const { r: put } = await run({ method, path: '/p', body: {} });
      expect(put).toMatchObject({ kind: 'redirect-refused', why: 'post' });
    }
    expect(other.count()).toBe(0);
    expect(srv.count('PUT', '/api/p2') + srv.count('PATCH', '/api/p2')).toBe(0);
  });

  it(`follows ${MAX_REDIRECTS} redirects, refuses the one after`, async () => {
    for (let i = 0; i < 6; i++) srv.on('GET', `/api/r${i}`, f.redirect(`/api/r${i + 1}`));
    srv.on('GET', '/api/r6', f.json(200, {}));
    const { r: five } = await run({ path: '/r1' });
    expect(answerOf(five).url.pathname).toBe('/api/r6');
    srv.clear();
    for (let i = 0; i < 6; i++) srv.on('GET', `/api/r${i}`, f.redirect(`/api/r${i + 1}`));
    srv.on('GET', '/api/r6', f.json(200, {}));
    const { r: six, logs } = await run({ path: '/r0' });
    expect(six).toMatchObject({
      kind: 'redirect-refused',
      why: 'too-many',
      location: '/api/r6',
      url: new URL(`${srv.baseUrl}/r5`),
    });
    expect(logs).toHaveLength(5);
    expect(srv.count()).toBe(6);
  });

  it('a Location that is not a URL, or not http(s): refused, naming why', async () => {
    srv.on('GET', '/api/bad', f.redirect('http://[not-a-host/x'));
    const { r } = await run({ path: '/bad' });
    expect(r).toMatchObject({
      kind: 'redirect-refused',
      why: 'invalid',
      location: 'http://[not-a-host/x',
    });
    srv.on('GET', '/api/ftp', f.redirect('ftp://files.example/x'));
    const { r: ftp } = await run({ path: '/ftp' });
    expect(ftp).toMatchObject({ kind: 'redirect-refused', why: 'not-http', status: 302 });
    srv.on('GET', '/api/tls', f.redirect(`https://127.0.0.1:${srv.port}/api/x`));
    const { r: https } = await run({ path: '/tls' });
    // https is followed (and fails here: the server speaks plain HTTP).
    expect(https.kind).toBe('failed');
  });
});

describe('proxies', () => {
  it('no proxy variable: everything direct', () => {
    const t = transport({ env: { PATH: '/usr/bin' } });
    expect(t.proxiedFor(new URL('https://api.example.com/x'))).toBe(false);
  });

  it.each([
    // [env, URL, through a proxy]
    [{ HTTPS_PROXY: 'http://p:9' }, 'https://api.example.com/x', true],
    [{ HTTPS_PROXY: 'http://p:9' }, 'http://api.example.com/x', false],
    [{ HTTP_PROXY: 'http://p:9' }, 'http://api.example.com/x', true],
    [{ HTTP_PROXY: 'http://p:9' }, 'https://api.example.com/x', true],
    [{ http_proxy: 'http://p:9' }, 'http://api.example.com/x', true],
    [{ https_proxy: 'http://p:9' }, 'https://api.example.com/x', true],
    [{ HTTP_PROXY: '' }, 'http://api.example.com/x', false],
    [{ HTTPS_PROXY: 'http://p:9' }, 'https://127.0.0.1:8080/x', false],
    [{ HTTPS_PROXY: 'http://p:9' }, 'https://localhost:8080/x', false],
    [{ HTTPS_PROXY: 'http://p:9' }, 'https://[::1]:8080/x', false],
    [{ HTTPS_PROXY: 'http://p:9', NO_PROXY: 'skip.example' }, 'https://skip.example/x', false],
    [{ HTTPS_PROXY: 'http://p:9', NO_PROXY: 'skip.example' }, 'https://a.skip.example/x', false],
    [{ HTTPS_PROXY: 'http://p:9', NO_PROXY: 'skip.example' }, 'https://noskip.example/x', true],
    [{ HTTPS_PROXY: 'http://p:9', NO_PROXY: '.skip.example' }, 'https://a.skip.example/x', false],
    [{ HTTPS_PROXY: 'http://p:9', NO_PROXY: '*.SKIP.example' }, 'https://a.skip.example/x', false],
    [
      { HTTPS_PROXY: 'http://p:9', no_proxy: 'x.example, skip.example' },
      'https://skip.example/',
      false,
    ],
    [
      { HTTPS_PROXY: 'http://p:9', no_proxy: 'x.example skip.example' },
      'https://skip.example/',
      false,
    ],
    [
      { HTTPS_PROXY: 'http://p:9', no_proxy: 'a.example', NO_PROXY: 'skip.example' },
      'https://skip.example/',
      true,
    ],
    [{ HTTPS_PROXY: 'http://p:9', NO_PROXY: '*' }, 'https://api.example.com/x', false],
    [{ HTTPS_PROXY: 'http://p:9', NO_PROXY: ' * ' }, 'https://api.example.com/x', false],
    [{ HTTPS_PROXY: 'http://p:9', NO_PROXY: 'x.example,,' }, 'https://api.example.com./x', true],
    [{ HTTPS_PROXY: 'http://p:9', NO_PROXY: 'skip.example:443' }, 'https://skip.example/x', false],
    [{ HTTPS_PROXY: 'http://p:9', NO_PROXY: 'skip.example:8443' }, 'https://skip.example/x', true],
    [{ HTTPS_PROXY: 'http://p:9', NO_PROXY: 'skip.example:443x' }, 'https://skip.example/x', true],
    [
      { HTTPS_PROXY: 'http://p:9', NO_PROXY: 'skip.example:8443' },
      'https://skip.example:8443/',
      false,
    ],
    [{ HTTP_PROXY: 'http://p:9', NO_PROXY: 'skip.example:80' }, 'http://skip.example/x', false],
    [{ HTTP_PROXY: 'http://p:9', NO_PROXY: 'skip.example:443' }, 'http://skip.example/x', true],
    // An empty (or blank) variable is as if unset, as curl reads it.
    [{ https_proxy: '', HTTPS_PROXY: 'http://p:9' }, 'https://api.example.com/x', true],
    [{ HTTPS_PROXY: '  ' }, 'https://api.example.com/x', false],
    [
      { HTTPS_PROXY: 'http://p:9', no_proxy: '', NO_PROXY: 'skip.example' },
      'https://skip.example/x',
      false,
    ],
    // host:port without a scheme is an http:// proxy; an https:// proxy is one too.
    [{ HTTPS_PROXY: 'p:9' }, 'https://api.example.com/x', true],
    [{ HTTPS_PROXY: 'https://p:9' }, 'https://api.example.com/x', true],
    [{ HTTP_PROXY: 'HTTPS://p:9' }, 'http://api.example.com/x', true],
    // White space around a value (from YAML or a .env file) is dropped.
    [{ HTTPS_PROXY: ' http://p:9' }, 'https://api.example.com/x', true],
    [{ https_proxy: ' \t', HTTPS_PROXY: 'p:9 \n' }, 'https://api.example.com/x', true],
    // ALL_PROXY (all_proxy first) is the fallback of both schemes, as curl reads it.
    [{ ALL_PROXY: 'http://p:9' }, 'https://api.example.com/x', true],
    [{ ALL_PROXY: 'http://p:9' }, 'http://api.example.com/x', true],
    [{ all_proxy: ' p:9 ' }, 'http://api.example.com/x', true],
    [{ ALL_PROXY: '' }, 'https://api.example.com/x', false],
    [{ ALL_PROXY: 'http://p:9', NO_PROXY: 'skip.example' }, 'https://skip.example/x', false],
    [{ ALL_PROXY: 'http://p:9' }, 'https://127.0.0.1:8080/x', false],
  ] as Array<[Record<string, string>, string, boolean]>)(
    '%o: %s through a proxy: %s',
    (env, url, proxied) => {
      expect(transport({ env }).proxiedFor(new URL(url))).toBe(proxied);
    },
  );

  /** GET /p through a test proxy that sends everything to srv; `env` is given its URL. */
  async function throughProxy(baseUrl: string, env: (proxy: string) => Record<string, string>) {
    const proxy = await startProxy({ host: '127.0.0.1', port: srv.port });
    try {
      const { r } = await run({ path: '/p' }, { baseUrl, env: env(proxy.url) });
      return { r, connects: [...proxy.connects] };
    } finally {
      await proxy.close();
    }
  }

  it('the lower-case variable first; the key through the tunnel', async () => {
    srv.on('GET', '/api/p', f.json(200, { via: 'proxy' }));
    const refused = await refusedUrl();
    const { r, connects } = await throughProxy('http://api.sched-test.invalid/api', (proxy) => ({
      http_proxy: proxy,
      HTTP_PROXY: refused,
    }));
    expect(answerOf(r).body.toString()).toBe('{"via":"proxy"}');
    expect(connects).toEqual(['api.sched-test.invalid:80']);
    expect(srv.requests[0]!.headers['x-api-key']).toBe(KEY);
  });

  it.each([
    ['HTTPS_PROXY', 'socks5://user:pw-socks@p:1080'],
    ['https_proxy', 'http://user:pw-bracket@[bad'],
    ['HTTPS_PROXY', 'ftp://p:21'],
    ['ALL_PROXY', 'socks5h://user:pw-socks@127.0.0.2:1080'],
  ])(
    '%s=%s names no proxy sched can use: refused by name, its value never quoted',
    (name, value) => {
      const t = transport({ env: { [name]: value } });
      // Loopback never needs the proxy: the sandbox still works.
      expect(t.proxiedFor(new URL('https://127.0.0.1:9/x'))).toBe(false);
      let caught: unknown;
      try {
        t.proxiedFor(new URL('https://api.example.com/x'));
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(UsageError);
      expect((caught as UsageError).exitCode).toBe(2);
      expect((caught as UsageError).message).toBe(
        `${name} is not an http:// or https:// proxy URL: set it as http://host:port, or unset it`,
      );
    },
  );

  it('https:// through HTTPS_PROXY and http:// through HTTP_PROXY, each its own proxy', async () => {
    const a = await startProxy({ host: '127.0.0.1', port: srv.port });
    const b = await startProxy({ host: '127.0.0.1', port: srv.port });
    try {
      // The scheme-less form counts as http://.
      const env = { HTTPS_PROXY: a.url.replace(/^http:\/\//, ''), HTTP_PROXY: b.url };
      await run({ path: '/p' }, { baseUrl: 'https://secure.sched-test.invalid/api', env });
      await run({ path: '/p' }, { baseUrl: 'http://plain.sched-test.invalid/api', env });
      expect(a.connects).toEqual(['secure.sched-test.invalid:443']);
      expect(b.connects).toEqual(['plain.sched-test.invalid:80']);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('ALL_PROXY carries what neither HTTPS_PROXY nor HTTP_PROXY claims', async () => {
    const all = await startProxy({ host: '127.0.0.1', port: srv.port });
    const own = await startProxy({ host: '127.0.0.1', port: srv.port });
    try {
      const env = { ALL_PROXY: ` ${all.url} `, HTTPS_PROXY: own.url };
      await run({ path: '/p' }, { baseUrl: 'https://secure.sched-test.invalid/api', env });
      await run({ path: '/p' }, { baseUrl: 'http://plain.sched-test.invalid/api', env });
      expect(own.connects).toEqual(['secure.sched-test.invalid:443']);
      expect(all.connects).toEqual(['plain.sched-test.invalid:80']);
    } finally {
      await Promise.all([all.close(), own.close()]);
    }
  });

  it('an https URL goes through HTTP_PROXY when no HTTPS_PROXY is set', async () => {
    const { r, connects } = await throughProxy('https://api.sched-test.invalid/api', (proxy) => ({
      HTTP_PROXY: proxy,
    }));
    expect(connects).toEqual(['api.sched-test.invalid:443']);
    // The tunnel reaches a plain-HTTP server: the TLS handshake fails.
    expect(r.kind).toBe('failed');
  });

  it('NO_PROXY in upper case is honoured', async () => {
    const { r, connects } = await throughProxy('http://api.sched-test.invalid/api', (proxy) => ({
      HTTP_PROXY: proxy,
      NO_PROXY: 'api.sched-test.invalid',
    }));
    expect(connects).toEqual([]);
    expect(failureOf(r).kind).toMatch(/^dns/);
  });

  it('a proxy that never answers CONNECT: the attempt ends at the timeout', async () => {
    const held: net.Socket[] = [];
    const silent = net.createServer((s) => {
      held.push(s);
      s.on('error', () => {});
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const port = (silent.address() as AddressInfo).port;
      const { r } = await run(
        { path: '/p' },
        {
          baseUrl: 'https://api.sched-test.invalid/api',
          env: { HTTPS_PROXY: `http://127.0.0.1:${port}` },
          timeoutMs: 200,
        },
      );
      expect(failureOf(r).kind).toMatch(/timeout/);
      expect(held.length).toBeGreaterThan(0);
    } finally {
      held.forEach((s) => s.destroy());
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });
});

describe("a webhook receiver's exchange", () => {
  const send = (extra: Partial<Parameters<typeof sendToReceiver>[0]> = {}) =>
    sendToReceiver({
      url: new URL(`${raw.url}/hook`),
      body: Uint8Array.from([0x7b, 0xff, 0x00, 0x7d]),
      headers: { 'Content-Type': 'application/json', 'X-Sig': 'v1=abc' },
      timeoutMs: 5_000,
      ...extra,
    });

  it('POSTs the bytes with exactly the given headers, on a connection of its own', async () => {
    raw.reply = (_req, res) => {
      res.writeHead(202, { 'x-two': ['a', 'b'] });
      res.end('ok');
    };
    const r = await send({ headers: { 'X-Sig': 'v1=abc', 'X-None': undefined } });
    expect(r).toMatchObject({ kind: 'answer', status: 202, statusText: 'Accepted' });
    expect(r.kind === 'answer' && r.headers['x-two']).toBe('a, b');
    expect(r.kind === 'answer' && r.body.toString()).toBe('ok');
    const got = raw.got[0]!;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/hook');
    expect([...got.body]).toEqual([0x7b, 0xff, 0x00, 0x7d]);
    expect(names(got.rawHeaders)).toEqual(['connection', 'content-length', 'host', 'x-sig']);
    const connection = got.rawHeaders[got.rawHeaders.findIndex((h) => /^connection$/i.test(h)) + 1];
    expect(connection).toBe('close');
  });

  it('does not follow a redirect', async () => {
    raw.reply = (_req, res) => {
      res.writeHead(307, { location: '/elsewhere' });
      res.end();
    };
    const r = await send();
    expect(r).toMatchObject({ kind: 'answer', status: 307 });
    expect(raw.got).toHaveLength(1);
  });

  it('keeps the first 64 KiB of the answer by default, or the bytes asked for; never fails on size', async () => {
    raw.reply = (_req, res) => {
      res.write('a'.repeat(40_000));
      setTimeout(() => res.end('b'.repeat(40_000)), 10);
    };
    const r = await send();
    expect(r.kind === 'answer' && r.body.toString()).toBe(
      'a'.repeat(40_000) + 'b'.repeat(65_536 - 40_000),
    );
    const r10 = await send({ keepResponseBytes: 40_005 });
    expect(r10.kind === 'answer' && r10.body.toString()).toBe('a'.repeat(40_000) + 'bbbbb');
    const all = await send({ keepResponseBytes: 80_000 });
    expect(all.kind === 'answer' && all.body.length).toBe(80_000);
    // Past the bytes kept, later pieces add nothing.
    raw.reply = (_req, res) => {
      res.write('aaaaaaaaaa');
      setTimeout(() => res.write('bbbbbbbbbb'), 10);
      setTimeout(() => res.end('cccccccccc'), 20);
    };
    const five = await send({ keepResponseBytes: 5 });
    expect(five.kind === 'answer' && five.body.toString()).toBe('aaaaa');
  });

  it('a refused connection: failed, direct; through a proxy: failed, proxied', async () => {
    const direct = await sendToReceiver({
      url: new URL(`${await refusedUrl()}/hook`),
      body: new Uint8Array(),
      headers: {},
      timeoutMs: 5_000,
    });
    expect(direct).toMatchObject({ kind: 'failed', failure: { kind: 'refused' }, proxied: false });
    const proxied = await sendToReceiver({
      url: new URL('http://receiver.sched-test.invalid/hook'),
      body: new Uint8Array(),
      headers: {},
      timeoutMs: 5_000,
      env: { HTTP_PROXY: await refusedUrl() },
    });
    expect(proxied).toMatchObject({ kind: 'failed', proxied: true });
    const exempt = await sendToReceiver({
      url: new URL('http://receiver.sched-test.invalid/hook'),
      body: new Uint8Array(),
      headers: {},
      timeoutMs: 5_000,
      env: { HTTP_PROXY: await refusedUrl(), NO_PROXY: 'sched-test.invalid' },
    });
    expect(exempt).toMatchObject({
      kind: 'failed',
      failure: { kind: expect.stringMatching(/^dns/) },
      proxied: false,
    });
  });

  it('no answer within the timeout: timed out; aborted: aborted, with its duration', async () => {
    raw.reply = () => {};
    const started = performance.now();
    const slow = await send({ timeoutMs: 150 });
    expect(failureOf(slow)).toMatchObject({ kind: 'timeout', code: 'ETIMEDOUT' });
    // The connection to a receiver that never answered is not left open.
    await sleep(50);
    expect(raw.open()).toBe(0);
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 30);
    const aborted = await send({ signal: ctl.signal });
    const elapsed = performance.now() - started;
    expect(aborted.kind).toBe('aborted');
    const ms = aborted.kind === 'aborted' ? aborted.ms : -1;
    expect(ms).toBeGreaterThanOrEqual(20);
    expect(ms).toBeLessThanOrEqual(Math.ceil(elapsed));
  });
});
