// A virtual clock for code that takes a Clock (src/bulk/limiter.ts): time moves only when the
// test says, timers fire in order of due time, and deferred callbacks (the limiter's "one
// event-loop turn later") run when the test settles. Nothing waits on real time.
import type { Clock } from '../../src/bulk/limiter.js';

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

/** Lets every pending promise callback run (they all run before the next macrotask). */
const drainMicrotasks = () => new Promise<void>((r) => setImmediate(r));

export class FakeClock implements Clock {
  private t = 0;
  private nextId = 1;
  private timers: Timer[] = [];
  private deferred: Array<() => void> = [];
  private seed: number;
  private readonly stepPerRead: number;

  /**
   * stepPerRead: time moves this much on every now() (a clock that ticks between two readings,
   * to make edges between them certain instead of rare).
   */
  constructor(opts: { seed?: number; stepPerRead?: number } = {}) {
    this.seed = opts.seed ?? 1;
    this.stepPerRead = opts.stepPerRead ?? 0;
  }

  now(): number {
    const t = this.t;
    this.t += this.stepPerRead;
    return t;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { id: this.nextId++, at: this.t + Math.max(0, ms), fn };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  defer(fn: () => void): void {
    this.deferred.push(fn);
  }

  /** Deterministic (a small LCG), so a failing run replays the same jitter. */
  random(): number {
    this.seed = (this.seed * 1103515245 + 12345) % 2 ** 31;
    return this.seed / 2 ** 31;
  }

  /** Timers not yet fired. */
  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Runs promise callbacks and deferred callbacks until neither is left; time stands still. */
  async settle(): Promise<void> {
    for (;;) {
      await drainMicrotasks();
      if (this.deferred.length === 0) return;
      for (const fn of this.deferred.splice(0)) fn();
    }
  }

  /** Moves time forward by `ms`, firing each timer due on the way (settling in between). */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await this.settle();
      const next = this.nextDue();
      if (!next || next.at > end) break;
      this.fire(next);
    }
    this.t = end;
    await this.settle();
  }

  /**
   * Settles and fires timers in order until `p` settles; returns its outcome (a rejection is
   * returned, not thrown). Fails when nothing is left that could settle it: a stranded waiter.
   */
  async run<T>(p: Promise<T>): Promise<T | unknown> {
    let done = false;
    const outcome = p.then(
      (v) => ((done = true), v),
      (e: unknown) => ((done = true), e),
    );
    for (;;) {
      await this.settle();
      if (done) return outcome;
      const next = this.nextDue();
      if (!next) throw new Error(`stuck at t=${this.t}: no timer left and the promise is pending`);
      this.fire(next);
    }
  }

  private nextDue(): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers) if (!best || t.at < best.at) best = t;
    return best;
  }

  private fire(timer: Timer): void {
    this.timers.splice(this.timers.indexOf(timer), 1);
    this.t = Math.max(this.t, timer.at);
    timer.fn();
  }
}
