// The adaptive limiter on its own, with scripted attempts: admission, AIMD, pauses, re-sends.
// On a fake clock (test/helpers/fake-clock.ts): time moves only when a test advances it, so
// pauses and backoffs are exact and nothing waits on real time.
import { beforeEach, describe, expect, it } from 'vitest';
import { type LimiterEvent } from '../../src/bulk/limiter.js';
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
    expect((e as ApiError).hint).toMatch(/try again later/);
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

/** Starts `n` (0..n-1) at once; returns their results. */
const startAll = (lim: AdaptiveLimiter, s: ReturnType<typeof scripted>, ids: number[], opts = {}) =>
  ids.map((i) => lim.run(s.attempt(i), opts));

describe('AdaptiveLimiter: order of admission', () => {
  it('calls without a priority go in the order of the calls, and so do equal priorities', async () => {
    const lim = new AdaptiveLimiter({ max: 1, clock });
    const s = scripted();
    const order: number[] = [];
    const results = [
      ...startAll(lim, s, [0, 1, 2, 3]),
      ...[4, 5, 6].map((i) => lim.run(s.attempt(i), { priority: 100 })),
    ];
    for (;;) {
      await settle();
      if (s.running.length === 0) break;
      order.push(s.running[0]!.id);
      s.running[0]!.ok();
    }
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(await Promise.all(results)).toHaveLength(7);
  });

  it('a request sent back by a 429 goes before a newcomer that comes as the pause ends', async () => {
    const lim = new AdaptiveLimiter({ max: 2, clock });
    const s = scripted();
    const first = lim.run(s.attempt(0), { priority: 0 });
    await tick();
    s.find(0).limit(100);
    expect(lim.limit).toBe(1);
    // The pause is over (its timer has not fired yet) when a later task asks for a turn.
    await clock.advance(100);
    expect(s.ids()).toEqual([]);
    const later = lim.run(s.attempt(5), { priority: 5 });
    await settle();
    expect(s.ids()).toEqual([0]);
    s.find(0).ok();
    await settle();
    expect(s.ids()).toEqual([5]);
    s.find(5).ok();
    expect(await Promise.all([first, later])).toEqual(['r0', 'r5']);
  });

  it('a newcomer during a pause waits for its end, though slots are free', async () => {
    const lim = new AdaptiveLimiter({ max: 4, maxRateLimited: 1, clock });
    const s = scripted();
    const failed = lim.run(s.attempt(0)).catch((e: unknown) => e);
    await tick();
    s.find(0).limit(100);
    expect(await failed).toBeInstanceOf(ApiError);
    await settle();
    const p = lim.run(s.attempt(1));
    await clock.advance(99);
    expect(s.ids()).toEqual([]);
    await clock.advance(2);
    expect(s.ids()).toEqual([1]);
    s.find(1).ok();
    expect(await p).toBe('r1');
  });
});

