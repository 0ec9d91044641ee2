// The one HTTP client of sched, on undici. Two policies share its mechanism:
// - the API's (createTransport): the API key only to the configured origin, redirects for GET
//   (the key and secret-looking headers dropped on another origin) and for DELETE on the same
//   origin only (never for POST, PUT or PATCH), a pool per client, an answer over the cap refused;
// - a webhook receiver's (sendToReceiver: `events send`, `events replay`, `listen
//   --forward-to`): the given bytes with exactly the given headers, no key, no redirect
//   followed, one fresh connection per delivery, the start of the answer kept.
// Both: one timer per attempt (--timeout, a proxy's CONNECT included), failures named by
// classify (failure.ts), and the proxy variables of the given environment honoured except for
// loopback, which never goes through a proxy (a proxy cannot reach the user's own machine).
// Returns what happened; deciding to retry and wording errors are the callers' (retry.ts,
// wording.ts).
import { Agent, ProxyAgent, request as undiciRequest, type Dispatcher } from 'undici';
import { classify, TIMED_OUT, tooLarge, type TransportFailure } from './failure.js';
import { isSecretHeader } from './headers.js';
import { isIdempotent, type HttpMethod } from './retry.js';
import { encodeQuery, isLoopback, showUrl } from './url.js';
import type { Answer, RedirectRefusal } from './wording.js';
import { UsageError } from '../errors.js';
import { proxyVariable } from '../mask.js';

export const MAX_REDIRECTS = 5;

type Env = Readonly<Record<string, string | undefined>>;

export interface TransportOptions {
  baseUrl: string;
  /** Already checked (checkApiKey). */
  apiKey: string;
  timeoutMs: number;
  userAgent: string;
  maxBodyBytes: number;
  connections: number;
  /** Proxy variables are read from here (not process.env), so tests can set them. */
  env: Env;
}

