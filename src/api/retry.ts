// When to send a request again, as a pure function of what the last attempt met. The policy:
// - GET and DELETE: retried on network errors (reset, timeout, temporary DNS failure, cut-off
//   body), 5xx and 429, up to `retries` times, exponential backoff with full jitter (base
//   250 ms, ceiling 4 s). A timeout is retried once at most (a server that did not answer
//   within --timeout rarely answers the third time, and each wait is a whole --timeout).
// - POST (and PUT and PATCH, which only `sched api` sends): retried only when the service provably did not process it: nothing was sent
//   (connection refused, a connect timeout, a temporary DNS failure), or it answered 429.
//   A reset, timeout or cut-off answer after the POST was sent is never retried (the outcome
//   is unknown), nor is any other answer.
// - Retry-After (seconds or HTTP date) on 429 and 5xx is honoured up to 20 s; beyond that the
//   request fails at once (the error says when to retry).
// - A 429 whose request has an owner (a bulk job's limiter, ApiRequest.rateLimitOwner) is not
//   retried here: the owner slows the job down and sends it again.
// - Never retried: DNS "no such host", TLS certificate errors, a proxy refusal, an answer too
//   large, a request cut off because the command is ending, a 501 (Not Implemented), and an
//   answer that is not the API's (an HTML error page: another server at the base URL). None
//   heals by waiting.
import type { FailureKind } from './failure.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Every method the client sends (`sched api -X` accepts these). */
export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Whether a request may be sent again after it may have reached the service: GET and DELETE.
 * Every other method is treated as a POST (retried only when provably not processed; a
 * redirect is not followed; a lost answer leaves the outcome unknown).
 */
export function isIdempotent(method: HttpMethod): boolean {
  return method === 'GET' || method === 'DELETE';
}

export interface RetryPolicy {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  retryAfterCapMs: number;
  timeoutRetries: number;
}

/** The production policy (tests shorten the delays by assigning to it). */
export const RETRY: RetryPolicy = {
  retries: 3,
  baseDelayMs: 250,
  maxDelayMs: 4000,
  retryAfterCapMs: 20_000,
  timeoutRetries: 1,
};

/** What one attempt met. */
export type AttemptOutcome =
  | { kind: 'failed'; failure: FailureKind; notSent: boolean }
  | {
      kind: 'answered';
      status: number;
      retryAfterMs: number | undefined;
      /** The answer is not the API's (wording.ts, notTheApi): another server, never retried. */
      notTheApi?: boolean;
    };

export type RetryDecision =
  | {
      retry: false;
      /** The service asked to wait longer than the cap: the error says until when. */
      tooLongMs?: number;
    }
  | { retry: true; delayMs: number };

export interface RetryInputs {
  policy: RetryPolicy;
  /** Timeouts already retried for this request. */
  timeoutsRetried: number;
  /** In [0, 1): Math.random in production. */
  random: () => number;
  /** The request's 429s have an owner (ApiRequest.rateLimitOwner) that sends them again. */
  rateLimitOwned?: boolean;
}

const PERMANENT: readonly FailureKind[] = [
  'dns',
  'tls',
  'plain-http',
  'too-large',
  'proxy',
  'closed',
];

/** Full jitter: a uniform wait up to base × 2^(retry-1), capped. */
export function backoffMs(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(random() * ceiling);
}

/** `attempt` is 1-based: the attempt that just ended. */
export function decideRetry(
  attempt: number,
  method: HttpMethod,
  outcome: AttemptOutcome,
  { policy, timeoutsRetried, random, rateLimitOwned }: RetryInputs,
): RetryDecision {
  const canRetry = attempt <= policy.retries;
  const idempotent = isIdempotent(method);
  if (outcome.kind === 'failed') {
    const transient = !PERMANENT.includes(outcome.failure);
    const isTimeout = outcome.failure === 'timeout' || outcome.failure === 'connect-timeout';
    let retry = canRetry && transient && (idempotent || outcome.notSent);
    if (isTimeout && timeoutsRetried >= policy.timeoutRetries) retry = false;
    return retry ? { retry, delayMs: backoffMs(attempt, policy, random) } : { retry: false };
  }
  const { status, retryAfterMs } = outcome;
  if (status !== 429 && status < 500) return { retry: false };
  // Another server at the base URL, or a method it does not implement: waiting heals neither.
  if (outcome.notTheApi || status === 501) return { retry: false };
  if (retryAfterMs !== undefined && retryAfterMs > policy.retryAfterCapMs) {
    return { retry: false, tooLongMs: retryAfterMs };
  }
  // The owner of the 429 (a bulk job's limiter) sends it again, not the client.
  if (status === 429 && rateLimitOwned) return { retry: false };
  // A 429 was not processed, even for a POST; a 5xx to a POST may have been.
  if ((status === 429 || idempotent) && canRetry) {
    return { retry: true, delayMs: retryAfterMs ?? backoffMs(attempt, policy, random) };
  }
  return { retry: false };
}

/** An HTTP date (RFC 9110: IMF-fixdate, or the obsolete RFC 850 and asctime forms) starts with a day name. */
const HTTP_DATE_START = /^(mon|tue|wed|thu|fri|sat|sun)[a-z]*,? /i;

/** Retry-After in ms (seconds or HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  // Date.parse alone would read "in 5" or "-1" as a date in 2001: no wait at all.
  if (!HTTP_DATE_START.test(v)) return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, t - now);
}
