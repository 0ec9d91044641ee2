// Runs many similar tasks (mint 1000 links, delete 200 webhooks) with a bounded number in
// flight, and hands the results back in task order as soon as they are contiguous — so a
// command can print results while later tasks still run, in the order the user asked for.
//
// Stopping: on the first failure, or when the signal aborts (Ctrl-C), no further task is
// started; the tasks already in flight are allowed to finish (a POST in flight may already
// have created something on the server: its result must be printed, not lost), every result
// that succeeded is still yielded in order, and then a BoundedStop says what happened.
//
// A task that waits before doing anything (for its turn in a rate limiter) is handed a signal
// that aborts when the run stops; it may then reject with NotStarted, and it is counted as not
// started rather than failed.
import { messageOf } from '../errors.js';
import { NotStarted } from './limiter.js';

export { NotStarted };

export interface BoundedOptions {
  /**
   * Tasks in flight at most. A function is read before each start, so a caller can lower it
   * while the run goes on (e.g. on 429) and raise it again.
   */
  concurrency: number | (() => number);
  /** When it aborts, no new task starts; tasks in flight finish and their results are kept. */
  signal?: AbortSignal;
  /**
   * How far past the first unfinished task new tasks may start. Bounds the results held for
   * reordering (and the work done ahead of a slow reader). Default: 4 × concurrency, at least 16.
   */
  window?: number;
  /** Called after each task settles, e.g. for a progress indicator. */
  onSettled?: (progress: BoundedProgress) => void;
}

export interface BoundedProgress {
  /** Tasks that ended, however. */
  settled: number;
  succeeded: number;
  failed: number;
  total: number;
}

/** Thrown by runBounded after the results that succeeded were yielded. */
export class BoundedStop extends Error {
  /** The first task error, when a task failed (undefined when only aborted). */
  readonly error: unknown;
  readonly aborted: boolean;
  readonly succeeded: number;
  readonly failed: number;
  readonly notStarted: number;
  readonly total: number;

  constructor(o: {
    error: unknown;
    aborted: boolean;
    succeeded: number;
    failed: number;
    notStarted: number;
    total: number;
  }) {
    super(o.aborted ? 'interrupted' : messageOf(o.error));
    this.name = 'BoundedStop';
    this.error = o.error;
    this.aborted = o.aborted;
    this.succeeded = o.succeeded;
    this.failed = o.failed;
    this.notStarted = o.notStarted;
    this.total = o.total;
  }
}

type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * `task(index, stop)`: `stop` aborts once the run stops (a failure, the signal, or the
 * consumer gone); a task still waiting to begin may then reject with NotStarted.
 */
export async function* runBounded<R>(
  total: number,
  task: (index: number, stop: AbortSignal) => Promise<R>,
  opts: BoundedOptions,
): AsyncGenerator<R, void, undefined> {
  const readLimit =
    typeof opts.concurrency === 'function' ? opts.concurrency : () => opts.concurrency as number;
  const window = opts.window ?? Math.max(16, 4 * readLimit());
  const results = new Map<number, Outcome<R>>();
  let nextStart = 0;
  let nextYield = 0;
  let inFlight = 0;
  let settled = 0;
  let failed = 0;
  let succeeded = 0;
  let done = 0;
  let skipped = 0;
  let firstError: { error: unknown } | undefined;
  let consumerGone = false;
  let wake: (() => void) | undefined;
  const stop = new AbortController();

  const halted = () => consumerGone || firstError !== undefined || opts.signal?.aborted === true;
  const halt = () => {
    if (!stop.signal.aborted) stop.abort();
  };

  const fill = () => {
    while (
      !halted() &&
      nextStart < total &&
      inFlight < Math.max(1, readLimit()) &&
      nextStart < nextYield + window
    ) {
      const index = nextStart++;
      inFlight += 1;
      let p: Promise<R>;
      try {
        p = task(index, stop.signal);
      } catch (e) {
        p = Promise.reject(e);
      }
      p.then(
        (value) => {
          results.set(index, { ok: true, value });
          done += 1;
        },
        (error: unknown) => {
          results.set(index, { ok: false, error });
          // Only a stopped run excuses a task from running; otherwise it is a failure (a
          // result silently missing from the output would be worse).
          if (error instanceof NotStarted && stop.signal.aborted) {
            skipped += 1;
            return;
          }
          failed += 1;
          firstError ??= { error };
          halt();
        },
      ).finally(() => {
        inFlight -= 1;
        settled += 1;
        opts.onSettled?.({ settled, succeeded: done, failed, total });
        fill();
        wake?.();
      });
    }
  };

  const onAbort = () => {
    halt();
    wake?.();
  };
  if (opts.signal?.aborted) halt();
  opts.signal?.addEventListener('abort', onAbort);
  try {
    fill();
    for (;;) {
      let r: Outcome<R> | undefined;
      while ((r = results.get(nextYield)) !== undefined) {
        results.delete(nextYield);
        nextYield += 1;
        if (r.ok) {
          succeeded += 1;
          yield r.value;
          fill();
        }
      }
      if ((nextYield >= total && firstError === undefined && skipped === 0) || total === 0) return;
      if (nextYield >= total || (halted() && inFlight === 0)) {
        // Every started task has settled and been yielded above; the rest never started.
        throw new BoundedStop({
          error: firstError?.error,
          aborted: firstError === undefined,
          succeeded,
          failed,
          notStarted: total - nextStart + skipped,
          total,
        });
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    // Also reached when the consumer stops early (stdout closed): start nothing more.
    consumerGone = true;
    halt();
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