export interface ExchangeRequest {
  method: HttpMethod;
  path: string;
  query?: Array<[string, string]>;
  body?: unknown;
  /** Bytes sent as they are (instead of `body` as JSON). */
  rawBody?: Uint8Array;
  /** Headers added to (or replacing) the defaults; those carrying a secret stay on the base origin. */
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

export type ExchangeResult =
  | { kind: 'answer'; answer: Answer; ms: number }
  | { kind: 'failed'; failure: TransportFailure; url: URL; ms: number }
  | { kind: 'redirect-refused'; why: RedirectRefusal; status: number; location: string; url: URL }
  /** The request's signal aborted (Ctrl-C) while it was in flight. */
  | { kind: 'aborted'; url: URL };

export interface Transport {
  /** One attempt, following redirects; `log` gets one line per redirect hop. */
  exchange(
    req: ExchangeRequest,
    attempt: number,
    log: (line: string) => void,
  ): Promise<ExchangeResult>;
  /** Whether requests to this URL go through a proxy. */
  proxiedFor(url: URL): boolean;
  /** Ends the pools: gracefully, or (`cut`) failing the requests still in flight. */
  close(cut: boolean): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// The mechanism: where a request goes (direct or through a proxy), one request and its answer.

interface Dispatchers {
  dispatcherFor(url: URL): Dispatcher;
  proxiedFor(url: URL): boolean;
  close(cut: boolean): Promise<void>;
}

/** NO_PROXY, lower case first; an empty value is as if unset (as curl reads it). */
function noProxyValue(env: Env): string | undefined {
  return env.no_proxy?.trim() || env.NO_PROXY?.trim() || undefined;
}

/**
 * The proxy a variable names, the lower-case one first (read by proxyVariable, as the masking
 * reads it: trimmed, empty as unset, `host:port` as http://). Anything but an http:// or
 * https:// URL is refused by the variable's name, never quoting its value (it may hold a
 * password).
 */
function proxyUri(env: Env, lower: string): string | undefined {
  for (const name of [lower, lower.toUpperCase()]) {
    const uri = proxyVariable(env, name);
    if (uri === undefined) continue;
    let protocol: string | undefined;
    try {
      protocol = new URL(uri).protocol;
    } catch {
      // Not a URL at all: refused below.
    }
    if (protocol !== 'http:' && protocol !== 'https:') {
      throw new UsageError(
        `${name} is not an http:// or https:// proxy URL: set it as http://host:port, or unset it`,
      );
    }
    return uri;
  }
  return undefined;
}

/**
 * Whether NO_PROXY (`no_proxy` first) exempts a URL, as undici's EnvHttpProxyAgent reads it
 * ("*", even with spaces around it, is every host): otherwise host names separated by commas
 * or spaces, each also covering its subdomains (a leading "." or "*." ignored), with an
 * optional ":port". No CIDR ranges or bare IPv6 addresses (neither does undici).
 */
function noProxyRule(value: string | undefined): (u: URL) => boolean {
  // The value comes trimmed (pick).
  if (!value) return () => false;
  if (value === '*') return () => true;
  const entries = value
    .split(/[,\s]/)
    .filter((e) => e !== '')
    .map((e) => {
      const m = /^(.+):(\d+)$/.exec(e);
      return { host: (m?.[1] ?? e).replace(/^\*?\./, '').toLowerCase(), port: Number(m?.[2] ?? 0) };
    });
  return (u) => {
    const host = u.hostname.toLowerCase();
    const port = Number(u.port) || (u.protocol === 'https:' ? 443 : 80);
    return entries.some(
      (e) => (e.port === 0 || e.port === port) && (host === e.host || host.endsWith(`.${e.host}`)),
    );
  };
}

/**
 * A direct pool, and one per proxy the environment names: `https_proxy` for https:// URLs
 * (`http_proxy` when it is not set), `http_proxy` for http:// ones, `all_proxy` for either
 * when the scheme's own is not set, lower case first like curl. The choice is made here, so `proxiedFor` says exactly where a request goes.
 */
function createDispatchers(timeoutMs: number, connections: number, env: Env): Dispatchers {
  const connectTimeoutMs = Math.min(timeoutMs, 30_000);
  const agentOptions: Agent.Options = {
    connections,
    keepAliveTimeout: 10_000,
    connect: { timeout: connectTimeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  };
  const direct = new Agent(agentOptions);
  const made = new Set<Dispatcher>([direct]);
  // A proxy's pool is made when a request first needs it: a proxy variable sched cannot use
  // (socks5://…) stops only the requests that would go through it, not the sandbox's.
  const proxyOf = (lower: string): (() => Dispatcher | undefined) => {
    let pool: Dispatcher | undefined | null = null;
    return () => {
      if (pool === null) {
        const uri = proxyUri(env, lower);
        pool = uri
          ? new ProxyAgent({
              ...agentOptions,
              uri,
              // The tunnel's CONNECT goes through a client of the proxy's own, which by default
              // waits 300 s for an answer (and the request's signal does not reach it):
              // --timeout bounds it too, and the TCP connection to the proxy as the direct one.
              clientFactory: (_origin, o) =>
                new Agent({ ...o, headersTimeout: timeoutMs, bodyTimeout: timeoutMs }),
              proxyTls: { timeout: connectTimeoutMs },
            })
          : undefined;
        if (pool) made.add(pool);
      }
      return pool;
    };
  };
  const httpProxy = proxyOf('http_proxy');
  const httpsOwn = proxyOf('https_proxy');
  const allProxy = proxyOf('all_proxy');
  const exempt = noProxyRule(noProxyValue(env));
  // Loopback never goes through a proxy: a proxy cannot reach the user's own machine.
  const dispatcherFor = (u: URL): Dispatcher => {
    if (isLoopback(u.hostname) || exempt(u)) return direct;
    const own = u.protocol === 'https:' ? (httpsOwn() ?? httpProxy()) : httpProxy();
    return own ?? allProxy() ?? direct;
  };
  return {
    dispatcherFor,
    proxiedFor: (u) => dispatcherFor(u) !== direct,
    async close(cut) {
      const all = [...made];
      if (cut) await Promise.all(all.map((d) => d.destroy().catch(() => {})));
      else await Promise.all(all.map((d) => d.close()));
    },
  };
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** What is done with an answer's body: refused over `maxBytes`, or only its start kept. */
type BodyLimit = { maxBytes: number; over: 'fail' | 'keep-start' };

class Stop {
  constructor(readonly why: 'timeout' | 'user') {}
}

class Failed {
  constructor(readonly failure: TransportFailure) {}
}

/**
 * Drops an answer's body unread. undici fails a body destroyed before its end with an
 * "aborted" error event: with no one left to listen, that error would end the process
 * (`sched mcp`, a long `listen`), so it is expected here.
 */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

/**
 * Reads the whole body; over the limit it fails, or keeps the start and drops the rest. By its
 * events, not `for await`: an async iterator per answer costs ~3% of a bulk run's CPU.
 */
async function readBody(
  res: Dispatcher.ResponseData,
  headers: Record<string, string>,
  limit: BodyLimit,
): Promise<Buffer> {
  const max = limit.maxBytes;
  const declared = Number(headers['content-length']);
  if (limit.over === 'fail' && Number.isFinite(declared) && declared > max) {
    discard(res.body);
    throw new Failed(tooLarge(`${declared} bytes`));
  }
  const chunks: Buffer[] = [];
  let size = 0;
  return new Promise((resolve, reject) => {
    res.body.on('data', (b: Buffer) => {
      if (size + b.length > max && limit.over === 'fail') {
        discard(res.body);
        return reject(new Failed(tooLarge(`over ${max} bytes`)));
      }
      if (size < max) chunks.push(b.subarray(0, max - size));
      size += b.length;
    });
    res.body.on('end', () => resolve(Buffer.concat(chunks)));
    res.body.on('error', reject);
    // Closed with neither (destroyed): as `for await` says it. After 'end' this changes nothing.
    res.body.on('close', () =>
      reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })),
    );
  });
}

interface Hop {
  url: URL;
  method: HttpMethod;
  headers: Record<string, string | string[]>;
  body: string | Uint8Array | undefined;
  signal: AbortSignal | undefined;
  /** A fresh connection, closed after the answer (a webhook sender's way). */
  fresh?: boolean;
}

/** An answer, read whole or (a receiver's) its start. */
interface Answered {
  kind: 'answer';
  status: number;
  statusText: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  ms: number;
}

type HopResult =
  Answered | { kind: 'failed'; failure: TransportFailure; ms: number } | { kind: 'aborted' };

/**
 * One request and its whole answer, no redirect followed, within `timeoutMs` (our own timer:
 * connect, headers and body together). Never throws for network trouble.
 */
async function exchangeOnce(
  dispatcher: Dispatcher,
  hop: Hop,
  timeoutMs: number,
  limit: BodyLimit,
): Promise<HopResult> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(new Stop('timeout')), timeoutMs);
  const onUserAbort = () => ctl.abort(new Stop('user'));
  if (hop.signal?.aborted) onUserAbort();
  else hop.signal?.addEventListener('abort', onUserAbort, { once: true });
  const started = performance.now();
  const failed = (e: unknown, phase: 'connect' | 'body'): HopResult => {
    const reason: unknown = ctl.signal.reason;
    if (reason instanceof Stop && reason.why === 'user') return { kind: 'aborted' };
    const failure =
      reason instanceof Stop ? TIMED_OUT : e instanceof Failed ? e.failure : classify(e, phase);
    return { kind: 'failed', failure, ms: Math.round(performance.now() - started) };
  };
  try {
    let res: Dispatcher.ResponseData;
    try {
      res = await undiciRequest(hop.url, {
        dispatcher,
        method: hop.method,
        headers: hop.headers,
        body: hop.body,
        signal: ctl.signal,
        reset: hop.fresh,
      });
    } catch (e) {
      return failed(e, 'connect');
    }
    const headers = flattenHeaders(res.headers);
    try {
      const body = await readBody(res, headers, limit);
      const ms = Math.round(performance.now() - started);
      return {
        kind: 'answer',
        status: res.statusCode,
        statusText: res.statusText,
        headers,
        body,
        ms,
      };
    } catch (e) {
      return failed(e, 'body');
    }
  } finally {
    clearTimeout(timer);
    hop.signal?.removeEventListener('abort', onUserAbort);
  }
}

