// The API client: one request is a series of attempts through the exchange (exchange.ts),
// each outcome judged by the retry decision (retry.ts, where the policy is written down), and
// a failure that is not retried turned into one typed error (wording.ts). Knows nothing about
// terminals or output formats; --verbose lines go through opts.log, the key and secrets masked.
//
// A DELETE answered 404 after an earlier attempt may have reached the server is a success:
// the response has status 204 and `alreadyGone: true`.
//
// Aborting: when req.signal aborts (Ctrl-C), request() throws Interrupted (exit 130, or 143
// when the signal's reason is 'SIGTERM'); for a POST already sent it has outcomeUnknown set.
// Callers that did part of a bulk job catch it and re-throw an Interrupted whose details say
// what was already done.
import { UsageError } from '../errors.js';
import { masker, proxyCredentials } from '../mask.js';
import { createTransport, MAX_REDIRECTS, type ExchangeRequest } from './exchange.js';
import { isSecretHeader } from './headers.js';
import {
  decideRetry,
  parseRetryAfter,
  RETRY,
  type AttemptOutcome,
  type HttpMethod,
  type RetryPolicy,
} from './retry.js';
import { showUrl } from './url.js';
import {
  failureError,
  interruptedError,
  notSentError,
  parseBody,
  redirectError,
  seconds,
  statusError,
} from './wording.js';

export { encodeQuery } from './url.js';
export {
  HTTP_METHODS,
  RETRY,
  parseRetryAfter,
  type HttpMethod,
  type RetryPolicy,
} from './retry.js';

export interface RateLimitInfo {
  method: HttpMethod;
  path: string;
  /** The wait the server asked for (Retry-After), when it said. */
  retryAfterMs: number | undefined;
  /** 1-based attempt that was answered 429. */
  attempt: number;
}

/** Takes over a 429 (see ApiRequest.rateLimitOwner); returns its wait before resending. */
export type RateLimitOwner = (info: RateLimitInfo) => number | undefined;

/**
 * One request as a command asks for it: what goes on the wire (ExchangeRequest: method, path
 * relative to the base URL with segments already encoded, query pairs, a JSON `body` or exact
 * `rawBody` bytes, extra `headers` — never X-API-KEY, Host or framing headers, see headers.ts —
 * and the signal), plus how the client treats the answer.
 */
export interface ApiRequest extends ExchangeRequest {
  /**
   * Whether a 2xx answer must carry a JSON body. Default: true for GET and POST, false for
   * DELETE (204 has no body). An empty or non-JSON body where one is required is an ApiError.
   */
  expectBody?: boolean;
  /** Told of every 429, to watch (count, log); it decides nothing. */
  onRateLimit?: (info: RateLimitInfo) => void;
  /**
   * The owner of this request's 429s: a scheduler (src/bulk/limiter.ts) that slows the whole
   * job down and sends the request again itself. When given, the client tells it of a 429 and
   * fails the attempt with that 429 (an ApiError, status 429) instead of retrying; without
   * one, the client retries a 429 by its own policy (retry.ts). One owner either way. It
   * returns in how many ms it sends the request again (for the --verbose line), or undefined
   * when it will not.
   */
  rateLimitOwner?: RateLimitOwner;
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

/** An answer as received, for `sched api`. */
export interface RawResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", "; secrets masked as in `body`. */
  headers: Record<string, string>;
  /** The body bytes, with the key and the request's secrets replaced by ****. */
  body: Buffer;
  /** With `expectJson`, the parsed body of a 2xx answer. */
  json?: unknown;
  /**
   * For an answer that is not 2xx: the typed error the same answer gives every other command
   * (its exit code follows the table: 401/403 -> 4, 404 -> 5, 400/422 -> 2, else 1).
   */
  error?: Error;
  /** DELETE only: answered 404 after an earlier attempt may have deleted it. */
  alreadyGone?: boolean;
  attempts: number;
}

