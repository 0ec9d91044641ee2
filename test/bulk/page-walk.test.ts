// The --all walk's limiter: a page still waiting for its turn when the run is stopped fails as
// the interruption it is, with the exit code of the signal that stopped it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adaptivePageLimiter } from '../../src/bulk/page-walk.js';
import { ApiError, Interrupted } from '../../src/errors.js';

describe('adaptivePageLimiter', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ])('a page waiting for a turn when %s comes: Interrupted, exit %i', async (signal, exit) => {
    const limiter = await adaptivePageLimiter(1);
    const ac = new AbortController();
    const opts = { signal: ac.signal, requestSignal: ac.signal, priority: 0 };
    let release!: () => void;
    const first = limiter.run(() => new Promise<string>((r) => (release = () => r('p1'))), opts);
    const second = limiter.run(async () => 'p2', { ...opts, priority: 1 });
    const caught = second.catch((e: unknown) => e);
    ac.abort(signal);
    const e = await caught;
    expect(e).toBeInstanceOf(Interrupted);
    expect((e as Interrupted).exitCode).toBe(exit);
    release();
    await first.catch(() => undefined);
  });

  describe('on the real clock', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('Ctrl-C while a 429 pause runs leaves no timer behind: the process exits at once', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'Date'] });
      const limiter = await adaptivePageLimiter(2);
      const ac = new AbortController();
      const read = limiter.run(
        async (a) => {
          a.onRateLimit!({ method: 'GET', path: '/event_types', retryAfterMs: 15_000, attempt: 1 });
          throw new ApiError('rate limited', { status: 429 });
        },
        { signal: ac.signal, requestSignal: ac.signal, priority: 0 },
      );
      const caught = read.catch((e: unknown) => e);
      // The page waits to be read again once the pause is over.
      await vi.advanceTimersByTimeAsync(10);
      expect(vi.getTimerCount()).toBe(1);
      ac.abort('SIGINT');
      expect(await caught).toBeInstanceOf(Interrupted);
      expect(vi.getTimerCount()).toBe(0);
    });
  });
});