// ---------------------------------------------------------------------------------------------
// The API's policy.

const REDIRECTS = [301, 302, 303, 307, 308];

/** Why a redirect answer is not followed, or undefined when it is. */
function refusal(
  method: HttpMethod,
  hop: number,
  next: URL | undefined,
  baseOrigin: string,
): RedirectRefusal | undefined {
  if (!isIdempotent(method)) return 'post';
  if (hop >= MAX_REDIRECTS) return 'too-many';
  if (!next) return 'invalid';
  if (next.protocol !== 'http:' && next.protocol !== 'https:') return 'not-http';
  // A DELETE is the configured service's to make: sent to another host without the key, its
  // "204" would be reported as done while nothing changed here.
  if (method !== 'GET' && next.origin !== baseOrigin) return 'elsewhere';
  return undefined;
}

function parseLocation(location: string, url: URL): URL | undefined {
  // Not URL.canParse: on Node 20, once optimised, it reads a Latin-1 header value (as undici
  // gives them) as UTF-8, and can say yes to what `new URL` then refuses.
  try {
    return new URL(location, url);
  } catch {
    return undefined;
  }
}

export function createTransport(opts: TransportOptions): Transport {
  const base = new URL(opts.baseUrl);
  const baseOrigin = base.origin;
  const basePath = base.pathname.replace(/\/+$/, '');
  const dispatchers = createDispatchers(opts.timeoutMs, opts.connections, opts.env);
  const limit: BodyLimit = { maxBytes: opts.maxBodyBytes, over: 'fail' };

  /** The headers of one hop: the key and the user's secret headers only to the base origin. */
  function headersFor(req: ExchangeRequest, crossOrigin: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': opts.userAgent,
    };
    for (const [name, value] of Object.entries(req.headers ?? {})) {
      // A credential the user added follows the rule of the key: never to another host.
      if (crossOrigin && isSecretHeader(name)) continue;
      headers[name.toLowerCase()] = value;
    }
    // The key goes only to the origin the user configured, never to where a redirect points.
    if (!crossOrigin) headers['x-api-key'] = opts.apiKey;
    return headers;
  }

  async function exchange(
    req: ExchangeRequest,
    attempt: number,
    log: (line: string) => void,
  ): Promise<ExchangeResult> {
    let url = new URL(base.origin + basePath + req.path + encodeQuery(req.query));
    const body = req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
    for (let hop = 0; ; hop++) {
      const crossOrigin = url.origin !== baseOrigin;
      const headers = headersFor(req, crossOrigin);
      const { method, signal } = req;
      const dispatcher = dispatchers.dispatcherFor(url);
      const r = await exchangeOnce(
        dispatcher,
        { url, method, headers, body, signal },
        opts.timeoutMs,
        limit,
      );
      if (r.kind !== 'answer') return { ...r, url };
      const answer: Answer = {
        status: r.status,
        headers: r.headers,
        body: r.body,
        url,
        crossOrigin,
      };
      const location = r.headers.location;
      if (!REDIRECTS.includes(r.status) || !location) return { kind: 'answer', answer, ms: r.ms };
      const next = parseLocation(location, url);
      const why = refusal(req.method, hop, next, baseOrigin);
      if (why || !next)
        return { kind: 'redirect-refused', why: why ?? 'invalid', status: r.status, location, url };
      log(
        `${req.method} ${showUrl(url)} -> ${r.status} in ${r.ms} ms (attempt ${attempt}; redirect to ${showUrl(next)})`,
      );
      url = next;
    }
  }

  return { exchange, proxiedFor: dispatchers.proxiedFor, close: dispatchers.close };
}

