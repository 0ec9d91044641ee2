// The --all walk's limiter: a page still waiting for its turn when the run is stopped fails as
// the interruption it is, with the exit code of the signal that stopped it.
import { describe, expect, it } from 'vitest';
import { adaptivePageLimiter } from '../../src/bulk/page-walk.js';
import { Interrupted } from '../../src/errors.js';

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
});