export interface ApiClient {
  readonly baseUrl: string;
  /** Sends one request (with retries where safe); non-2xx answers throw typed errors. */
  request<T>(req: ApiRequest): Promise<ApiResponse<T>>;
  /**
   * The same request, retries and failures, but an answer that is not 2xx is returned (with
   * its error) rather than thrown. `expectJson`: a 2xx body must be JSON (checked and worded
   * like request()).
   */
  requestRaw(req: ApiRequest & { expectJson?: boolean }): Promise<RawResponse>;
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
  /** The hint of a 401/403: what to do about the key, naming where it came from. */
  authHint?: string;
  /** Told before a request that changes something (anything but GET) is first sent. */
  onWrite?: (req: { method: HttpMethod; path: string }) => void;
  /**
   * Told of every secret the client sends (the key, proxy passwords, secret-looking headers),
   * so the output gate masks them wherever they are echoed (src/io.ts).
   */
  onSecrets?: (secrets: string[]) => void;
}

export const MAX_BODY_BYTES = 50 * 1024 * 1024;

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

/** The bytes with each secret replaced (a body the server echoed a key or a header into). */
function maskBytes(body: Buffer, mask: (s: string) => string): Buffer {
  const text = body.toString('latin1');
  const masked = mask(text);
  return masked === text ? body : Buffer.from(masked, 'latin1');
}