// ---------------------------------------------------------------------------------------------
// A webhook receiver's policy.

export interface ReceiverRequest {
  url: URL;
  /** Sent byte for byte. */
  body: Uint8Array;
  /** Exactly these headers (an undefined one left out); the client adds only Host, Content-Length and Connection. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes of the answer kept (the rest is read and dropped); default 64 KiB. */
  keepResponseBytes?: number;
  /** Proxy variables (HTTPS_PROXY, NO_PROXY…); none: a direct connection. */
  env?: Env;
}

export type ReceiverResult =
  | Answered
  | { kind: 'failed'; failure: TransportFailure; ms: number; proxied: boolean }
  | { kind: 'aborted'; ms: number };

/**
 * POSTs once, as a webhook sender does. Never throws for network trouble; throws a UsageError
 * for a proxy variable that names no proxy URL.
 */
export async function sendToReceiver(req: ReceiverRequest): Promise<ReceiverResult> {
  const started = performance.now();
  // One delivery, one connection: a pooled keep-alive socket to a receiver that restarted
  // would fail with a reset instead.
  const dispatchers = createDispatchers(req.timeoutMs, 1, req.env ?? {});
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = v;
  const limit: BodyLimit = { maxBytes: req.keepResponseBytes ?? 64 * 1024, over: 'keep-start' };
  const hop: Hop = {
    url: req.url,
    method: 'POST',
    headers,
    body: req.body,
    signal: req.signal,
    fresh: true,
  };
  try {
    const r = await exchangeOnce(dispatchers.dispatcherFor(req.url), hop, req.timeoutMs, limit);
    if (r.kind === 'aborted')
      return { kind: 'aborted', ms: Math.round(performance.now() - started) };
    if (r.kind === 'failed') return { ...r, proxied: dispatchers.proxiedFor(req.url) };
    return r;
  } finally {
    void dispatchers.close(true);
  }
}
