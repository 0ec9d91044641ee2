// The adaptive limiter on its own, with scripted attempts: admission, AIMD, pauses, re-sends.
// On a fake clock (test/helpers/fake-clock.ts): time moves only when a test advances it, so
// pauses and backoffs are exact and nothing waits on real time.
import { beforeEach, describe, expect, it } from 'vitest';
import { AdaptiveLimiter, NotStarted, type Attempt } from '../../src/bulk/limiter.js';
import type { RateLimitInfo } from '../../src/api/client.js';
import { ApiError, Interrupted } from '../../src/errors.js';
import { FakeClock } from '../helpers/fake-clock.js';

let clock: FakeClock;
beforeEach(() => {
  clock = new FakeClock();
});
/** Lets started attempts run and freed slots be handed on (the limiter defers that a turn). */
const tick = () => clock.settle();
const settle = () => clock.settle();

const info = (retryAfterMs?: number): RateLimitInfo => ({
  method: 'POST',
  path: '/single-use-link',
  retryAfterMs,
  attempt: 1,
});

/**
 * Attempts that end when the test says: ok, or a 429 the way the client reports one to its
 * owner (the onRateLimit callback, then the attempt's failure).
 */
function scripted() {
  const running: Array<{ id: number; a: Attempt; ok: () => void; limit: (ms?: number) => void }> =
    [];
  let started = 0;
  const attempt = (id: number) => (a: Attempt) =>
    new Promise<string>((resolve, reject) => {
      started += 1;
      const entry = {
        id,
        a,
        ok: () => {
          running.splice(running.indexOf(entry), 1);
          resolve(`r${id}`);
        },
        limit: (ms?: number) => {
          running.splice(running.indexOf(entry), 1);
          a.onRateLimit(info(ms));
          // What the client does when the signal aborts during its retry sleep.
          if (a.signal.aborted) reject(new Interrupted());
          else reject(new ApiError('rate limited', { status: 429 }));
        },
      };
      running.push(entry);
    });
  return {
    running,
    attempt,
    started: () => started,
    ids: () => running.map((r) => r.id),
    find: (id: number) => running.find((r) => r.id === id)!,
  };
}

