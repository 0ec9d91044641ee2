// Polls until a condition holds — for output a child process or a listener prints after the
// fact. Fails with what it waited for and, when given, what was seen so far.

export interface UntilOptions {
  /** How long to wait (ms); default 10 s, under the per-test timeout. */
  timeoutMs?: number;
  /** Gives up at once when this settles (e.g. the child process that would print it exited). */
  unless?: PromiseLike<unknown>;
}

export async function until(
  pred: () => boolean,
  what: string,
  show?: () => string,
  opts: UntilOptions = {},
): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  let ended = false;
  opts.unless?.then(
    () => (ended = true),
    () => (ended = true),
  );
  for (;;) {
    if (pred()) return;
    if (ended || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const why = ended ? 'it ended first' : 'timed out';
  throw new Error(`${why} waiting for ${what}${show ? `:\n${show()}` : ''}`);
}
