// What a command that changes the account does when its data cannot be written (stdout full,
// a reader that left): it stops starting new changes, lets those already begun finish, and says
// what was done — how many were made, how many reached stdout, and the rest on stderr (a minted
// link cannot be taken back, so its URL must not be lost). One home for that, so every command
// that changes the account while it prints says it the same way (issue 40).
import { OutputFailed } from '../errors.js';
import type { IO } from '../io.js';

export interface WriteCount<T> {
  /** Items whose text reached stdout (a write that succeeded after they were pulled). */
  written: number;
  /** Items pulled but not written, then those that arrived after the failure. */
  unwritten: T[];
  /** The first failed write, once there was one. */
  failure: OutputFailed | undefined;
}

export interface TrackedWrites<T> {
  /** The IO to render through: it counts the items each successful write carried. */
  io: IO;
  /**
   * The items to render. It has no `return`: a renderer that stops at a failed write leaves the
   * work underneath running, so what is in flight can finish and be counted (`rest`).
   */
  source: AsyncIterable<T>;
  count: WriteCount<T>;
  /**
   * After a failed write: takes what the work still yields (results of changes in flight) into
   * `unwritten`, and returns how the work ended (its error, undefined when it just ended).
   */
  rest(): Promise<unknown>;
}

/**
 * Counts which items of `items` reached stdout through `io`: the items pulled since the last
 * successful write are written once a write succeeds; when a write fails, they are not.
 */
export function trackWrites<T>(io: IO, items: AsyncIterable<T>): TrackedWrites<T> {
  const inner = items[Symbol.asyncIterator]();
  let pending: T[] = [];
  const count: WriteCount<T> = { written: 0, unwritten: [], failure: undefined };
  const tracked = Object.create(io) as IO & { out: IO['out'] };
  tracked.out = async (text: string) => {
    try {
      await io.out(text);
    } catch (e) {
      if (e instanceof OutputFailed && !count.failure) {
        count.failure = e;
        for (const p of pending) count.unwritten.push(p);
        pending = [];
      }
      throw e;
    }
    count.written += pending.length;
    pending = [];
  };
  const source: AsyncIterable<T> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const r = await inner.next();
        if (!r.done) pending.push(r.value);
        return r;
      },
    }),
  };
  return {
    io: tracked,
    source,
    count,
    async rest() {
      for (const p of pending) count.unwritten.push(p);
      pending = [];
      for (;;) {
        let r: IteratorResult<T>;
        try {
          r = await inner.next();
        } catch (e) {
          return e;
        }
        if (r.done) return undefined;
        count.unwritten.push(r.value);
      }
    },
  };
}

/** "was"/"were" after a count. */
function were(n: number): string {
  return n === 1 ? 'was' : 'were';
}

/**
 * The error of a command whose output failed after it made changes: `made` of `noun` were
 * `verb` (e.g. 8 links minted), `written` reached stdout; `rest` are shown under it, one per line.
 */
export function changedThenOutputFailed(
  failure: OutputFailed,
  o: { made: number; noun: [one: string, many: string]; verb: string; written: number },
  rest: { label: string; lines: string[] } | undefined,
): OutputFailed {
  const [one, many] = o.noun;
  const done =
    `${o.made} ${o.made === 1 ? one : many} ${were(o.made)} ${o.verb}; ` +
    `${o.written} ${were(o.written)} written to stdout`;
  const details = rest && rest.lines.length > 0 ? [rest.label, ...rest.lines] : [];
  return failure.afterChange(done, details);
}

/**
 * Runs `write` (the output of one change already made) and, when it fails, says what was done:
 * `done` (e.g. "webhook 0d5c… was deleted"). For commands that make one change, then print it.
 */
export async function writeAfterChange(done: string, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (e) {
    if (e instanceof OutputFailed) throw e.afterChange(done);
    throw e;
  }
}