/** Waits, or rejects (with nothing to say) when the signal aborts first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(t);
      reject(new Error('aborted'));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function createApiClient(opts: ApiClientOptions): ApiClient {
  const policy: RetryPolicy = { ...RETRY, ...opts.retry };
  const maxBodyBytes = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  const key = checkApiKey(opts.apiKey);
  const transport = createTransport({
    baseUrl: opts.baseUrl,
    apiKey: key,
    timeoutMs: opts.timeoutMs,
    userAgent: opts.userAgent,
    maxBodyBytes,
    connections: opts.connections ?? 64,
    env: opts.env ?? {},
  });
  const listeners = new Set<(info: RateLimitInfo) => void>();
  // Proxy credentials are secrets too: an error detail or an echoing proxy may carry them.
  const proxySecrets = proxyCredentials(opts.env ?? {});
  const redact = masker([key, ...proxySecrets]);
  opts.onSecrets?.([key, ...proxySecrets]);
  const log = (line: string) => opts.log?.(redact(line));

  /** The --verbose line of one attempt. */
  function logAttempt(
    mask: (s: string) => string,
    req: ApiRequest,
    url: URL,
    what: string,
    ms: number,
    attempt: number,
    retryMs?: number,
  ) {
    if (!opts.log) return;
    log(
      mask(`${req.method} ${showUrl(url)} -> ${what} in ${ms} ms (attempt ${attempt}`) +
        (retryMs !== undefined ? `; retrying in ${seconds(retryMs)})` : ')'),
    );
  }

  type Outcome = { kind: 'ok'; res: ApiResponse<unknown> } | { kind: 'raw'; res: RawResponse };

  async function send(req: ApiRequest, raw?: { expectJson: boolean }): Promise<Outcome> {
    if (req.method !== 'GET') opts.onWrite?.({ method: req.method, path: req.path });
    const secretHeaders = Object.entries(req.headers ?? {})
      .filter(([name]) => isSecretHeader(name))
      .map(([, v]) => v);
    if (secretHeaders.length > 0) opts.onSecrets?.(secretHeaders);
    // Most requests add no secret of their own: the client's masker then serves (building one
    // per request was ~2% of the CPU of `link create --count 1000`).
    const ownSecrets = [...(req.sensitive ?? []), ...secretHeaders];
    const mask = ownSecrets.length === 0 ? redact : masker([key, ...proxySecrets, ...ownSecrets]);
    for (const [name, value] of Object.entries(req.headers ?? {})) {
      log(`${req.method} ${req.path}: header ${name}: ${isSecretHeader(name) ? '****' : value}`);
    }
    let mayHaveReached = false;
    let timeoutsRetried = 0;
    const wait = async (ms: number) => {
      try {
        await sleep(ms, req.signal);
      } catch {
        throw interruptedError(req.signal?.reason);
      }
    };
    for (let attempt = 1; ; attempt++) {
      if (req.signal?.aborted) throw interruptedError(req.signal.reason);
      const r = await transport.exchange(req, attempt, log);
      if (r.kind === 'aborted') throw interruptedError(req.signal?.reason, { req, url: r.url });
      if (r.kind === 'redirect-refused') {
        throw redirectError(req, r.why, r, MAX_REDIRECTS, mask);
      }

      if (r.kind === 'failed') {
        const f = r.failure;
        const outcome: AttemptOutcome = { kind: 'failed', failure: f.kind, notSent: f.notSent };
        const d = decideRetry(attempt, req.method, outcome, {
          policy,
          timeoutsRetried,
          random: Math.random,
        });
        logAttempt(mask, req, r.url, f.code, r.ms, attempt, d.retry ? d.delayMs : undefined);
        if (!d.retry) {
          throw failureError(req, f, r.url, {
            attempts: attempt,
            timeoutMs: opts.timeoutMs,
            maxBodyBytes,
            proxied: transport.proxiedFor(r.url),
            mask,
          });
        }
        if (f.kind === 'timeout' || f.kind === 'connect-timeout') timeoutsRetried++;
        if (!f.notSent) mayHaveReached = true;
        await wait(d.delayMs);
        continue;
      }

      const ans = r.answer;
      /** An owned 429: when its owner sends it again. */
      let resendMs: number | undefined;
      const retryAfterMs =
        ans.status === 429 || ans.status >= 500
          ? parseRetryAfter(ans.headers['retry-after'])
          : undefined;
      if (ans.status === 429) {
        const info: RateLimitInfo = {
          method: req.method,
          path: req.path,
          retryAfterMs,
          attempt,
        };
        req.onRateLimit?.(info);
        for (const l of listeners) l(info);
        if (req.rateLimitOwner) resendMs = req.rateLimitOwner(info);
      }
      const d = decideRetry(
        attempt,
        req.method,
        { kind: 'answered', status: ans.status, retryAfterMs },
        { policy, timeoutsRetried, random: Math.random, rateLimitOwned: !!req.rateLimitOwner },
      );
      logAttempt(
        mask,
        req,
        ans.url,
        String(ans.status),
        r.ms,
        attempt,
        d.retry ? d.delayMs : resendMs,
      );
      const rawAnswer = (extra: Partial<RawResponse>): Outcome => ({
        kind: 'raw',
        res: {
          status: ans.status,
          headers: Object.fromEntries(Object.entries(ans.headers).map(([k, v]) => [k, mask(v)])),
          body: maskBytes(ans.body, mask),
          attempts: attempt,
          ...extra,
        },
      });
      if (ans.status >= 200 && ans.status < 300) {
        if (raw) {
          return rawAnswer(raw.expectJson ? { json: parseBody(req, ans, true) } : {});
        }
        const expect = req.expectBody ?? req.method !== 'DELETE';
        return {
          kind: 'ok',
          res: {
            status: ans.status,
            headers: ans.headers,
            body: parseBody(req, ans, expect),
            attempts: attempt,
          },
        };
      }
      if (ans.status === 404 && req.method === 'DELETE' && mayHaveReached) {
        // An earlier attempt may have deleted it before its answer got lost: it is gone either way.
        if (raw) return rawAnswer({ alreadyGone: true });
        return {
          kind: 'ok',
          res: {
            status: 204,
            headers: ans.headers,
            body: undefined,
            alreadyGone: true,
            attempts: attempt,
          },
        };
      }
      if (d.retry) {
        if (ans.status >= 500) mayHaveReached = true;
        await wait(d.delayMs);
        continue;
      }
      const error = statusError(req, ans, {
        attempts: attempt,
        tooLongMs: d.tooLongMs,
        mask,
        now: Date.now(),
        baseUrl: opts.baseUrl,
        authHint: opts.authHint,
      });
      // An owned 429 is its owner's to send again, not an answer to show (even raw).
      if (raw && resendMs === undefined) return rawAnswer({ error });
      throw error;
    }
  }

  function track<R>(p: Promise<R>): Promise<R> {
    inFlight.add(p);
    const done = () => inFlight.delete(p);
    p.then(done, done);
    return p;
  }

  const inFlight = new Set<Promise<unknown>>();
  let closing = false;

  return {
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
      if (closing) throw notSentError(req);
      const r = await track(send(req));
      if (r.kind !== 'ok') throw new Error('unreachable: a raw answer to request()');
      return r.res as ApiResponse<T>;
    },
    async requestRaw(req) {
      if (closing) throw notSentError(req);
      const r = await track(send(req, { expectJson: req.expectJson ?? false }));
      if (r.kind !== 'raw') throw new Error('unreachable: a parsed answer to requestRaw()');
      return r.res;
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
      await transport.close(inFlight.size > 0);
    },
  };
}
