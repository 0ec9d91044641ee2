// The retry decision as a table: every kind of outcome, for each method, at the first and the
// last attempt, with the random source pinned so the backoff is exact.
import { describe, expect, it } from 'vitest';
import {
  RETRY,
  backoffMs,
  decideRetry,
  type AttemptOutcome,
  type HttpMethod,
  type RetryDecision,
  type RetryPolicy,
} from '../../src/api/retry.js';
import type { FailureKind } from '../../src/api/failure.js';

const policy: RetryPolicy = {
  retries: 3,
  baseDelayMs: 250,
  maxDelayMs: 4000,
  retryAfterCapMs: 20_000,
  timeoutRetries: 1,
};
/** random() = 0.5: half the backoff ceiling. */
const half = () => 0.5;
const decide = (
  attempt: number,
  method: HttpMethod,
  outcome: AttemptOutcome,
  timeoutsRetried = 0,
): RetryDecision =>
  decideRetry(attempt, method, outcome, { policy, timeoutsRetried, random: half });

const failed = (failure: FailureKind, notSent: boolean): AttemptOutcome => ({
  kind: 'failed',
  failure,
  notSent,
});
const answered = (status: number, retryAfterMs?: number): AttemptOutcome => ({
  kind: 'answered',
  status,
  retryAfterMs,
});
const RETRY_1 = { retry: true, delayMs: 125 } as const; // half of 250
const NO = { retry: false } as const;

describe('decideRetry: transport failures', () => {
  // [failure, notSent as classify() reports it, GET/DELETE, POST]
  const rows: Array<[FailureKind, boolean, RetryDecision, RetryDecision]> = [
    ['refused', true, RETRY_1, RETRY_1],
    ['connect-timeout', true, RETRY_1, RETRY_1],
    ['dns-temporary', true, RETRY_1, RETRY_1],
    ['reset', false, RETRY_1, NO],
    ['timeout', false, RETRY_1, NO],
    ['cut-off', false, RETRY_1, NO],
    ['other', false, RETRY_1, NO],
    ['dns', true, NO, NO],
    ['tls', true, NO, NO],
    ['proxy', true, NO, NO],
    ['too-large', false, NO, NO],
    ['closed', false, NO, NO],
  ];
  it.each(rows)('%s (notSent %s): GET/DELETE %j, POST %j', (kind, notSent, idem, post) => {
    expect(decide(1, 'GET', failed(kind, notSent))).toEqual(idem);
    expect(decide(1, 'DELETE', failed(kind, notSent))).toEqual(idem);
    expect(decide(1, 'POST', failed(kind, notSent))).toEqual(post);
    // PUT and PATCH (only `sched api` sends them) follow the POST rule.
    expect(decide(1, 'PUT', failed(kind, notSent))).toEqual(post);
    expect(decide(1, 'PATCH', failed(kind, notSent))).toEqual(post);
  });

  it('stops after `retries` retries: attempt 4 is the last', () => {
    expect(decide(3, 'GET', failed('reset', false))).toEqual({ retry: true, delayMs: 500 });
    expect(decide(4, 'GET', failed('reset', false))).toEqual(NO);
    expect(decide(4, 'POST', failed('refused', true))).toEqual(NO);
  });

  it('a timeout is retried once at most, a connect timeout too', () => {
    expect(decide(2, 'GET', failed('timeout', false), 1)).toEqual(NO);
    expect(decide(2, 'POST', failed('connect-timeout', true), 1)).toEqual(NO);
    // Other failures do not count against it.
    expect(decide(2, 'GET', failed('reset', false), 1)).toEqual({ retry: true, delayMs: 250 });
  });
});

describe('decideRetry: answers', () => {
  // [status, Retry-After ms, GET/DELETE, POST]
  const rows: Array<[number, number | undefined, RetryDecision, RetryDecision]> = [
    [200, undefined, NO, NO],
    [204, undefined, NO, NO],
    [301, undefined, NO, NO],
    [400, undefined, NO, NO],
    [401, undefined, NO, NO],
    [404, undefined, NO, NO],
    [409, undefined, NO, NO],
    [422, undefined, NO, NO],
    // 429 was not processed: retried, a POST too; Retry-After wins over the backoff.
    [429, undefined, RETRY_1, RETRY_1],
    [429, 3000, { retry: true, delayMs: 3000 }, { retry: true, delayMs: 3000 }],
    [429, 20_000, { retry: true, delayMs: 20_000 }, { retry: true, delayMs: 20_000 }],
    // Beyond the cap: fail now and say how long the service asked for.
    [429, 20_001, { retry: false, tooLongMs: 20_001 }, { retry: false, tooLongMs: 20_001 }],
    // 5xx: a POST may have been processed, never retried.
    [500, undefined, RETRY_1, NO],
    [502, undefined, RETRY_1, NO],
    [503, 2000, { retry: true, delayMs: 2000 }, NO],
    [503, 60_000, { retry: false, tooLongMs: 60_000 }, { retry: false, tooLongMs: 60_000 }],
  ];
  it.each(rows)('%i (Retry-After %s): GET/DELETE %j, POST %j', (status, after, idem, post) => {
    expect(decide(1, 'GET', answered(status, after))).toEqual(idem);
    expect(decide(1, 'DELETE', answered(status, after))).toEqual(idem);
    expect(decide(1, 'POST', answered(status, after))).toEqual(post);
    expect(decide(1, 'PUT', answered(status, after))).toEqual(post);
    expect(decide(1, 'PATCH', answered(status, after))).toEqual(post);
  });

  it('a 429 whose request has an owner (a bulk limiter) is never retried here', () => {
    const owned = (status: number, after?: number) =>
      decideRetry(1, 'POST', answered(status, after), {
        policy,
        timeoutsRetried: 0,
        random: half,
        rateLimitOwned: true,
      });
    expect(owned(429)).toEqual(NO);
    expect(owned(429, 3000)).toEqual(NO);
    // Beyond the cap: the error still says when to retry.
    expect(owned(429, 20_001)).toEqual({ retry: false, tooLongMs: 20_001 });
    // Only the 429 is handed over; the rest of the policy is unchanged.
    expect(
      decideRetry(1, 'GET', answered(503), {
        policy,
        timeoutsRetried: 0,
        random: half,
        rateLimitOwned: true,
      }),
    ).toEqual(RETRY_1);
  });

  it('no retry after the last attempt, even for a 429', () => {
    expect(decide(4, 'GET', answered(429, 1000))).toEqual(NO);
    expect(decide(4, 'GET', answered(503))).toEqual(NO);
  });
});

describe('backoff', () => {
  it('full jitter: up to base × 2^(n-1), capped at maxDelayMs', () => {
    const top = () => 0.999999;
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, policy, top))).toEqual([
      250, 500, 1000, 2000, 4000, 4000,
    ]);
    expect(backoffMs(3, policy, () => 0)).toBe(0);
  });

  it('the production policy is the documented one', () => {
    expect(RETRY).toEqual(policy);
  });
});
