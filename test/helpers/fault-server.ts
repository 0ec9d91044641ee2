/**
 * A small programmable HTTP(S) server for fault tests: every request is recorded, and each
 * route answers from a script of faults, in order, the last one repeating.
 *
 * ```ts
 * const srv = await startFaultServer();            // http://127.0.0.1:<port 0>
 * srv.on('GET', '/api/webhooks', f.status(503), f.json(200, envelope([])));
 * srv.on('POST', '/api/webhooks', f.reset());       // socket destroyed after reading the request
 * srv.fallback(f.json(404, { code: 404, message: 'Not found.' }));  // unmatched routes
 * ... run the client / command against srv.baseUrl (= srv.url + '/api') ...
 * expect(srv.count('POST', '/api/webhooks')).toBe(1);
 * srv.requests[0].headers['x-api-key'];             // everything that reached the server
 * srv.clear();                                      // forget requests and scripts
 * await srv.close();
 * ```
 *
 * Routes match the method and the path without query (`on('*', ...)` matches any method; a
 * path ending in `*` matches a prefix). Each route's script advances one step per request;
 * when it has one step left, that step repeats forever. A step is a Fault (built with `f.*`)
 * or a function `(req) => Fault` for answers that depend on the request.
 *
 * Faults (`f`):
 * - `f.json(status, body, headers?)`     JSON answer (application/json)
 * - `f.status(status, headers?)`        empty body (e.g. 503, 204)
 * - `f.text(status, text, contentType?)` any body, e.g. `f.html(200, '<html>…')`
 * - `f.html(status, html)`              text/html
 * - `f.rateLimit(retryAfter?)`          429, with Retry-After when given (seconds or a date)
 * - `f.reset()`                         destroys the socket without answering
 * - `f.hang()`                          never answers (until the client gives up or close())
 * - `f.delay(ms, fault)`                answers `fault` after ms
 * - `f.truncated(text?)`                200, Content-Length larger than the body, then close
 * - `f.brokenJson()`                    200 application/json with an invalid body
 * - `f.empty(status?)`                  200 (or status) with Content-Length 0
 * - `f.huge(bytes)`                     200 application/json streaming `bytes` bytes
 * - `f.redirect(location, status?)`     302 (or status) with Location
 *
 * Other helpers:
 * - `startFaultServer({ tls: { key, cert } })` serves HTTPS instead.
 * - `envelope(items, { page, pages, limit, total, path })` builds the paged list body.
 * - `refusedUrl()` a base URL on a loopback port where nothing listens (ECONNREFUSED).
 * - `startProxy()` an HTTP proxy (CONNECT tunnels and absolute-form requests) that forwards
 *   every request to one target server and counts what went through it.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { refusedPort } from './ports.js';

export interface RecordedRequest {
  method: string;
  /** Path and query as received, e.g. "/api/webhooks?page=2". */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Fault =
  | {
      kind: 'respond';
      status: number;
      headers?: Record<string, string>;
      body?: string | Buffer;
      delayMs?: number;
    }
  | { kind: 'reset'; delayMs?: number }
  | { kind: 'hang' }
  | { kind: 'truncated'; body: string; declared: number; delayMs?: number }
  | { kind: 'huge'; bytes: number; delayMs?: number };

export type Step = Fault | ((req: RecordedRequest) => Fault);

const JSON_TYPE = { 'content-type': 'application/json' };

export const f = {
  json(status: number, body: unknown, headers: Record<string, string> = {}): Fault {
    return {
      kind: 'respond',
      status,
      headers: { ...JSON_TYPE, ...headers },
      body: JSON.stringify(body),
    };
  },
  status(status: number, headers: Record<string, string> = {}): Fault {
    return { kind: 'respond', status, headers };
  },
  text(status: number, text: string, contentType = 'text/plain'): Fault {
    return { kind: 'respond', status, headers: { 'content-type': contentType }, body: text };
  },
  html(status: number, html: string): Fault {
    return f.text(status, html, 'text/html; charset=utf-8');
  },
  rateLimit(retryAfter?: string | number): Fault {
    const headers: Record<string, string> = { ...JSON_TYPE };
    if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
    return {
      kind: 'respond',
      status: 429,
      headers,
      body: JSON.stringify({ message: 'Too many requests' }),
    };
  },
  reset(): Fault {
    return { kind: 'reset' };
  },
  hang(): Fault {
    return { kind: 'hang' };
  },
  delay(ms: number, fault: Fault): Fault {
    if (fault.kind === 'hang') return fault;
    return { ...fault, delayMs: ms };
  },
  truncated(text = '{"page":1,"limit":10,"pages":1,"total":3,"_embedded":{"items":[{"uu'): Fault {
    return { kind: 'truncated', body: text, declared: Buffer.byteLength(text) + 500 };
  },
  brokenJson(): Fault {
    return {
      kind: 'respond',
      status: 200,
      headers: { ...JSON_TYPE },
      body: '{"page":1,"pages":1,"_embedded":{"items":[}',
    };
  },
  empty(status = 200): Fault {
    return { kind: 'respond', status, headers: { ...JSON_TYPE }, body: '' };
  },
  huge(bytes: number): Fault {
    return { kind: 'huge', bytes };
  },
  redirect(location: string, status = 302): Fault {
    return { kind: 'respond', status, headers: { location }, body: '' };
  },
};