describe('AdaptiveLimiter: how a 429 slows the pace and how it recovers', () => {
  /** An attempt that answers 429 (with that Retry-After) on its first `n429` tries, then ok. */
  function flaky(n429: number, retryAfterMs?: number) {
    const startedAt: number[] = [];
    const waits: Array<number | undefined> = [];
    const attempt = async (a: Attempt) => {
      startedAt.push(clock.now());
      await Promise.resolve();
      if (startedAt.length <= n429) {
        waits.push(a.onRateLimit(info(retryAfterMs)));
        throw new ApiError('rate limited', { status: 429 });
      }
      return 'done';
    };
    return { attempt, startedAt, waits };
  }

  it('without Retry-After the pause doubles while 429s go on, up to backoffMaxMs', async () => {
    const events: LimiterEvent[] = [];
    const lim = new AdaptiveLimiter({
      max: 1,
      backoffBaseMs: 100,
      backoffMaxMs: 300,
      clock,
      onChange: (e) => events.push(e),
    });
    // The jitter's middle: each pause is 3/4 of its ceiling (half fixed, half random).
    clock.random = () => 0.5;
    const f = flaky(4);
    expect(await clock.run(lim.run(f.attempt))).toBe('done');
    const pauses = events.filter((e) => e.kind === 'pause').map((e) => e.pauseMs);
    expect(pauses).toEqual([75, 150, 225, 225]);
    // Each re-send went out when its pause was over, not before and not much later.
    const gaps = f.startedAt.slice(1).map((t, i) => t - f.startedAt[i]!);
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(pauses[i]!);
      expect(gap).toBeLessThanOrEqual(pauses[i]! + 1);
    });
    // A success ends the streak: the next 429 pauses the shortest time again.
    const g = flaky(1);
    expect(await clock.run(lim.run(g.attempt))).toBe('done');
    expect(events.filter((e) => e.kind === 'pause').map((e) => e.pauseMs)).toEqual([
      75, 150, 225, 225, 75,
    ]);
  });

  it('tells the client when the request goes again (shown by --verbose), or that it does not', async () => {
    const lim = new AdaptiveLimiter({ max: 2, maxPauseMs: 1000, maxRateLimited: 3, clock });
    await clock.advance(5000);
    const asked = flaky(1, 120);
    expect(await clock.run(lim.run(asked.attempt))).toBe('done');
    expect(asked.waits).toEqual([120]);
    // Beyond maxPauseMs: not sent again by the limiter, so no "retrying in".
    const tooLong = flaky(1, 60_000);
    expect(await clock.run(lim.run(tooLong.attempt))).toBeInstanceOf(ApiError);
    expect(tooLong.waits).toEqual([undefined]);
    // The last 429 allowed in a row: given up, so no "retrying in" either.
    const givesUp = flaky(5, 50);
    expect(await clock.run(lim.run(givesUp.attempt))).toBeInstanceOf(ApiError);
    expect(givesUp.waits).toEqual([50, 50, undefined]);
  });

  it('a Retry-After of exactly maxPauseMs is waited for, and the request sent again', async () => {
    const lim = new AdaptiveLimiter({ max: 2, maxPauseMs: 1000, clock });
    const f = flaky(1, 1000);
    expect(await clock.run(lim.run(f.attempt))).toBe('done');
    expect(f.startedAt[1]! - f.startedAt[0]!).toBeGreaterThanOrEqual(1000);
    expect(lim.stats.resent).toBe(1);
  });

  it.each([
    [100, 500],
    [500, 100],
  ])(
    'two 429s of one burst with Retry-After %i and %i: new starts wait for the longer',
    async (first, second) => {
      const lim = new AdaptiveLimiter({ max: 4, clock });
      const s = scripted();
      const results = startAll(lim, s, [0, 1, 2]);
      await tick();
      s.find(0).limit(first);
      s.find(1).limit(second);
      s.find(2).ok();
      await clock.advance(499);
      expect(s.ids()).toEqual([]);
      await clock.advance(2);
      expect(s.ids()).toEqual([0, 1]);
      for (const r of [...s.running]) r.ok();
      expect(await Promise.all(results)).toEqual(['r0', 'r1', 'r2']);
    },
  );

  it('the pause is measured from the 429, whatever the time of day', async () => {
    const lim = new AdaptiveLimiter({ max: 1, clock });
    await clock.advance(10_000);
    const f = flaky(1, 200);
    expect(await clock.run(lim.run(f.attempt))).toBe('done');
    expect(f.startedAt[1]! - f.startedAt[0]!).toBeLessThanOrEqual(201);
  });

  it('successes raise the limit by one per round of `limit` answers, and more go at once', async () => {
    const events: LimiterEvent[] = [];
    const lim = new AdaptiveLimiter({ max: 8, clock, onChange: (e) => events.push(e) });
    await clock.advance(1000);
    const f = flaky(1, 10);
    await clock.run(lim.run(f.attempt));
    // The 429 halved 8 to 4, and the re-sent request's success is the first of this round.
    expect(lim.limit).toBe(4);
    const s = scripted();
    const limits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const p = lim.run(s.attempt(i));
      await tick();
      s.find(i).ok();
      await p;
      limits.push(lim.limit);
    }
    expect(limits).toEqual([4, 4, 5, 5]);
    expect(lim.stats.limit).toBe(5);
    // Told once per change: one decrease, one pause, one increase (no 0 ms pause, no repeats).
    expect(events).toEqual([
      { kind: 'decrease', limit: 4 },
      { kind: 'pause', limit: 4, pauseMs: 10 },
      { kind: 'increase', limit: 5 },
    ]);
    const results = startAll(lim, s, [10, 11, 12, 13, 14, 15, 16, 17]);
    await settle();
    expect(s.running).toHaveLength(5);
    for (;;) {
      await settle();
      if (s.running.length === 0) break;
      s.running[0]!.ok();
    }
    await Promise.all(results);
  });

  it('a Retry-After of 0 or a second 429 asking the same wait starts no new pause', async () => {
    const events: LimiterEvent[] = [];
    const lim = new AdaptiveLimiter({ max: 4, clock, onChange: (e) => events.push(e) });
    await clock.advance(1000);
    const s = scripted();
    const results = startAll(lim, s, [0, 1, 2]);
    await tick();
    s.find(0).limit(0);
    await clock.advance(10);
    s.find(1).limit(100);
    s.find(2).limit(100);
    for (;;) {
      await clock.advance(200);
      if (s.running.length === 0) break;
      s.running[0]!.ok();
    }
    expect(await Promise.all(results)).toEqual(['r0', 'r1', 'r2']);
    expect(events.filter((e) => e.kind === 'pause')).toEqual([
      { kind: 'pause', limit: 2, pauseMs: 100 },
    ]);
  });
});

