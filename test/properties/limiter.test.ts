// The adaptive limiter (src/bulk/limiter.ts) on a fake clock, with any mix of task lengths,
// priorities, 429s (with and without Retry-After) and failures: never more in flight than
// allowed, and every task run to one outcome — its value, or its own error.
import { describe, expect, it } from 'vitest';
import { fc } from '../helpers/fc.js';
import { AdaptiveLimiter } from '../../src/bulk/limiter.js';
import { ApiError, Interrupted } from '../../src/errors.js';
import { FakeClock } from '../helpers/fake-clock.js';

interface Task {
  /** Fake milliseconds each attempt takes. */
  ms: number;
  /** 429s before the answer, each with its Retry-After (ms) or none. */
  limited: Array<number | undefined>;
  fails: boolean;
  priority: number | undefined;
}

const tasks = fc.array(
  fc.record({
    ms: fc.nat({ max: 50 }),
    limited: fc.array(fc.option(fc.nat({ max: 200 }), { nil: undefined }), { maxLength: 3 }),
    fails: fc.boolean(),
    priority: fc.option(fc.nat({ max: 20 }), { nil: undefined }),
  }),
  { minLength: 1, maxLength: 30 },
);

describe('adaptive limiter (property)', () => {
  it('never more in flight than allowed; every task ends once, with its own outcome', async () => {
    await fc.assert(
      fc.asyncProperty(
        tasks,
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 1000 }),
        async (list: Task[], max, seed) => {
          const clock = new FakeClock({ seed });
          const lim = new AdaptiveLimiter({ max, clock, backoffBaseMs: 10, backoffMaxMs: 80 });
          let active = 0;
          let peak = 0;
          const attempts = list.map(() => 0);
          const outcomes = list.map((t, id) =>
            lim
              .run(
                async (a) => {
                  const n = attempts[id]!++;
                  active += 1;
                  peak = Math.max(peak, active);
                  // Admitted only below the limit in force at that moment.
                  expect(active).toBeLessThanOrEqual(lim.limit);
                  try {
                    await new Promise<void>((r) => clock.setTimeout(r, t.ms));
                    if (n < t.limited.length) {
                      a.onRateLimit({
                        method: 'POST',
                        path: '/x',
                        retryAfterMs: t.limited[n],
                        attempt: 1,
                      });
                      if (a.signal.aborted) throw new Interrupted();
                      throw new ApiError('rate limited', { status: 429 });
                    }
                    if (t.fails) throw new ApiError(`task ${id} failed`, { status: 500 });
                    return id;
                  } finally {
                    active -= 1;
                  }
                },
                { priority: t.priority },
              )
              .then(
                (v) => ({ ok: true as const, v }),
                (e: unknown) => ({ ok: false as const, e }),
              ),
          );
          const results = (await clock.run(Promise.all(outcomes))) as Awaited<
            (typeof outcomes)[number]
          >[];
          expect(peak).toBeLessThanOrEqual(max);
          expect(lim.stats.maxInFlight).toBeLessThanOrEqual(max);
          results.forEach((r, id) => {
            const t = list[id]!;
            // Each 429 was sent again, once: one attempt per 429, plus the answer.
            expect(attempts[id]).toBe(t.limited.length + 1);
            if (t.fails) {
              expect(r.ok).toBe(false);
              expect(!r.ok && (r.e as Error).message).toBe(`task ${id} failed`);
            } else {
              expect(r).toEqual({ ok: true, v: id });
            }
          });
          await clock.settle();
          expect(lim.stats.inFlight).toBe(0);
        },
      ),
    );
  });
});