/** The paged list envelope of spec 2.4. */
export function envelope<T>(
  items: T[],
  o: { page?: number; pages?: number; limit?: number; total?: number; path?: string } = {},
): Record<string, unknown> {
  const page = o.page ?? 1;
  const limit = o.limit ?? 10;
  const pages = o.pages ?? 1;
  const path = o.path ?? '/api/webhooks';
  const href = (p: number) => ({ href: `${path}?page=${p}&limit=${limit}` });
  return {
    page,
    limit,
    pages,
    total: o.total ?? items.length,
    _links: { self: href(page), first: href(1), last: href(pages) },
    _embedded: { items },
  };
}

interface Route {
  method: string;
  path: string;
  steps: Step[];
}

export interface FaultServer {
  /** Origin, e.g. http://127.0.0.1:43123 */
  readonly url: string;
  /** url + '/api', the base URL a client is given. */
  readonly baseUrl: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  /** Scripts answers for a route (see the header comment). Replaces an earlier script. */
  on(method: string, path: string, ...steps: Step[]): FaultServer;
  /** The answer for requests no route matches (default: 404 JSON). */
  fallback(step: Step): FaultServer;
  /** Number of recorded requests, optionally by method and path (without query). */
  count(method?: string, path?: string): number;
  /** Forgets recorded requests and scripted routes. */
  clear(): void;
  close(): Promise<void>;
}

export async function startFaultServer(
  opts: { tls?: { key: string | Buffer; cert: string | Buffer } } = {},
): Promise<FaultServer> {
  const routes: Route[] = [];
  const requests: RecordedRequest[] = [];
  let fallbackStep: Step = f.json(404, { code: 404, message: 'Not found.' });
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const later = (ms: number | undefined, fn: () => void) => {
    if (!ms) return fn();
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const matches = (r: Route, method: string, path: string) =>
    (r.method === '*' || r.method === method) &&
    (r.path.endsWith('*') ? path.startsWith(r.path.slice(0, -1)) : r.path === path);

  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://x');
      const rec: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        path: u.pathname,
        query: u.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(rec);
      const route = routes.find((r) => matches(r, rec.method, rec.path));
      let step: Step;
      if (route) {
        step = route.steps.length > 1 ? route.steps.shift()! : route.steps[0]!;
      } else {
        step = fallbackStep;
      }
      const fault = typeof step === 'function' ? step(rec) : step;
      answer(fault, req, res);
    });
  };

  const answer = (fault: Fault, req: http.IncomingMessage, res: http.ServerResponse) => {
    switch (fault.kind) {
      case 'hang':
        return;
      case 'reset':
        return later(fault.delayMs, () => req.socket.destroy());
      case 'respond':
        return later(fault.delayMs, () => {
          const body = fault.body ?? '';
          res.writeHead(fault.status, {
            ...fault.headers,
            'content-length': String(Buffer.byteLength(body)),
          });
          res.end(body);
        });
      case 'truncated':
        return later(fault.delayMs, () => {
          res.writeHead(200, { ...JSON_TYPE, 'content-length': String(fault.declared) });
          res.write(fault.body, () => setTimeout(() => req.socket.destroy(), 10));
        });
      case 'huge':
        return later(fault.delayMs, () => {
          res.writeHead(200, JSON_TYPE);
          const chunk = Buffer.alloc(64 * 1024, 0x20);
          let sent = 0;
          const pump = () => {
            while (sent < fault.bytes) {
              sent += chunk.length;
              if (!res.write(chunk)) return void res.once('drain', pump);
            }
            res.end();
          };
          res.on('close', () => (sent = fault.bytes));
          pump();
        });
    }
  };

  const server = opts.tls
    ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, handler)
    : http.createServer(handler);
  server.keepAliveTimeout = 5_000;
  const onConnection = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  server.on(opts.tls ? 'secureConnection' : 'connection', onConnection);
  if (opts.tls) server.on('connection', onConnection);
  server.on('clientError', (_e, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`;

  const api: FaultServer = {
    url,
    baseUrl: `${url}/api`,
    port,
    requests,
    on(method, path, ...steps) {
      if (steps.length === 0) throw new Error('fault-server: a route needs at least one step');
      const i = routes.findIndex((r) => r.method === method && r.path === path);
      if (i >= 0) routes.splice(i, 1);
      routes.push({ method, path, steps: [...steps] });
      return api;
    },
    fallback(step) {
      fallbackStep = step;
      return api;
    },
    count(method, path) {
      return requests.filter((r) => (!method || r.method === method) && (!path || r.path === path))
        .length;
    },
    clear() {
      requests.length = 0;
      routes.length = 0;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return api;
}

/** A loopback base URL where nothing listens: connecting to it is refused. */
export async function refusedUrl(): Promise<string> {
  return `http://127.0.0.1:${await refusedPort()}/api`;
}

export interface TestProxy {
  /** e.g. http://127.0.0.1:43210 — put it in HTTPS_PROXY / HTTP_PROXY. */
  readonly url: string;
  /** CONNECT tunnels opened, with their requested authority ("host:port"). */
  readonly connects: string[];
  /** Absolute-form requests forwarded ("GET http://host/path"). */
  readonly forwarded: string[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy that sends every tunnel or request to `target` (host:port), whatever host the
 * client asked for. So a client configured for `http://api.example.test/api` works only if it
 * really goes through the proxy.
 */
export async function startProxy(target: { host: string; port: number }): Promise<TestProxy> {
  const connects: string[] = [];
  const forwarded: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    forwarded.push(`${req.method} ${req.url}`);
    const u = new URL(req.url ?? '/', 'http://x');
    const up = http.request(
      {
        host: target.host,
        port: target.port,
        method: req.method,
        path: u.pathname + u.search,
        headers: req.headers,
      },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    connects.push(req.url ?? '');
    const upstream = net.connect(target.port, target.host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    sockets.add(client);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    forwarded,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