describe('AdaptiveLimiter: stopping', () => {
  it('a 429 on a request whose requestSignal aborted meanwhile is not sent again', async () => {
    const lim = new AdaptiveLimiter({ max: 2, clock });
    const ac = new AbortController();
    let calls = 0;
    const p = lim.run(
      async (a) => {
        calls += 1;
        if (calls > 1) return 'sent again';
        await Promise.resolve();
        a.onRateLimit(info(50));
        ac.abort('SIGINT');
        throw new Interrupted();
      },
      { requestSignal: ac.signal },
    );
    expect(await clock.run(p)).toBeInstanceOf(Interrupted);
    expect(calls).toBe(1);
  });

  it('a request whose requestSignal already aborted is handed an aborted signal', async () => {
    const lim = new AdaptiveLimiter({ max: 2, clock });
    const ac = new AbortController();
    ac.abort('SIGINT');
    const aborted = await lim.run(async (a) => a.signal.aborted, { requestSignal: ac.signal });
    expect(aborted).toBe(true);
  });

  it('a signal that aborts drops its own waiters only; the others still run, in order', async () => {
    const lim = new AdaptiveLimiter({ max: 1, clock });
    const s = scripted();
    const a = new AbortController();
    const b = new AbortController();
    const head = lim.run(s.attempt(0), { priority: 0 });
    await tick();
    const waiting = [1, 2, 3, 4].map((i) =>
      lim.run(s.attempt(i), { priority: i, signal: i % 2 ? a.signal : b.signal }),
    );
    const outcomes = waiting.map((p) => p.catch((e: unknown) => e));
    // The head is rate limited: everyone waits for the pause when a's tasks are dropped.
    s.find(0).limit(100);
    await settle();
    a.abort();
    expect(await outcomes[0]).toBeInstanceOf(NotStarted);
    expect(await outcomes[2]).toBeInstanceOf(NotStarted);
    const order: number[] = [];
    for (;;) {
      await clock.advance(200);
      if (s.running.length === 0) break;
      order.push(s.running[0]!.id);
      s.running[0]!.ok();
    }
    expect(order).toEqual([0, 2, 4]);
    expect(await head).toBe('r0');
    expect(await outcomes[1]).toBe('r2');
    expect(await outcomes[3]).toBe('r4');
    // Nothing of the dropped ones holds a slot: the limit is whole again.
    expect(lim.stats.inFlight).toBe(0);
  });

  it('waiters with one signal: after some got a turn, an abort still stops the rest', async () => {
    const lim = new AdaptiveLimiter({ max: 1, clock });
    const s = scripted();
    const ac = new AbortController();
    const all = startAll(lim, s, [0, 1, 2, 3], { signal: ac.signal });
    const outcomes = all.map((p) => p.catch((e: unknown) => e));
    await tick();
    s.find(0).ok();
    await settle();
    expect(s.ids()).toEqual([1]);
    ac.abort();
    s.find(1).ok();
    await settle();
    expect(s.started()).toBe(2);
    expect(await Promise.all(outcomes)).toEqual([
      'r0',
      'r1',
      expect.any(NotStarted),
      expect.any(NotStarted),
    ]);
  });

  it('aborting every waiter during a pause leaves no timer (the process can exit at once)', async () => {
    const lim = new AdaptiveLimiter({ max: 1, clock });
    const s = scripted();
    const ac = new AbortController();
    const p = lim.run(s.attempt(0), { signal: ac.signal }).catch((e: unknown) => e);
    await tick();
    s.find(0).limit(15_000);
    await settle();
    expect(clock.pendingTimers).toBe(1);
    ac.abort();
    expect(await p).toBeInstanceOf(NotStarted);
    expect(clock.pendingTimers).toBe(0);
  });

  it('one signal over a long job: no MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const ac = new AbortController();
      const opts = { signal: ac.signal, requestSignal: ac.signal };
      // 16 in flight and 16 waiting at once, all with the same signal.
      const wide = new AdaptiveLimiter({ max: 16, clock });
      const s = scripted();
      const results = startAll(
        wide,
        s,
        Array.from({ length: 32 }, (_, i) => i),
        opts,
      );
      await tick();
      expect(s.running).toHaveLength(16);
      while (s.running.length > 0) {
        for (const r of [...s.running]) r.ok();
        await settle();
      }
      await Promise.all(results);
      // One at a time: the queue empties and fills again, time after time.
      const narrow = new AdaptiveLimiter({ max: 1, clock });
      for (let round = 0; round < 15; round++) {
        const pair = startAll(narrow, s, [100 + 2 * round, 101 + 2 * round], opts);
        for (let k = 0; k < 2; k++) {
          await settle();
          s.running[0]!.ok();
        }
        await Promise.all(pair);
      }
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
  });
});
