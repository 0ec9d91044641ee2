import { describe, expect, it } from 'vitest';
import { BoundedStop, NotStarted, runBounded } from '../../src/bulk/run-bounded.js';

const tick = () => new Promise<void>((r) => setImmediate(r));

/** Tasks that finish when the test says so, to control completion order exactly. */
function controlled() {
  const started: number[] = [];
  const gates = new Map<number, { resolve: (v: string) => void; reject: (e: unknown) => void }>();
  const task = (i: number) =>
    new Promise<string>((resolve, reject) => {
      started.push(i);
      gates.set(i, { resolve, reject });
    });
  return {
    started,
    task,
    finish: (i: number) => gates.get(i)!.resolve(`r${i}`),
    fail: (i: number, e: unknown) => gates.get(i)!.reject(e),
  };
}

async function collect<R>(gen: AsyncGenerator<R>): Promise<{ values: R[]; error?: unknown }> {
  const values: R[] = [];
  try {
    for await (const v of gen) values.push(v);
    return { values };
  } catch (error) {
    return { values, error };
  }
}

describe('runBounded', () => {
  it('yields every result in task order whatever the completion order', async () => {
    const delays = [30, 5, 20, 1, 10, 0, 15, 2];
    const { values } = await collect(
      runBounded(8, (i) => new Promise<number>((r) => setTimeout(() => r(i), delays[i])), {
        concurrency: 3,
      }),
    );
    expect(values).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('never has more than `concurrency` tasks in flight', async () => {
    let inFlight = 0;
    let max = 0;
    const { values } = await collect(
      runBounded(
        50,
        async (i) => {
          inFlight += 1;
          max = Math.max(max, inFlight);
          await tick();
          inFlight -= 1;
          return i;
        },
        { concurrency: 4 },
      ),
    );
    expect(values).toHaveLength(50);
    expect(max).toBe(4);
  });

  it('reads a concurrency function before each start, so it can be lowered mid-run', async () => {
    let limit = 6;
    let inFlight = 0;
    const maxAfterLowering: number[] = [];
    await collect(
      runBounded(
        60,
        async (i) => {
          inFlight += 1;
          if (i === 20) limit = 1;
          if (i > 30) maxAfterLowering.push(inFlight);
          await tick();
          inFlight -= 1;
          return i;
        },
        { concurrency: () => limit },
      ),
    );
    expect(Math.max(...maxAfterLowering)).toBe(1);
  });

  it('yields a result before later tasks finish (streaming)', async () => {
    const c = controlled();
    const gen = runBounded(3, c.task, { concurrency: 3 });
    const first = gen.next();
    await tick();
    expect(c.started).toEqual([0, 1, 2]);
    c.finish(0);
    expect(await first).toEqual({ value: 'r0', done: false });
    c.finish(2);
    c.finish(1);
    expect((await collect(gen)).values).toEqual(['r1', 'r2']);
  });

  it('on a failure: starts nothing more, lets tasks in flight finish, yields every success in order, then BoundedStop', async () => {
    const c = controlled();
    const done = collect(runBounded(10, c.task, { concurrency: 3 }));
    await tick();
    expect(c.started).toEqual([0, 1, 2]);
    c.finish(0);
    await tick();
    expect(c.started).toEqual([0, 1, 2, 3]);
    c.fail(1, new Error('boom'));
    await tick();
    c.finish(3);
    c.finish(2);
    const { values, error } = await done;
    expect(c.started).toEqual([0, 1, 2, 3]);
    expect(values).toEqual(['r0', 'r2', 'r3']);
    expect(error).toBeInstanceOf(BoundedStop);
    const stop = error as BoundedStop;
    expect(stop.aborted).toBe(false);
    expect((stop.error as Error).message).toBe('boom');
    expect([stop.succeeded, stop.failed, stop.notStarted, stop.total]).toEqual([3, 1, 6, 10]);
  });

  it('on abort: starts nothing more, keeps the results of tasks in flight, then BoundedStop(aborted)', async () => {
    const c = controlled();
    const ac = new AbortController();
    const done = collect(runBounded(10, c.task, { concurrency: 2, signal: ac.signal }));
    await tick();
    c.finish(0);
    await tick();
    ac.abort('SIGINT');
    await tick();
    c.finish(2);
    c.finish(1);
    const { values, error } = await done;
    expect(c.started).toEqual([0, 1, 2]);
    expect(values).toEqual(['r0', 'r1', 'r2']);
    const stop = error as BoundedStop;
    expect(stop.aborted).toBe(true);
    expect([stop.succeeded, stop.failed, stop.notStarted]).toEqual([3, 0, 7]);
  });

  it('a signal aborted before the run starts nothing: every task not started', async () => {
    const c = controlled();
    const ac = new AbortController();
    ac.abort('SIGINT');
    const { values, error } = await collect(
      runBounded(5, c.task, { concurrency: 2, signal: ac.signal }),
    );
    expect(c.started).toEqual([]);
    expect(values).toEqual([]);
    expect(error).toMatchObject({ message: 'interrupted', aborted: true, notStarted: 5 });
  });

  it('a task failing with something not an Error stops with it as the message', async () => {
    const c = controlled();
    const done = collect(runBounded(1, c.task, { concurrency: 1 }));
    await tick();
    c.fail(0, 'plain reason');
    const { error } = await done;
    expect(error).toBeInstanceOf(BoundedStop);
    expect(error).toMatchObject({ message: 'plain reason', error: 'plain reason', failed: 1 });
  });

  it('does not run ahead of a slow first task beyond the window', async () => {
    const c = controlled();
    const gen = runBounded(100, c.task, { concurrency: 4, window: 8 });
    const first = gen.next();
    await tick();
    for (let i = 1; i < 4; i++) c.finish(i);
    await tick();
    for (let i = 4; i < 7; i++) c.finish(i);
    await tick();
    c.finish(7);
    await tick();
    // Tasks 1..7 are done but 0 is not: nothing from 8 on may start.
    expect(Math.max(...c.started)).toBe(7);
    c.finish(0);
    expect((await first).value).toBe('r0');
    await gen.return(undefined);
  });

  it('starts nothing more once the consumer stops reading', async () => {
    const c = controlled();
    const gen = runBounded(100, c.task, { concurrency: 2 });
    const first = gen.next();
    await tick();
    c.finish(0);
    await first;
    await gen.return(undefined);
    c.finish(1);
    await tick();
    expect(c.started.length).toBeLessThanOrEqual(3);
  });

  it('a failure of the very last task still ends in BoundedStop', async () => {
    const { values, error } = await collect(
      runBounded(
        3,
        async (i) => {
          if (i === 2) throw new Error('last');
          return i;
        },
        { concurrency: 1 },
      ),
    );
    expect(values).toEqual([0, 1]);
    expect((error as BoundedStop).failed).toBe(1);
    expect((error as BoundedStop).notStarted).toBe(0);
    const one = await collect(
      runBounded(1, () => Promise.reject(new Error('x')), { concurrency: 1 }),
    );
    expect(one.values).toEqual([]);
    expect(one.error).toBeInstanceOf(BoundedStop);
  });

  it('reports progress after each task and handles zero tasks', async () => {
    const seen: number[] = [];
    await collect(
      runBounded(3, async (i) => i, { concurrency: 2, onSettled: (p) => seen.push(p.settled) }),
    );
    expect(seen).toEqual([1, 2, 3]);
    expect((await collect(runBounded(0, async () => 1, { concurrency: 2 }))).values).toEqual([]);
  });
  it('tasks still waiting for a turn when the run stops count as not started, not failed', async () => {
    const ac = new AbortController();
    const gates: Array<() => void> = [];
    const done = collect(
      runBounded(
        10,
        (i, stop) =>
          new Promise<number>((resolve, reject) => {
            // Tasks 0 and 1 "send a request"; the others wait for a turn until stopped.
            if (i < 2) return gates.push(() => resolve(i));
            stop.addEventListener('abort', () => reject(new NotStarted()));
          }),
        { concurrency: 5, signal: ac.signal },
      ),
    );
    await tick();
    ac.abort('SIGINT');
    await tick();
    gates.forEach((g) => g());
    const { values, error } = await done;
    expect(values).toEqual([0, 1]);
    const stop = error as BoundedStop;
    expect(stop).toBeInstanceOf(BoundedStop);
    expect(stop.aborted).toBe(true);
    expect([stop.succeeded, stop.failed, stop.notStarted, stop.total]).toEqual([2, 0, 8, 10]);
  });

  it('the stop signal aborts on the first failure too; NotStarted from a live run is a failure', async () => {
    const signals: AbortSignal[] = [];
    const failed = await collect(
      runBounded(
        4,
        (i, stop) => {
          signals.push(stop);
          return i === 0 ? Promise.reject(new Error('boom')) : new Promise<number>(() => {});
        },
        { concurrency: 1 },
      ),
    );
    expect((failed.error as BoundedStop).failed).toBe(1);
    expect(signals.every((s) => s.aborted)).toBe(true);
    const bogus = await collect(
      runBounded(2, (i) => (i === 1 ? Promise.reject(new NotStarted()) : Promise.resolve(i)), {
        concurrency: 2,
      }),
    );
    expect(bogus.values).toEqual([0]);
    expect((bogus.error as BoundedStop).failed).toBe(1);
    expect((bogus.error as BoundedStop).error).toBeInstanceOf(NotStarted);
  });

  it('onSettled reports successes separately from failures', async () => {
    const seen: Array<[number, number]> = [];
    await collect(
      runBounded(3, async (i) => (i === 1 ? Promise.reject(new Error('x')) : i), {
        concurrency: 1,
        onSettled: (p) => seen.push([p.succeeded, p.failed]),
      }),
    );
    expect(seen).toEqual([
      [1, 0],
      [1, 1],
    ]);
  });
});
