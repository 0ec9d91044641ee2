// The listener's per-request notes on stderr (a 405, a 413, an invalid signature's details, a
// request that failed): anyone who can reach the port can cause them, so a flood of requests
// must not become a flood of stderr. Each kind is said in full the first few times; after that
// only a count, once per interval and once more when the listener stops.

/** How many notes of one kind are written in full before they are only counted. */
export const NOTES_IN_FULL = 5;
/** How often the count of the notes not written is said. */
export const NOTE_COUNT_INTERVAL_MS = 10_000;

export class NoteLimiter {
  private readonly said = new Map<string, number>();
  private readonly held = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (line: string) => void,
    private readonly opts: { inFull?: number; intervalMs?: number } = {},
  ) {}

  /**
   * Writes `lines` (one note, maybe of several lines) unless `kind` was said in full enough
   * times; then it is only counted. `kind` names it in the count: "requests answered 405".
   */
  note(kind: string, lines: string | readonly string[]): void {
    const n = (this.said.get(kind) ?? 0) + 1;
    this.said.set(kind, n);
    if (n <= (this.opts.inFull ?? NOTES_IN_FULL)) {
      for (const line of typeof lines === 'string' ? [lines] : lines) this.write(line);
      if (n === (this.opts.inFull ?? NOTES_IN_FULL)) {
        this.write(`note: further ${kind} are counted, not shown one by one`);
      }
      return;
    }
    this.held.set(kind, (this.held.get(kind) ?? 0) + 1);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.opts.intervalMs ?? NOTE_COUNT_INTERVAL_MS).unref();
  }

  /** Says how many notes of each kind were only counted since the last time; stops the timer. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const [kind, n] of this.held) this.write(`note: ${n} more ${kind}`);
    this.held.clear();
  }
}
