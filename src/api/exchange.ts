// One HTTP exchange over undici: the dispatchers (a pool per client, a proxy from the given
// environment), the API key only to the configured origin, redirects for GET (the key and
// secret-looking headers dropped on another origin) and for DELETE/PUT on the same origin only,
// a timeout per attempt (a proxy's CONNECT included), and a cap on the body read. Returns
// what happened; deciding to retry and wording errors are the client's (retry.ts, wording.ts).
import { Agent, EnvHttpProxyAgent, request as undiciRequest, type Dispatcher } from 'undici';
import { classify, TIMED_OUT, tooLarge, type TransportFailure } from './failure.js';
import { isSecretHeader } from './headers.js';
import { isIdempotent, type HttpMethod } from './retry.js';
import { encodeQuery, isLoopback, showUrl } from './url.js';
import type { Answer, RedirectRefusal } from './wording.js';
import { PROXY_VARS } from '../mask.js';

export const MAX_REDIRECTS = 5;

export interface TransportOptions {
  baseUrl: string;
  /** Already checked (checkApiKey). */
  apiKey: string;
  timeoutMs: number;
  userAgent: string;
  maxBodyBytes: number;
  connections: number;
  /** Proxy variables are read from here (not process.env), so tests can set them. */
  env: Record<string, string | undefined>;
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

const REDIRECTS = [301, 302, 303, 307, 308];

function pick(env: Record<string, string | undefined>, lower: string): string | undefined {
  return env[lower] ?? env[lower.toUpperCase()];
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

class Stop {
  constructor(readonly why: 'timeout' | 'user') {}
}

class Failed {
  constructor(readonly failure: TransportFailure) {}
}

export function createTransport(opts: TransportOptions): Transport {
  const { env, maxBodyBytes: maxBody, timeoutMs } = opts;
  const base = new URL(opts.baseUrl.replace(/\/+$/, '') + '/');
  const baseOrigin = base.origin;
  const basePath = base.pathname.replace(/\/+$/, '');

  const connectTimeoutMs = Math.min(timeoutMs, 30_000);
  const agentOptions: Agent.Options = {
    connections: opts.connections,
    keepAliveTimeout: 10_000,
    connect: { timeout: connectTimeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  };
  const direct = new Agent(agentOptions);
  // Proxy variables are read from the env we were given (not process.env), lower case first
  // like curl. Loopback never goes through a proxy: a proxy cannot reach the user's sandbox.
  const useProxy = PROXY_VARS.some((v) => env[v]);
  const proxied: Dispatcher | undefined = useProxy
    ? new EnvHttpProxyAgent({
        ...agentOptions,
        // The tunnel's CONNECT goes through a client of the proxy's own, which by default waits
        // 300 s for an answer (and the request's signal does not reach it): --timeout bounds
        // it too, and the TCP connection to the proxy as the direct one.
        clientFactory: (_origin, o) =>
          new Agent({ ...o, headersTimeout: timeoutMs, bodyTimeout: timeoutMs }),
        proxyTls: { timeout: connectTimeoutMs },
        httpProxy: pick(env, 'http_proxy') ?? '',
        httpsProxy: pick(env, 'https_proxy') ?? pick(env, 'http_proxy') ?? '',
        noProxy: pick(env, 'no_proxy') ?? '',
      })
    : undefined;
  const dispatcherFor = (u: URL): Dispatcher =>
    proxied && !isLoopback(u.hostname) ? proxied : direct;

  /** Reads the whole body, up to the cap. */
  async function readBody(res: Dispatcher.ResponseData, headers: Record<string, string>) {
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBody) {
      res.body.destroy();
      throw new Failed(tooLarge(`${declared} bytes`));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      const b = chunk as Buffer;
      size += b.length;
      if (size > maxBody) {
        res.body.destroy();
        throw new Failed(tooLarge(`over ${maxBody} bytes`));
      }
      chunks.push(b);
    }
    return Buffer.concat(chunks);
  }

  async function exchange(
    req: ExchangeRequest,
    attempt: number,
    log: (line: string) => void,
  ): Promise<ExchangeResult> {
    let url = new URL(base.origin + basePath + req.path + encodeQuery(req.query));
    const payload =
      req.rawBody !== undefined
        ? req.rawBody
        : req.body === undefined
          ? undefined
          : JSON.stringify(req.body);
    for (let hop = 0; ; hop++) {
      const crossOrigin = url.origin !== baseOrigin;
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

      const ctl = new AbortController();
      const timer = setTimeout(() => ctl.abort(new Stop('timeout')), timeoutMs);
      const onUserAbort = () => ctl.abort(new Stop('user'));
      if (req.signal?.aborted) onUserAbort();
      else req.signal?.addEventListener('abort', onUserAbort, { once: true });
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const failed = (e: unknown, phase: 'connect' | 'body'): ExchangeResult => {
        const reason: unknown = ctl.signal.reason;
        if (reason instanceof Stop && reason.why === 'user') return { kind: 'aborted', url };
        const failure =
          reason instanceof Stop ? TIMED_OUT : e instanceof Failed ? e.failure : classify(e, phase);
        return { kind: 'failed', failure, url, ms: elapsed() };
      };
      try {
        let res: Dispatcher.ResponseData;
        try {
          res = await undiciRequest(url, {
            dispatcher: dispatcherFor(url),
            method: req.method,
            headers,
            body: payload,
            signal: ctl.signal,
          });
        } catch (e) {
          return failed(e, 'connect');
        }
        const resHeaders = flattenHeaders(res.headers);
        let body: Buffer;
        try {
          body = await readBody(res, resHeaders);
        } catch (e) {
          return failed(e, 'body');
        }
        const answer: Answer = {
          status: res.statusCode,
          headers: resHeaders,
          body,
          url,
          crossOrigin,
        };
        const ms = elapsed();
        const location = resHeaders.location;
        if (!REDIRECTS.includes(answer.status) || !location) return { kind: 'answer', answer, ms };
        const refuse = (why: RedirectRefusal): ExchangeResult => ({
          kind: 'redirect-refused',
          why,
          status: answer.status,
          location,
          url,
        });
        if (!isIdempotent(req.method)) return refuse('post');
        if (hop >= MAX_REDIRECTS) return refuse('too-many');
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          return refuse('invalid');
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') return refuse('not-http');
        // A change (DELETE, PUT) is the configured service's to make: sent to another host
        // without the key, its "204" would be reported as done while nothing changed here.
        if (req.method !== 'GET' && next.origin !== baseOrigin) return refuse('elsewhere');
        log(
          `${req.method} ${showUrl(url)} -> ${answer.status} in ${ms} ms (attempt ${attempt}; redirect to ${showUrl(next)})`,
        );
        url = next;
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onUserAbort);
      }
    }
  }

  const dispatchers = [direct, proxied].filter((d): d is Dispatcher => d !== undefined);
  return {
    exchange,
    proxiedFor: (u) => dispatcherFor(u) !== direct,
    async close(cut) {
      if (cut) await Promise.all(dispatchers.map((d) => d.destroy().catch(() => {})));
      else await Promise.all(dispatchers.map((d) => d.close()));
    },
  };
}