describe('AdaptiveLimiter', () => {
  it('admits at most `max` at once, then in priority order as slots free up', async () => {
    const lim = new AdaptiveLimiter({ max: 3, clock });
    const s = scripted();
    const results = [5, 4, 3, 2, 1, 0].map((i) => lim.run(s.attempt(i), { priority: i }));
    await tick();
    expect(s.ids()).toEqual([5, 4, 3]);
    s.find(4).ok();
    await settle();
    // 0 is the most urgent of those waiting.
    expect(s.ids()).toEqual([5, 3, 0]);
    for (const id of [5, 3, 0]) s.find(id).ok();
    await settle();
    expect(s.ids()).toEqual([1, 2]);
    s.find(1).ok();
    s.find(2).ok();
    expect(await Promise.all(results)).toEqual(['r5', 'r4', 'r3', 'r2', 'r1', 'r0']);
    expect(lim.stats.maxInFlight).toBe(3);
  });

  it('a 429 halves the limit once per congestion event, and the request is sent again', async () => {
    const lim = new AdaptiveLimiter({ max: 8, backoffBaseMs: 1, backoffMaxMs: 1, clock });
    const s = scripted();
    const results = Array.from({ length: 12 }, (_, i) => lim.run(s.attempt(i), { priority: i }));
    await tick();
    expect(s.ids()).toHaveLength(8);
    // Five requests of the same burst answered 429: one halving, not five.
    for (const id of [3, 4, 5, 6, 7]) s.find(id).limit();
    expect(lim.limit).toBe(4);
    expect(lim.stats).toMatchObject({ decreases: 1, rateLimited: 5, minLimit: 4 });
    await clock.advance(20);
    // 0, 1, 2 still run; one slot is free: the most urgent waiter (3, sent back) goes first.
    expect(s.ids()).toEqual([0, 1, 2, 3]);
    // A 429 on a request admitted after the halving is a new event: halved again.
    s.find(3).limit();
    expect(lim.limit).toBe(2);
    for (;;) {
      await clock.advance(5);
      if (s.running.length === 0) break;
      s.running[0]!.ok();
    }
    const values = await Promise.all(results);
    expect(values).toEqual(Array.from({ length: 12 }, (_, i) => `r${i}`));
    expect(lim.stats.resent).toBe(6);
    expect(s.started()).toBe(12 + 6);
  });

  it('successes raise the limit back, about one per round, up to max', async () => {
    const lim = new AdaptiveLimiter({ max: 4, backoffBaseMs: 1, backoffMaxMs: 1, clock });
    const s = scripted();
    const first = lim.run(s.attempt(0));
    await tick();
    s.find(0).limit();
    expect(lim.limit).toBe(2);
    await clock.advance(10);
    s.find(0).ok();
    await first;
    const seen: number[] = [];
    for (let i = 1; i <= 12; i++) {
      const p = lim.run(s.attempt(i));
      await tick();
      s.find(i).ok();
      await p;
      seen.push(lim.limit);
    }
    expect(seen[seen.length - 1]).toBe(4);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('Retry-After pauses every new start until then', async () => {
    const lim = new AdaptiveLimiter({ max: 4, clock });
    const s = scripted();
    const a = lim.run(s.attempt(0));
    const b = lim.run(s.attempt(1));
    await tick();
    const limitedAt = clock.now();
    s.find(0).limit(120);
    s.find(1).ok();
    const c = lim.run(s.attempt(2));
    await tick();
    // Slots are free, but the pause holds both the re-send and the newcomer.
    expect(s.running).toHaveLength(0);
    while (s.running.length < 2) await clock.advance(10);
    expect(clock.now() - limitedAt).toBeGreaterThanOrEqual(115);
    for (const r of [...s.running]) r.ok();
    expect(await Promise.all([a, b, c])).toEqual(['r0', 'r1', 'r2']);
  });

  it('a Retry-After beyond maxPauseMs is left to the client, whose error stands', async () => {
    const lim = new AdaptiveLimiter({ max: 2, maxPauseMs: 1000, clock });
    const s = scripted();
    const p = lim.run(s.attempt(0));
    await tick();
    const signal = s.find(0).a.signal;
    s.find(0).limit(60_000);
    expect(signal.aborted).toBe(false);
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(lim.stats.resent).toBe(0);
  });

  it('gives up after maxRateLimited 429s in a row for one request', async () => {
    const lim = new AdaptiveLimiter({
      max: 1,
      maxRateLimited: 3,
      backoffBaseMs: 1,
      backoffMaxMs: 1,
      clock,
    });
    const p = lim.run(async (a) => {
      a.onRateLimit(info());
      throw new Interrupted();
    });
    const e = await clock.run(p);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(429);
    expect((e as Error).message).toMatch(/rate limited \(429\) 3 times in a row on POST/);
  });

  it('a pause ending between two clock readings never strands a waiter (regression)', async () => {
    // Found as a 1-in-10 hang with 1 ms pauses. A clock that ticks on every reading makes the
    // edge certain; clock.run() fails when a waiter is left with neither a turn nor a timer.
    for (const stepPerRead of [0, 1, 2]) {
      for (const backoff of [1, 2, 3]) {
        const c = new FakeClock({ stepPerRead });
        const lim = new AdaptiveLimiter({
          max: 1,
          maxRateLimited: 3,
          backoffBaseMs: backoff,
          backoffMaxMs: backoff,
          clock: c,
        });
        const e = await c.run(
          lim.run(async (a) => {
            a.onRateLimit(info());
            throw new Interrupted();
          }),
        );
        expect(e).toBeInstanceOf(ApiError);
      }
    }
  });

  it('NotStarted when its signal aborts while it waits; a request in flight is not touched', async () => {
    const lim = new AdaptiveLimiter({ max: 1, clock });
    const s = scripted();
    const ac = new AbortController();
    const running = lim.run(s.attempt(0), { signal: ac.signal });
    const waiting = lim.run(s.attempt(1), { signal: ac.signal });
    await tick();
    ac.abort();
    await expect(waiting).rejects.toBeInstanceOf(NotStarted);
    expect(s.find(0).a.signal.aborted).toBe(false);
    s.find(0).ok();
    expect(await running).toBe('r0');
    expect(s.started()).toBe(1);
    await expect(lim.run(s.attempt(2), { signal: ac.signal })).rejects.toBeInstanceOf(NotStarted);
  });

  it('requestSignal aborts the attempt in flight, and a 429 then is not re-sent', async () => {
    const lim = new AdaptiveLimiter({ max: 2, clock });
    const ac = new AbortController();
    let seen: AbortSignal | undefined;
    const p = lim.run(
      (a) =>
        new Promise<string>((_resolve, reject) => {
          seen = a.signal;
          a.signal.addEventListener('abort', () => reject(new Interrupted()));
        }),
      { requestSignal: ac.signal, signal: ac.signal },
    );
    await tick();
    ac.abort('SIGINT');
    await expect(p).rejects.toBeInstanceOf(Interrupted);
    expect(seen?.aborted).toBe(true);
    await settle();
    expect(lim.stats.inFlight).toBe(0);
  });
});
