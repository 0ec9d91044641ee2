// The HTTP layer: one undici pool per client, the API key on every request to the configured
// origin (never to another), a timeout per attempt, retries only where a retry cannot create a
// duplicate, and every failure turned into one typed error with a clear line. Knows nothing
// about terminals or output formats; --verbose lines go through opts.log.
//
// Retry policy (numbers in RETRY below):
// - GET and DELETE: retried on network errors (reset, timeout, temporary DNS failure, cut-off
//   body), 5xx and 429, up to 3 retries, exponential backoff with full jitter (base 250 ms,
//   ceiling 4 s). A timeout is retried once at most (a server that did not answer within
//   --timeout rarely answers the third time, and each wait is a whole --timeout).
// - POST: retried only when the server provably did not process it: connection refused (no
//   byte was sent), a connect timeout (no connection), or 429. A reset, timeout or cut-off
//   answer after the POST was sent is never retried: the error says the outcome is unknown.
// - Retry-After (seconds or HTTP date) on 429 and 503 is honoured up to 20 s; beyond that the
//   request fails at once with a line saying when to retry.
// - Not retried: DNS "no such host", TLS certificate errors (they do not heal by waiting).
// - A DELETE answered 404 after an earlier attempt may have reached the server is a success:
//   the response has status 204 and `alreadyGone: true`.
//
// Aborting: when req.signal aborts (Ctrl-C), request() throws Interrupted (exit 130, or 143
// when the signal's reason is 'SIGTERM'). Callers that did part of a bulk job catch it and
// re-throw an Interrupted whose details say what was already done.
import { Agent, EnvHttpProxyAgent, request as undiciRequest, type Dispatcher } from 'undici';
import { STATUS_CODES } from 'node:http';
import {
  ApiError,
  AuthError,
  Interrupted,
  NetworkError,
  NotFoundError,
  UsageError,
} from '../errors.js';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface RateLimitInfo {
  method: HttpMethod;
  path: string;
  /** The wait the server asked for (Retry-After), when it said. */
  retryAfterMs: number | undefined;
  /** 1-based attempt that was answered 429. */
  attempt: number;
}

export interface ApiRequest {
  method: HttpMethod;
  /** Path relative to the base URL, e.g. "/webhooks". Segments must already be encoded. */
  path: string;
  /** Query pairs, percent-encoded on the way out (brackets in names stay literal). */
  query?: Array<[string, string]>;
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Whether a 2xx answer must carry a JSON body. Default: true for GET and POST, false for
   * DELETE (204 has no body). An empty or non-JSON body where one is required is an ApiError.
   */
  expectBody?: boolean;
  /** Told of every 429, so a bulk caller can lower its concurrency. */
  onRateLimit?: (info: RateLimitInfo) => void;
  /** Values in the body that must never be shown (a webhook secret), masked if echoed back. */
  sensitive?: readonly string[];
  /** For a POST whose outcome is unknown: how the user can check (e.g. "run `sched webhooks ls`"). */
  unknownOutcomeHint?: string;
}

export interface ApiResponse<T> {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined for an empty body (204). */
  body: T;
  /** DELETE only: a retry found the resource gone after an earlier attempt may have deleted it. */
  alreadyGone?: boolean;
  /** How many attempts it took (1 = no retry). */
  attempts: number;
}

export interface ApiClient {
  readonly baseUrl: string;
  /** Sends one request (with retries where safe); non-2xx answers throw typed errors. */
  request<T>(req: ApiRequest): Promise<ApiResponse<T>>;
  /** Subscribes to every 429 this client meets; returns the unsubscribe function. */
  onRateLimit(listener: (info: RateLimitInfo) => void): () => void;
  close(): Promise<void>;
}

