// The API client: one request is a series of attempts, each sent through the exchange
// (exchange.ts), judged by the retry decision (retry.ts, where the policy is written down),
// then waited on or settled: an answer to return, or a typed error (wording.ts). The parsed
// (request) and raw (requestRaw) forms of a settled answer are made at the edge, from one loop.
// Knows nothing about terminals or output formats; --verbose lines go through opts.log, and
// notes for a person at a terminal through opts.notify, the key and secrets masked.
//
// A DELETE answered 404 after an earlier attempt may have reached the server is a success:
// the response has status 204 and `alreadyGone: true`.
//
// Aborting: when req.signal aborts (Ctrl-C), request() throws Interrupted (exit 130, or 143
// when the signal's reason is 'SIGTERM'); for a POST already sent it has outcomeUnknown set.
// Callers that did part of a bulk job catch it and re-throw an Interrupted whose details say
// what was already done.
import { UsageError } from '../errors.js';
import { masker, proxyCredentials, type Mask } from '../mask.js';
import {
  createTransport,
  MAX_REDIRECTS,
  type ExchangeRequest,
  type ExchangeResult,
  type Transport,
} from './exchange.js';
import { isSecretHeader } from './headers.js';
import { decideRetry, parseRetryAfter, RETRY, type HttpMethod, type RetryPolicy } from './retry.js';
import { showUrl } from './url.js';
import {
  failureError,
  interruptedError,
  notSentError,
  notTheApi,
  parseBody,
  redirectError,
  retryNote,
  seconds,
  statusError,
  waitingNote,
  type Answer,
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
   * Told of the secret-looking header values a request carries (`sched api -H`), so the output
   * gate masks them wherever they are echoed (src/io.ts). The key and proxy passwords are the
   * caller's own: it gave them, and masks them itself (the context does, once).
   */
  onSecrets?: (secrets: string[]) => void;
  /**
   * For a person at a terminal (the context passes it when stderr is one): told when an
   * answer is slow to come (that it is still waiting, and when it gives up and tries again)
   * and when a request that got no answer in time is sent again.
   */
  notify?: (line: string) => void;
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
function maskBytes(body: Buffer, mask: Mask): Buffer {
  const text = body.toString('latin1');
  const masked = mask(text);
  return masked === text ? body : Buffer.from(masked, 'latin1');
}

/** Waits; Ctrl-C (the signal) while waiting is an Interrupted. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(t);
      reject(interruptedError(signal?.reason));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** What a client is made of, shared by every request it sends. */
interface Core {
  opts: ApiClientOptions;
  policy: RetryPolicy;
  maxBodyBytes: number;
  transport: Transport;
  /** The key and proxy passwords. */
  secrets: string[];
  /** Masks the key and proxy passwords. */
  redact: Mask;
  /** --verbose, the key and proxy passwords masked. */
  log: (line: string) => void;
  listeners: Set<(info: RateLimitInfo) => void>;
}

/** One request on its way: what the attempts so far have taught. */
interface Run {
  req: ApiRequest;
  /** Masks the key, proxy passwords, the request's secrets and secret headers. */
  mask: Mask;
  attempt: number;
  timeoutsRetried: number;
  /** An earlier attempt may have reached the service (a DELETE then answered 404 is done). */
  mayHaveReached: boolean;
}

/** How a request ended with an answer; every other end is thrown. */
type Settled = { ans: Answer; attempts: number; mask: Mask } & (
  | { kind: 'ok' }
  /** A DELETE answered 404 after an earlier attempt may have deleted it. */
  | { kind: 'gone' }
  /** Not 2xx and not retried; `owned`: a 429 its owner sends again (not an answer to show). */
  | { kind: 'error'; error: Error; owned: boolean }
);

type Verdict = { settled: Settled } | { waitMs: number };

/** Before the first attempt: the write notice, the secret headers, the --verbose header lines. */
function begin(core: Core, req: ApiRequest): Run {
  if (req.method !== 'GET') core.opts.onWrite?.({ method: req.method, path: req.path });
  const headers = Object.entries(req.headers ?? {});
  const secretHeaders = headers.filter(([name]) => isSecretHeader(name)).map(([, v]) => v);
  if (secretHeaders.length > 0) core.opts.onSecrets?.(secretHeaders);
  // Most requests add no secret of their own: the client's masker then serves (building one
  // per request was ~2% of the CPU of `link create --count 1000`).
  const own = [...(req.sensitive ?? []), ...secretHeaders];
  const mask = own.length === 0 ? core.redact : masker([...core.secrets, ...own]);
  for (const [name, value] of headers) {
    core.log(`${req.method} ${req.path}: header ${name}: ${isSecretHeader(name) ? '****' : value}`);
  }
  return { req, mask, attempt: 1, timeoutsRetried: 0, mayHaveReached: false };
}

/** The --verbose line of one attempt. */
function logAttempt(core: Core, run: Run, url: URL, what: string, ms: number, nextMs?: number) {
  const line = `${run.req.method} ${showUrl(url)} -> ${what} in ${ms} ms (attempt ${run.attempt}`;
  core.log(run.mask(line) + (nextMs !== undefined ? `; retrying in ${seconds(nextMs)})` : ')'));
}

/** An attempt that got no answer: wait and retry, or the typed error. */
function judgeFailure(core: Core, run: Run, r: Extract<ExchangeResult, { kind: 'failed' }>) {
  const { req, attempt } = run;
  const f = r.failure;
  const d = decideRetry(
    attempt,
    req.method,
    { kind: 'failed', failure: f.kind, notSent: f.notSent },
    { policy: core.policy, timeoutsRetried: run.timeoutsRetried, random: Math.random },
  );
  logAttempt(core, run, r.url, f.code, r.ms, d.retry ? d.delayMs : undefined);
  if (!d.retry) {
    throw failureError(req, f, r.url, {
      attempts: attempt,
      timeoutMs: core.opts.timeoutMs,
      maxBodyBytes: core.maxBodyBytes,
      proxied: core.transport.proxiedFor(r.url),
      mask: run.mask,
    });
  }
  if (f.kind === 'timeout' || f.kind === 'connect-timeout') {
    run.timeoutsRetried++;
    core.opts.notify?.(retryNote(r.url, core.opts.timeoutMs, d.delayMs, attempt + 1));
  }
  if (!f.notSent) run.mayHaveReached = true;
  return { waitMs: d.delayMs };
}

/** Tells the watchers and the owner of a 429; returns when the owner sends it again. */
function rateLimited(core: Core, run: Run, retryAfterMs: number | undefined) {
  const { req, attempt } = run;
  const info: RateLimitInfo = { method: req.method, path: req.path, retryAfterMs, attempt };
  req.onRateLimit?.(info);
  for (const l of core.listeners) l(info);
  return req.rateLimitOwner?.(info);
}

/** An answer: settled (2xx, a DELETE already gone, an error not retried), or wait and retry. */
function judgeAnswer(core: Core, run: Run, ans: Answer, ms: number): Verdict {
  const { req, attempt, mask } = run;
  const { status } = ans;
  const retryAfterMs =
    status === 429 || status >= 500 ? parseRetryAfter(ans.headers['retry-after']) : undefined;
  // An owned 429: when its owner sends it again.
  const resendMs = status === 429 ? rateLimited(core, run, retryAfterMs) : undefined;
  const d = decideRetry(
    attempt,
    req.method,
    { kind: 'answered', status, retryAfterMs, notTheApi: notTheApi(ans) },
    {
      policy: core.policy,
      timeoutsRetried: run.timeoutsRetried,
      random: Math.random,
      rateLimitOwned: !!req.rateLimitOwner,
    },
  );
  logAttempt(core, run, ans.url, String(status), ms, d.retry ? d.delayMs : resendMs);
  const settled = { ans, attempts: attempt, mask };
  if (status >= 200 && status < 300) return { settled: { ...settled, kind: 'ok' } };
  // An earlier attempt may have deleted it before its answer got lost: it is gone either way.
  if (status === 404 && req.method === 'DELETE' && run.mayHaveReached) {
    return { settled: { ...settled, kind: 'gone' } };
  }
  if (d.retry) {
    if (status >= 500) run.mayHaveReached = true;
    return { waitMs: d.delayMs };
  }
  const error = statusError(req, ans, {
    attempts: attempt,
    tooLongMs: d.tooLongMs,
    mask,
    now: Date.now(),
    baseUrl: core.opts.baseUrl,
    authHint: core.opts.authHint,
  });
  return { settled: { ...settled, kind: 'error', error, owned: resendMs !== undefined } };
}

/** What one attempt's outcome means for the request. */
function judge(core: Core, run: Run, r: ExchangeResult): Verdict {
  switch (r.kind) {
    case 'aborted':
      throw interruptedError(run.req.signal?.reason, { req: run.req, url: r.url });
    case 'redirect-refused':
      throw redirectError(run.req, r.why, r, MAX_REDIRECTS, run.mask);
    case 'failed':
      return judgeFailure(core, run, r);
    case 'answer':
      return judgeAnswer(core, run, r.answer, r.ms);
  }
}

/** One attempt; on a terminal, a note when the answer is slow to come. */
async function attempt(core: Core, run: Run): Promise<ExchangeResult> {
  const { notify, timeoutMs } = core.opts;
  const { req } = run;
  if (!notify) return core.transport.exchange(req, run.attempt, core.log);
  const noteMs = Math.min(WAITING_NOTE_MS, timeoutMs / 2);
  // Would a timeout now be tried again? The retry decision says, as it will then.
  const thenRetry = decideRetry(
    run.attempt,
    req.method,
    { kind: 'failed', failure: 'timeout', notSent: false },
    { policy: core.policy, timeoutsRetried: run.timeoutsRetried, random: () => 0 },
  ).retry;
  const url = new URL(core.opts.baseUrl);
  const timer = setTimeout(
    () => notify(waitingNote(req, url, noteMs, timeoutMs, thenRetry)),
    noteMs,
  );
  try {
    return await core.transport.exchange(req, run.attempt, core.log);
  } finally {
    clearTimeout(timer);
  }
}

/** After this long without an answer (or half of --timeout) a terminal is told it waits. */
const WAITING_NOTE_MS = 5_000;

/** Sends, judges, and waits or settles: the one loop of a request. */
async function send(core: Core, req: ApiRequest): Promise<Settled> {
  const run = begin(core, req);
  for (;;) {
    if (req.signal?.aborted) throw interruptedError(req.signal.reason);
    const verdict = judge(core, run, await attempt(core, run));
    if ('settled' in verdict) return verdict.settled;
    await sleep(verdict.waitMs, req.signal);
    run.attempt++;
  }
}

/** A settled request as request() returns it: the body parsed, an error thrown. */
function parsedResponse<T>(req: ApiRequest, s: Settled): ApiResponse<T> {
  const { ans, attempts } = s;
  if (s.kind === 'error') throw s.error;
  if (s.kind === 'gone') {
    return { status: 204, headers: ans.headers, body: undefined as T, alreadyGone: true, attempts };
  }
  const body = parseBody(req, ans, req.expectBody ?? req.method !== 'DELETE') as T;
  return { status: ans.status, headers: ans.headers, body, attempts };
}

/** A settled request as requestRaw() returns it: the bytes, secrets masked, the error kept. */
function rawResponse(req: ApiRequest, s: Settled, expectJson: boolean): RawResponse {
  const { ans, mask } = s;
  // An owned 429 is its owner's to send again, not an answer to show.
  if (s.kind === 'error' && s.owned) throw s.error;
  const headers = Object.fromEntries(Object.entries(ans.headers).map(([k, v]) => [k, mask(v)]));
  const raw: RawResponse = {
    status: ans.status,
    headers,
    body: maskBytes(ans.body, mask),
    attempts: s.attempts,
  };
  if (s.kind === 'error') raw.error = s.error;
  else if (s.kind === 'gone') raw.alreadyGone = true;
  else if (expectJson) raw.json = parseBody(req, ans, true);
  return raw;
}

export function createApiClient(opts: ApiClientOptions): ApiClient {
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
  // Proxy credentials are secrets too: an error detail or an echoing proxy may carry them.
  const secrets = [key, ...proxyCredentials(opts.env ?? {})];
  const redact = masker(secrets);
  const log = (line: string) => opts.log?.(redact(line));
  const policy: RetryPolicy = { ...RETRY, ...opts.retry };
  const core: Core = {
    opts,
    policy,
    maxBodyBytes,
    transport,
    secrets,
    redact,
    log,
    listeners: new Set(),
  };
  const inFlight = new Set<Promise<unknown>>();
  let closing = false;
  const tracked = (req: ApiRequest): Promise<Settled> => {
    if (closing) return Promise.reject(notSentError(req));
    const p = send(core, req);
    inFlight.add(p);
    const done = () => inFlight.delete(p);
    p.then(done, done);
    return p;
  };

  return {
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    async request<T>(req: ApiRequest) {
      return parsedResponse<T>(req, await tracked(req));
    },
    async requestRaw(req) {
      return rawResponse(req, await tracked(req), req.expectJson ?? false);
    },
    onRateLimit(listener) {
      core.listeners.add(listener);
      return () => core.listeners.delete(listener);
    },
    async close() {
      closing = true;
      await settleOrCut(inFlight);
      await transport.close(inFlight.size > 0);
    },
  };
}

/**
 * Lets requests still in flight finish for up to 2 s: a command that is ending (maybe on an
 * error, with siblings still running) must not hang on them. (undici's destroy() does not
 * fail requests once close() is pending: the caller decides first, from what is left.)
 */
async function settleOrCut(inFlight: Set<Promise<unknown>>): Promise<void> {
  if (inFlight.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled([...inFlight]),
    new Promise((resolve) => (timer = setTimeout(resolve, 2000))),
  ]);
  clearTimeout(timer);
}