export interface ApiClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  userAgent: string;
  /** Called with one line per HTTP attempt when --verbose is on. */
  log?: (line: string) => void;
  /** Proxy variables are read from here (not process.env), so tests can set them. */
  env?: Record<string, string | undefined>;
  /** Overrides for tests; the defaults are the policy documented above. */
  retry?: Partial<RetryPolicy>;
  /** Largest response body accepted, in bytes (default 50 MB). */
  maxBodyBytes?: number;
  /** Connections per origin (default 64, the largest concurrency a bulk command uses). */
  connections?: number;
}

export interface RetryPolicy {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  retryAfterCapMs: number;
  timeoutRetries: number;
}

export const RETRY: RetryPolicy = {
  retries: 3,
  baseDelayMs: 250,
  maxDelayMs: 4000,
  retryAfterCapMs: 20_000,
  timeoutRetries: 1,
};

export const MAX_BODY_BYTES = 50 * 1024 * 1024;
const MAX_REDIRECTS = 5;

/** Percent-encodes query pairs; the brackets of `sorting[name]` stay literal like the API docs. */
export function encodeQuery(query: Array<[string, string]> | undefined): string {
  if (!query || query.length === 0) return '';
  return (
    '?' +
    query
      .map(
        ([k, v]) =>
          encodeURIComponent(k).replace(/%5B/gi, '[').replace(/%5D/gi, ']') +
          '=' +
          encodeURIComponent(v),
      )
      .join('&')
  );
}

const PROXY_VARS = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'];

function pick(env: Record<string, string | undefined>, lower: string): string | undefined {
  return env[lower] ?? env[lower.toUpperCase()];
}

function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\./.test(h);
}

/** Why an attempt got no usable answer. */
interface Failure {
  kind:
    | 'refused'
    | 'dns'
    | 'dns-temporary'
    | 'timeout'
    | 'connect-timeout'
    | 'reset'
    | 'cut-off'
    | 'tls'
    | 'proxy'
    | 'too-large'
    | 'closed'
    | 'other';
  code: string;
  /** True when no byte of the request can have reached the server. */
  notSent: boolean;
  detail: string;
}

const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO|ERR_TLS|ERR_SSL|EPROTO|HOSTNAME_MISMATCH|ALTNAME/;

function errorCode(e: unknown): string | undefined {
  if (!e || typeof e !== 'object') return undefined;
  const o = e as { code?: unknown; errors?: unknown; cause?: unknown };
  if (typeof o.code === 'string' && o.code !== 'UND_ERR_SOCKET' && o.code !== 'UND_ERR')
    return o.code;
  // Happy-eyeballs connects fail with an AggregateError; undici wraps socket errors in `cause`.
  if (Array.isArray(o.errors) && o.errors.length > 0) {
    const inner = errorCode(o.errors[0]);
    if (inner) return inner;
  }
  if (o.cause) {
    const inner = errorCode(o.cause);
    if (inner) return inner;
  }
  return typeof o.code === 'string' ? o.code : undefined;
}

function classify(e: unknown, phase: 'connect' | 'body'): Failure {
  const code = errorCode(e) ?? 'ERROR';
  const msg = e instanceof Error ? e.message : String(e);
  if (code === 'ECONNREFUSED')
    return { kind: 'refused', code, notSent: true, detail: 'connection refused' };
  if (code === 'ENOTFOUND')
    return { kind: 'dns', code, notSent: true, detail: 'DNS lookup failed' };
  if (code === 'EAI_AGAIN')
    return { kind: 'dns-temporary', code, notSent: true, detail: 'temporary DNS failure' };
  if (code === 'UND_ERR_CONNECT_TIMEOUT')
    return { kind: 'connect-timeout', code, notSent: true, detail: 'connect timed out' };
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return { kind: 'timeout', code, notSent: false, detail: 'timed out' };
  if (code === 'UND_ERR_DESTROYED' || code === 'UND_ERR_CLOSED')
    return {
      kind: 'closed',
      code,
      notSent: false,
      detail: 'the request was cut off: the command is ending',
    };
  if (TLS_CODES.test(code)) return { kind: 'tls', code, notSent: true, detail: msg };
  if (code === 'UND_ERR_ABORTED' && /proxy/i.test(msg))
    return { kind: 'proxy', code, notSent: true, detail: msg };
  if (code === 'UND_ERR_PRX_TLS') return { kind: 'proxy', code, notSent: true, detail: msg };
  if (phase === 'body' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH')
    return {
      kind: 'cut-off',
      code: code === 'UND_ERR_SOCKET' ? 'ECONNRESET' : code,
      notSent: false,
      detail: 'the connection closed before the whole answer arrived',
    };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET')
    return {
      kind: 'reset',
      code: code === 'UND_ERR_SOCKET' ? 'ECONNRESET' : code,
      notSent: false,
      detail: 'connection reset',
    };
  return { kind: 'other', code, notSent: false, detail: msg };
}

class AttemptError extends Error {
  constructor(
    readonly failure: Failure,
    readonly url: URL,
    readonly ms: number,
  ) {
    super(failure.detail);
  }
}
class TimeoutMarker extends Error {}
class UserAbortMarker extends Error {}

interface Exchange {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  url: URL;
  ms: number;
  /** The last hop went to another origin than the base URL (the key was not sent). */
  crossOrigin: boolean;
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** Retry-After in ms (seconds or HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, t - now);
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return s >= 10 ? `${Math.round(s)} s` : `${Number(s.toFixed(1))} s`;
}

function clockTime(msFromNow: number): string {
  return new Date(Date.now() + msFromNow).toLocaleTimeString('en-GB', { hour12: false });
}

/** Strips control characters and collapses whitespace: server text goes to a terminal. */
function clean(s: string, max = 200): string {
  const t = s
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

function tryJson(buf: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(buf.toString('utf8')) as unknown };
  } catch {
    return { ok: false };
  }
}

/** A short message from any error body: JSON message/error/detail/title, an HTML title, or text. */
function serverMessage(body: Buffer, headers: Record<string, string>): string | undefined {
  if (body.length === 0) return undefined;
  const parsed = tryJson(body);
  if (parsed.ok) {
    const v = parsed.value;
    if (typeof v === 'string') return clean(v) || undefined;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      for (const k of [
        'message',
        'error_description',
        'error',
        'detail',
        'title',
        'hydra:description',
      ]) {
        const m = o[k];
        if (typeof m === 'string' && m.trim()) return clean(m);
        if (m && typeof m === 'object' && typeof (m as { message?: unknown }).message === 'string')
          return clean((m as { message: string }).message);
      }
    }
    return undefined;
  }
  const text = body.subarray(0, 64 * 1024).toString('utf8');
  const type = headers['content-type'] ?? '';
  if (/html/i.test(type) || /^\s*</.test(text)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
    const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(text)?.[1];
    const picked = title ?? h1;
    return picked ? clean(picked.replace(/<[^>]+>/g, ' ')) || undefined : undefined;
  }
  return clean(text) || undefined;
}

/** `<field>: <message>` lines from any validation body shape we have seen or can imagine. */
export function fieldErrors(value: unknown): string[] {
  const out: string[] = [];
  const push = (field: string, msg: unknown) => {
    if (typeof msg === 'string') out.push(`${field ? field + ': ' : ''}${clean(msg)}`);
    else if (Array.isArray(msg)) msg.forEach((m) => push(field, m));
    else if (msg && typeof msg === 'object') {
      const o = msg as Record<string, unknown>;
      if (typeof o.message === 'string' || typeof o.title === 'string') {
        const f = o.field ?? o.propertyPath ?? o.property_path ?? o.property ?? o.path ?? field;
        push(typeof f === 'string' ? f : field, o.message ?? o.title);
      } else {
        for (const [k, v] of Object.entries(o)) push(field ? `${field}.${k}` : k, v);
      }
    } else if (msg !== undefined && msg !== null)
      out.push(`${field ? field + ': ' : ''}${clean(String(msg))}`);
  };
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    for (const key of ['errors', 'violations', 'fields']) {
      if (o[key] !== undefined) push('', o[key]);
    }
  }
  return out;
}

function describeType(headers: Record<string, string>): string {
  return headers['content-type']?.split(';')[0]?.trim() || 'no content type';
}

/**
 * The key as it can be sent: surrounding white space dropped (a pasted or `echo`ed key), and
 * nothing else that cannot be in a key. A CR from a CRLF file or a control character would
 * otherwise fail inside undici on every attempt, retried and reported as a network problem.
 * The message never shows the key.
 */
export function checkApiKey(raw: string): string {
  const key = raw.trim();
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(key)) {
    throw new UsageError(
      'the API key contains white space or a control character (a pasted line break, or a file with CRLF line ends?)',
      { hint: 'check SCHED_API_KEY, or store the key again with `sched auth login`' },
    );
  }
  return key;
}

/** A host name short enough for a one-line message (a base URL can hold anything). */
function shortHost(host: string): string {
  return host.length > 80 ? `${host.slice(0, 79)}…` : host;
}

export function createApiClient(opts: ApiClientOptions): ApiClient {
  const env = opts.env ?? {};
  const policy: RetryPolicy = { ...RETRY, ...opts.retry };
  const maxBody = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  const base = new URL(opts.baseUrl.replace(/\/+$/, '') + '/');
  const baseOrigin = base.origin;
  const basePath = base.pathname.replace(/\/+$/, '');
  const key = checkApiKey(opts.apiKey);
  const listeners = new Set<(info: RateLimitInfo) => void>();

  const agentOptions: Agent.Options = {
    connections: opts.connections ?? 64,
    keepAliveTimeout: 10_000,
    connect: { timeout: Math.min(opts.timeoutMs, 30_000) },
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
  };
  const direct = new Agent(agentOptions);
  // Proxy variables are read from the env we were given (not process.env), lower case first
  // like curl. Loopback never goes through a proxy: a proxy cannot reach the user's sandbox.
  const useProxy = PROXY_VARS.some((v) => env[v]);
  const proxied: Dispatcher | undefined = useProxy
    ? new EnvHttpProxyAgent({
        ...agentOptions,
        httpProxy: pick(env, 'http_proxy') ?? '',
        httpsProxy: pick(env, 'https_proxy') ?? pick(env, 'http_proxy') ?? '',
        noProxy: pick(env, 'no_proxy') ?? '',
      })
    : undefined;
  const dispatcherFor = (u: URL): Dispatcher =>
    proxied && !isLoopback(u.hostname) ? proxied : direct;

  /** Masks the key, and the request's other secrets, in any text a user will see. */
  const redact = (s: string, extra: readonly string[] = []): string => {
    let out = s;
    for (const secret of [key, ...extra]) {
      if (secret && secret.length >= 4) out = out.split(secret).join('****');
    }
    return out;
  };
  const log = (line: string) => opts.log?.(redact(line));
  const showUrl = (u: URL): string => {
    const c = new URL(u.href);
    c.username = '';
    c.password = '';
    return c.href;
  };

  async function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (ms <= 0) return;
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(t);
        reject(new UserAbortMarker());
      };
      const t = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** One HTTP exchange, following redirects (GET/DELETE only); reads the whole body. */
  async function exchange(req: ApiRequest, attempt: number): Promise<Exchange> {
    let url = new URL(base.origin + basePath + req.path + encodeQuery(req.query));
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    for (let hop = 0; ; hop++) {
      const crossOrigin = url.origin !== baseOrigin;
      const headers: Record<string, string> = {
        accept: 'application/json',
        'content-type': 'application/json',
        'user-agent': opts.userAgent,
      };
      // The key goes only to the origin the user configured, never to where a redirect points.
      if (!crossOrigin) headers['x-api-key'] = key;

      const ctl = new AbortController();
      const timer = setTimeout(() => ctl.abort(new TimeoutMarker()), opts.timeoutMs);
      const onUserAbort = () => ctl.abort(new UserAbortMarker());
      if (req.signal?.aborted) onUserAbort();
      else req.signal?.addEventListener('abort', onUserAbort, { once: true });
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const fail = (e: unknown, phase: 'connect' | 'body'): never => {
        const reason: unknown = ctl.signal.reason;
        if (reason instanceof UserAbortMarker) throw reason;
        if (reason instanceof TimeoutMarker) {
          throw new AttemptError(
            { kind: 'timeout', code: 'ETIMEDOUT', notSent: false, detail: 'timed out' },
            url,
            elapsed(),
          );
        }
        if (e instanceof AttemptError) throw e;
        throw new AttemptError(classify(e, phase), url, elapsed());
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
          return fail(e, 'connect');
        }
        const resHeaders = flattenHeaders(res.headers);
        const chunks: Buffer[] = [];
        let size = 0;
        try {
          const declared = Number(resHeaders['content-length']);
          if (Number.isFinite(declared) && declared > maxBody) {
            res.body.destroy();
            throw new AttemptError(
              { kind: 'too-large', code: 'ETOOLARGE', notSent: false, detail: `${declared} bytes` },
              url,
              elapsed(),
            );
          }
          for await (const chunk of res.body) {
            const b = chunk as Buffer;
            size += b.length;
            if (size > maxBody) {
              res.body.destroy();
              throw new AttemptError(
                {
                  kind: 'too-large',
                  code: 'ETOOLARGE',
                  notSent: false,
                  detail: `over ${maxBody} bytes`,
                },
                url,
                elapsed(),
              );
            }
            chunks.push(b);
          }
        } catch (e) {
          return fail(e, 'body');
        }
        const ex: Exchange = {
          status: res.statusCode,
          headers: resHeaders,
          body: Buffer.concat(chunks),
          url,
          ms: elapsed(),
          crossOrigin,
        };
        const location = ex.headers.location;
        if ([301, 302, 303, 307, 308].includes(ex.status) && location) {
          if (req.method === 'POST') {
            throw new ApiError(
              `the API answered POST ${req.path} with a redirect (${ex.status}) to ${clean(location)}; a POST is not re-sent`,
              {
                status: ex.status,
                hint: 'check the base URL (--base-url, SCHED_BASE_URL or the profile)',
              },
            );
          }
          if (hop >= MAX_REDIRECTS) {
            throw new ApiError(
              `too many redirects for ${req.method} ${req.path} (more than ${MAX_REDIRECTS})`,
              {
                status: ex.status,
                hint: 'check the base URL (--base-url, SCHED_BASE_URL or the profile)',
              },
            );
          }
          let next: URL;
          try {
            next = new URL(location, url);
          } catch {
            throw new ApiError(
              `the API redirected ${req.method} ${req.path} to an invalid address`,
              {
                status: ex.status,
              },
            );
          }
          if (next.protocol !== 'http:' && next.protocol !== 'https:') {
            throw new ApiError(
              `the API redirected ${req.method} ${req.path} to a non-HTTP address`,
              {
                status: ex.status,
              },
            );
          }
          log(
            `${req.method} ${showUrl(url)} -> ${ex.status} in ${ex.ms} ms (attempt ${attempt}; redirect to ${showUrl(next)})`,
          );
          url = next;
          continue;
        }
        return ex;
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onUserAbort);
      }
    }
  }

  function backoff(retryIndex: number): number {
    const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retryIndex - 1));
    return Math.round(Math.random() * ceiling);
  }

  function interrupted(signal: AbortSignal | undefined, postInFlight?: ApiRequest): Interrupted {
    const which = signal?.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
    if (postInFlight) {
      // The request left: the service may have acted on it, and the user must know.
      return new Interrupted(
        `interrupted while waiting for the answer to POST ${postInFlight.path}: it may have been processed`,
        {
          signal: which,
          hint:
            postInFlight.unknownOutcomeHint ?? 'check whether it was created before trying again',
        },
      );
    }
    return new Interrupted('interrupted', { signal: which });
  }

  function networkError(req: ApiRequest, f: Failure, url: URL, attempts: number): Error {
    const host = shortHost(url.host);
    const after = attempts > 1 ? ` (after ${attempts} attempts)` : '';
    const baseHint =
      'check the base URL (--base-url, SCHED_BASE_URL or the profile) and your network';
    if (f.kind === 'too-large') {
      return new ApiError(
        `the answer to ${req.method} ${req.path} from ${host} is larger than ${Math.round(maxBody / 1024 / 1024)} MB; refusing to read it`,
      );
    }
    if (f.kind === 'cut-off' && req.method !== 'POST') {
      return new ApiError(
        `the answer to ${req.method} ${req.path} from ${host} was cut off: ${f.detail}${after}`,
      );
    }
    if (req.method === 'POST' && !f.notSent) {
      const what =
        f.kind === 'timeout'
          ? `no answer from ${host} within ${seconds(opts.timeoutMs)}`
          : f.kind === 'cut-off'
            ? `the answer from ${host} was cut off`
            : `the connection to ${host} failed (${f.code})`;
      return new NetworkError(
        `${what} after the request was sent: the outcome of POST ${req.path} is unknown (not retried, to avoid a duplicate)`,
        { hint: req.unknownOutcomeHint ?? 'check whether it was created before trying again' },
      );
    }
    switch (f.kind) {
      case 'timeout':
      case 'connect-timeout':
        return new NetworkError(
          `no answer from ${host} within ${seconds(opts.timeoutMs)} (--timeout)${after}`,
          {
            hint: 'raise --timeout, or check that the service is reachable',
          },
        );
      case 'refused': {
        const sandbox = isLoopback(url.hostname);
        // Through a proxy, it is the proxy that refused (or could not reach the host).
        const proxy = proxied !== undefined && !sandbox;
        return new NetworkError(
          `cannot connect to ${host}${proxy ? ' (through the proxy)' : ''}: connection refused${after}`,
          {
            hint: sandbox
              ? 'is the sandbox running? start it with `sched sandbox`'
              : proxy
                ? 'check HTTPS_PROXY / HTTP_PROXY / NO_PROXY, then the base URL'
                : baseHint,
          },
        );
      }
      case 'dns':
        return new NetworkError(
          `cannot resolve host ${shortHost(url.hostname)} (DNS lookup failed)`,
          {
            hint: baseHint,
          },
        );
      case 'dns-temporary':
        return new NetworkError(
          `temporary DNS failure resolving ${shortHost(url.hostname)}${after}`,
          {
            hint: baseHint,
          },
        );
      case 'tls':
        return new NetworkError(`TLS error talking to ${host}: ${clean(f.detail)} (${f.code})`, {
          hint: 'for a private CA, point NODE_EXTRA_CA_CERTS at its PEM file',
        });
      case 'proxy':
        return new NetworkError(`the proxy refused the connection to ${host}: ${clean(f.detail)}`, {
          hint: 'check HTTPS_PROXY / HTTP_PROXY / NO_PROXY',
        });
      case 'closed':
        return new NetworkError(`${req.method} ${req.path} was cut off: the command is ending`);
      case 'reset':
        return new NetworkError(`the connection to ${host} was reset (${f.code})${after}`, {
          hint: baseHint,
        });
      default:
        return new NetworkError(
          `request to ${host} failed: ${clean(f.detail)} (${f.code})${after}`,
          { hint: baseHint },
        );
    }
  }

  function statusError(req: ApiRequest, ex: Exchange, attempts: number, waitMs?: number): Error {
    const reason = STATUS_CODES[ex.status] ?? 'error';
    const msg = serverMessage(ex.body, ex.headers);
    const said = msg ? `: ${redact(msg, req.sensitive)}` : '';
    const where = `${req.method} ${req.path}`;
    const after = attempts > 1 ? ` (after ${attempts} attempts)` : '';
    if (ex.status === 401 || ex.status === 403) {
      if (ex.crossOrigin) {
        return new AuthError(
          `the API redirected ${where} to ${ex.url.origin}, which answered ${ex.status}; the key is never sent to another host`,
          { hint: `if ${ex.url.origin} is the right service, use it as the base URL (--base-url)` },
        );
      }
      return new AuthError(`the API rejected the key (${ex.status})${said}`, {
        hint: 'run `sched auth login` or set SCHED_API_KEY',
      });
    }
    if (ex.status === 404) return new NotFoundError(`not found (404): ${where}${said}`);
    if (ex.status === 400 || ex.status === 422) {
      const parsed = tryJson(ex.body);
      const details = parsed.ok
        ? fieldErrors(parsed.value).map((d) => redact(d, req.sensitive))
        : [];
      return new UsageError(`the API rejected ${where} (${ex.status})${said}`, { details });
    }
    if (ex.status === 429) {
      const when =
        waitMs !== undefined
          ? `; the service asks to wait ${seconds(waitMs)} (until ${clockTime(waitMs)})`
          : '';
      return new ApiError(`rate limited by ${ex.url.host} (429) on ${where}${when}${after}`, {
        status: 429,
        hint:
          waitMs !== undefined
            ? `try again after ${clockTime(waitMs)}`
            : 'wait a little and try again',
      });
    }
    if (ex.status >= 500) {
      const when =
        waitMs !== undefined
          ? `; the service asks to retry in ${seconds(waitMs)} (at ${clockTime(waitMs)})`
          : '';
      return new ApiError(
        `the API failed with ${ex.status} ${reason} on ${where}${said}${when}${after}`,
        {
          status: ex.status,
          hint: 'this is a problem on the service side; try again later',
        },
      );
    }
    return new ApiError(`the API answered ${ex.status} ${reason} to ${where}${said}`, {
      status: ex.status,
    });
  }

  function parseBody<T>(req: ApiRequest, ex: Exchange): T {
    const expect = req.expectBody ?? req.method !== 'DELETE';
    if (ex.body.length === 0 || ex.status === 204) {
      if (expect) {
        throw new ApiError(
          `empty answer from ${req.method} ${req.path} (${ex.status} with no body); expected JSON`,
          {
            status: ex.status,
          },
        );
      }
      return undefined as T;
    }
    const parsed = tryJson(ex.body);
    if (parsed.ok) return parsed.value as T;
    if (!expect) return undefined as T;
    const type = describeType(ex.headers);
    if (/json/i.test(type)) {
      throw new ApiError(
        `invalid JSON in the answer to ${req.method} ${req.path} (${ex.body.length} bytes, truncated or broken)`,
        { status: ex.status },
      );
    }
    throw new ApiError(`expected JSON from ${req.method} ${req.path}, got ${type}`, {
      status: ex.status,
      hint: 'check the base URL: it should point at the API (e.g. https://secure.simplymeet.me/api)',
    });
  }

  async function send<T>(req: ApiRequest): Promise<ApiResponse<T>> {
    const idempotent = req.method !== 'POST';
    let mayHaveReached = false;
    let timeouts = 0;
    for (let attempt = 1; ; attempt++) {
      if (req.signal?.aborted) throw interrupted(req.signal);
      const canRetry = attempt <= policy.retries;
      let ex: Exchange;
      try {
        ex = await exchange(req, attempt);
      } catch (e) {
        if (e instanceof UserAbortMarker) {
          throw interrupted(req.signal, req.method === 'POST' ? req : undefined);
        }
        if (!(e instanceof AttemptError)) throw e;
        const f = e.failure;
        const transient = !['dns', 'tls', 'too-large', 'proxy', 'closed'].includes(f.kind);
        const isTimeout = f.kind === 'timeout' || f.kind === 'connect-timeout';
        let retry = canRetry && (idempotent ? transient : f.notSent && transient);
        if (isTimeout && timeouts >= policy.timeoutRetries) retry = false;
        const wait = retry ? backoff(attempt) : 0;
        log(
          `${req.method} ${showUrl(e.url)} -> ${f.code} in ${e.ms} ms (attempt ${attempt}` +
            (retry ? `; retrying in ${seconds(wait)})` : ')'),
        );
        if (!retry) throw networkError(req, f, e.url, attempt);
        if (isTimeout) timeouts++;
        if (!f.notSent) mayHaveReached = true;
        try {
          await sleep(wait, req.signal);
        } catch {
          throw interrupted(req.signal);
        }
        continue;
      }

      const ok = ex.status >= 200 && ex.status < 300;
      let retryIn: number | undefined;
      let tooLong: number | undefined;
      if (ex.status === 429 || ex.status >= 500) {
        const asked = parseRetryAfter(ex.headers['retry-after']);
        if (ex.status === 429) {
          const info: RateLimitInfo = {
            method: req.method,
            path: req.path,
            retryAfterMs: asked,
            attempt,
          };
          req.onRateLimit?.(info);
          for (const l of listeners) l(info);
        }
        const retryable = ex.status === 429 || idempotent;
        if (asked !== undefined && asked > policy.retryAfterCapMs) tooLong = asked;
        else if (retryable && canRetry) retryIn = asked ?? backoff(attempt);
      }
      log(
        `${req.method} ${showUrl(ex.url)} -> ${ex.status} in ${ex.ms} ms (attempt ${attempt}` +
          (retryIn !== undefined ? `; retrying in ${seconds(retryIn)})` : ')'),
      );
      if (ok) {
        return {
          status: ex.status,
          headers: ex.headers,
          body: parseBody<T>(req, ex),
          attempts: attempt,
        };
      }
      if (ex.status === 404 && req.method === 'DELETE' && mayHaveReached) {
        // An earlier attempt may have deleted it before its answer got lost: it is gone either way.
        return {
          status: 204,
          headers: ex.headers,
          body: undefined as T,
          alreadyGone: true,
          attempts: attempt,
        };
      }
      if (retryIn !== undefined) {
        if (ex.status >= 500) mayHaveReached = true;
        try {
          await sleep(retryIn, req.signal);
        } catch {
          throw interrupted(req.signal);
        }
        continue;
      }
      throw statusError(req, ex, attempt, tooLong);
    }
  }

  const inFlight = new Set<Promise<unknown>>();
  let closing = false;

  return {
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
      if (closing) {
        return Promise.reject(
          new NetworkError(`${req.method} ${req.path} not sent: the command is ending`),
        );
      }
      const p = send<T>(req);
      inFlight.add(p);
      const done = () => inFlight.delete(p);
      p.then(done, done);
      return p;
    },
    onRateLimit(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      // Let requests still in flight finish for up to 2 s, then cut them: a command that is
      // ending (maybe on an error, with siblings still running) must not hang on them.
      // (undici's destroy() does not fail requests once close() is pending: decide first.)
      closing = true;
      if (inFlight.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...inFlight]),
          new Promise((resolve) => (timer = setTimeout(resolve, 2000))),
        ]);
        clearTimeout(timer);
      }
      const dispatchers = [direct, proxied].filter((d): d is Dispatcher => d !== undefined);
      if (inFlight.size > 0) await Promise.all(dispatchers.map((d) => d.destroy().catch(() => {})));
      else await Promise.all(dispatchers.map((d) => d.close()));
    },
  };
}
