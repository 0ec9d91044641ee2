// How many requests a bulk job (mint 1000 links, read 2000 pages) has in flight, adapted to
// what the service tolerates — AIMD, as TCP does with its congestion window:
//
// - Every request of the job passes through run(), which admits it only while fewer than
//   `limit` requests are in flight and no pause is in force. Waiters are admitted by
//   priority (their task index), so a request sent back by a 429 goes before later ones.
// - A 429 halves the limit (never below 1) — once per congestion event: the other requests
//   that were already in flight when the first 429 came back belong to the same event, so
//   their 429s do not halve it again. It also pauses new starts: until Retry-After when the
//   service said, else for a short backoff that doubles while 429s keep coming.
// - A request answered 429 was not processed by the service (even a POST), so it goes back
//   to the queue and is sent again when admitted: the job slows down instead of failing.
//   The limiter owns that 429: each attempt hands the request its onRateLimit as the
//   request's rateLimitOwner, so the client tells it and fails the attempt rather than
//   retrying it (src/api/client.ts); every new attempt is admitted here.
// - Each success raises the limit by 1/limit: about +1 per round of `limit` successes, back
//   up to the maximum (--concurrency).
//
// Nothing here knows about commands or output; onChange lets a command show what happens.
import { ApiError } from '../errors.js';
import { RETRY, type RateLimitInfo, type RateLimitOwner } from '../api/client.js';

/** What run() hands to one attempt of a request. */
export interface Attempt {
  /** Pass to the request: aborted with the caller's requestSignal. */
  signal: AbortSignal;
  /** Pass to the request as its rateLimitOwner: the 429 is then this limiter's to resend. */
  onRateLimit: RateLimitOwner;
}

export interface RunOptions {
  /** Stop waiting for a turn: run() then rejects with NotStarted (nothing was processed). */
  signal?: AbortSignal;
  /** Also aborts a request in flight (page reads); leave unset to let requests finish (POSTs). */
  requestSignal?: AbortSignal;
  /** Lower goes first; default: the order of the calls. */
  priority?: number;
}

export interface LimiterOptions {
  /** The most requests in flight (--concurrency); the limit starts here. */
  max: number;
  /**
   * The longest Retry-After honoured by waiting (ms); a longer one fails the request. Default:
   * the client's cap (RETRY.retryAfterCapMs), so a wait is honoured or refused alike.
   */
  maxPauseMs?: number;
  /** Backoff after a 429 without Retry-After: first pause (ms), doubled while 429s go on. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** 429s in a row for one request before it fails. */
  maxRateLimited?: number;
  /** Told when the limit changes or a pause starts (for a note or a progress bar). */
  onChange?: (event: LimiterEvent) => void;
  /** Time and timers; default: the real ones (tests pass a fake to run without waiting). */
  clock?: Clock;
}

/** What the limiter needs of time: tests drive a fake one, deterministically. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Runs fn one event-loop turn later (setImmediate). */
  defer(fn: () => void): void;
  /** In [0, 1), for the backoff's jitter. */
  random(): number;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  defer: (fn) => void setImmediate(fn),
  random: () => Math.random(),
};

export interface LimiterEvent {
  kind: 'decrease' | 'increase' | 'pause';
  limit: number;
  /** For 'pause': how long new starts wait (ms). */
  pauseMs?: number;
}

export interface LimiterStats {
  /** The current limit. */
  limit: number;
  /** The lowest limit reached. */
  minLimit: number;
  inFlight: number;
  /** The most requests in flight at once. */
  maxInFlight: number;
  /** 429 answers seen. */
  rateLimited: number;
  /** Times the limit was halved. */
  decreases: number;
  /** Requests sent again after a 429. */
  resent: number;
}

/** run() rejects with this when its signal aborted before the request could be (re)sent. */
export class NotStarted extends Error {
  constructor() {
    super('not started');
    this.name = 'NotStarted';
  }
}

interface Waiter {
  priority: number;
  seq: number;
  signal: AbortSignal | undefined;
  admit: () => void;
  reject: (e: unknown) => void;
}

export class AdaptiveLimiter {
  readonly max: number;
  private window: number;
  private epoch = 0;
  private pausedUntil = 0;
  private streak = 0;
  private timer: unknown;
  private seq = 0;
  private readonly waiters: Waiter[] = [];
  /**
   * One abort listener per signal that waiters wait with (and how many wait with it), not one
   * per waiter: a bulk job passes one signal to every request, and a listener per waiting
   * request both cost time and tripped Node's MaxListenersExceededWarning at --concurrency 16.
   */
  private readonly watched = new Map<AbortSignal, { waiting: number; onAbort: () => void }>();
  /** Attempts in flight per requestSignal, aborted with it (one listener per signal). */
  private readonly following = new Map<AbortSignal, Set<AbortController>>();
  private readonly opts: Required<Omit<LimiterOptions, 'onChange' | 'clock'>> &
    Pick<LimiterOptions, 'onChange'>;
  private readonly clock: Clock;
  private readonly s: LimiterStats;

  constructor(opts: LimiterOptions) {
    this.max = Math.max(1, Math.floor(opts.max));
    this.window = this.max;
    this.clock = opts.clock ?? realClock;
    this.opts = {
      maxPauseMs: RETRY.retryAfterCapMs,
      backoffBaseMs: 100,
      backoffMaxMs: 5_000,
      maxRateLimited: 10,
      ...opts,
      max: this.max,
    };
    this.s = {
      limit: this.max,
      minLimit: this.max,
      inFlight: 0,
      maxInFlight: 0,
      rateLimited: 0,
      decreases: 0,
      resent: 0,
    };
  }

  get stats(): Readonly<LimiterStats> {
    return { ...this.s };
  }

  /** The requests allowed in flight now. */
  get limit(): number {
    return Math.floor(this.window);
  }

  /**
   * Sends one request (`attempt`) when admitted, and again after each 429, until it gets any
   * other outcome. Rejects with NotStarted when opts.signal aborts while it waits its turn.
   */
  async run<T>(attempt: (a: Attempt) => Promise<T>, opts: RunOptions = {}): Promise<T> {
    const priority = opts.priority ?? this.seq;
    for (let rateLimited = 0; ;) {
      await this.admit(priority, opts.signal);
      const epoch = this.epoch;
      // Follows requestSignal while the attempt runs (not AbortSignal.any: over thousands of
      // pages its bookkeeping measurably raised the peak memory of a long --all read), through
      // one listener per requestSignal for all the attempts in flight.
      const ctl = new AbortController();
      const outer = opts.requestSignal;
      this.follow(outer, ctl);
      let limited: RateLimitInfo | undefined;
      try {
        const value = await attempt({
          signal: ctl.signal,
          onRateLimit: (info) => {
            if (limited) return undefined;
            limited = info;
            this.rateLimited(epoch, info);
            // When it goes again (for --verbose): after the pause, unless it is given up.
            const again = this.resendable(info) && rateLimited + 1 < this.opts.maxRateLimited;
            return again ? Math.max(0, this.pausedUntil - this.clock.now()) : undefined;
          },
        });
        this.release(true);
        return value;
      } catch (e) {
        this.release(false);
        const retryable =
          limited !== undefined && opts.requestSignal?.aborted !== true && this.resendable(limited);
        if (!retryable) throw e;
        rateLimited += 1;
        if (rateLimited >= this.opts.maxRateLimited) {
          throw new ApiError(
            `rate limited (429) ${rateLimited} times in a row on ${limited!.method} ${limited!.path}, even after slowing down to ${this.limit} at a time`,
            { status: 429, hint: 'the service is busy or a quota is used up; try again later' },
          );
        }
        this.s.resent += 1;
      } finally {
        this.unfollow(outer, ctl);
      }
    }
  }

  private resendable(info: RateLimitInfo): boolean {
    return (info.retryAfterMs ?? 0) <= this.opts.maxPauseMs;
  }

  private canStart(): boolean {
    return this.s.inFlight < this.limit && this.clock.now() >= this.pausedUntil;
  }

  private admit(priority: number, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(new NotStarted());
    const seq = this.seq++;
    if (this.waiters.length === 0 && this.canStart()) {
      this.started();
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        priority,
        seq,
        signal,
        admit: () => {
          this.unwatch(signal);
          this.started();
          resolve();
        },
        reject,
      };
      this.watch(signal);
      // Few waiters (at most --concurrency), and tasks come in priority order: the sorted
      // insert almost always appends.
      let at = this.waiters.length;
      while (at > 0 && this.order(this.waiters[at - 1]!, waiter) > 0) at--;
      this.waiters.splice(at, 0, waiter);
      this.pump();
    });
  }

  private follow(outer: AbortSignal | undefined, ctl: AbortController): void {
    if (!outer) return;
    if (outer.aborted) {
      ctl.abort(outer.reason);
      return;
    }
    let set = this.following.get(outer);
    if (!set) {
      const attempts = new Set<AbortController>();
      set = attempts;
      this.following.set(outer, attempts);
      outer.addEventListener(
        'abort',
        () => {
          this.following.delete(outer);
          for (const c of attempts) c.abort(outer.reason);
        },
        { once: true },
      );
    }
    set.add(ctl);
  }

  private unfollow(outer: AbortSignal | undefined, ctl: AbortController): void {
    // The listener stays until the signal aborts or is collected: one per signal, not per attempt.
    if (outer) this.following.get(outer)?.delete(ctl);
  }

  private watch(signal: AbortSignal | undefined): void {
    if (!signal) return;
    const w = this.watched.get(signal);
    if (w) {
      w.waiting += 1;
      return;
    }
    const onAbort = () => this.dropWaiters(signal);
    this.watched.set(signal, { waiting: 1, onAbort });
    signal.addEventListener('abort', onAbort, { once: true });
  }

  private unwatch(signal: AbortSignal | undefined): void {
    const w = signal && this.watched.get(signal);
    if (!w) return;
    w.waiting -= 1;
    if (w.waiting > 0) return;
    this.watched.delete(signal);
    signal.removeEventListener('abort', w.onAbort);
  }

  /** The signal aborted: every waiter that waits with it leaves the queue, not started. */
  private dropWaiters(signal: AbortSignal): void {
    this.watched.delete(signal);
    const dropped = this.waiters.filter((w) => w.signal === signal);
    if (dropped.length === 0) return;
    const kept = this.waiters.filter((w) => w.signal !== signal);
    // In place, without spreading a queue of up to --count waiters into one call's arguments.
    this.waiters.length = 0;
    for (const w of kept) this.waiters.push(w);
    if (this.waiters.length === 0) this.clearTimer();
    for (const w of dropped) w.reject(new NotStarted());
  }

  private order(a: Waiter, b: Waiter): number {
    return a.priority - b.priority || a.seq - b.seq;
  }

  private started(): void {
    this.s.inFlight += 1;
    this.s.maxInFlight = Math.max(this.s.maxInFlight, this.s.inFlight);
  }

  private release(ok: boolean): void {
    // The slot is handed on one event-loop turn later: undici marks its connection free in a
    // microtask after the answer, and a request dispatched before that opens a new
    // connection. Waiting a turn keeps the kept-alive pool at `limit` connections (measured:
    // 13-15 connections for --concurrency 8 without it, 8 with it).
    this.clock.defer(() => {
      this.s.inFlight -= 1;
      this.pump();
    });
    if (ok) {
      this.streak = 0;
      const before = this.limit;
      this.window = Math.min(this.max, this.window + 1 / Math.max(1, before));
      if (this.limit > before) {
        this.s.limit = this.limit;
        this.opts.onChange?.({ kind: 'increase', limit: this.limit });
      }
    }
  }

  private rateLimited(epoch: number, info: RateLimitInfo): void {
    this.s.rateLimited += 1;
    const asked = info.retryAfterMs;
    if (epoch === this.epoch) {
      // The first 429 of this congestion event: requests admitted from now on are a new epoch.
      this.epoch += 1;
      this.streak += 1;
      this.window = Math.max(1, Math.floor(this.window / 2));
      this.s.decreases += 1;
      this.s.limit = this.limit;
      this.s.minLimit = Math.min(this.s.minLimit, this.limit);
      this.opts.onChange?.({ kind: 'decrease', limit: this.limit });
      const wait = asked ?? this.backoff();
      this.pauseFor(wait);
    } else if (asked !== undefined) {
      this.pauseFor(asked);
    }
  }

  private backoff(): number {
    const ceiling = Math.min(
      this.opts.backoffMaxMs,
      this.opts.backoffBaseMs * 2 ** Math.max(0, this.streak - 1),
    );
    // Half fixed, half random: requests of several jobs do not come back in step.
    return Math.round(ceiling / 2 + (this.clock.random() * ceiling) / 2);
  }

  private pauseFor(ms: number): void {
    const wait = Math.min(ms, this.opts.maxPauseMs);
    const until = this.clock.now() + wait;
    if (wait <= 0 || until <= this.pausedUntil) return;
    this.pausedUntil = until;
    this.opts.onChange?.({ kind: 'pause', limit: this.limit, pauseMs: wait });
  }

  private pump(): void {
    this.clearTimer();
    while (this.waiters.length > 0) {
      // One reading of the clock for both the check and the timer: two readings a
      // millisecond apart once left a waiter with neither a turn nor a timer.
      const now = this.clock.now();
      if (now < this.pausedUntil) {
        // Ref'd on purpose: while someone waits for the pause to end, the process must not exit.
        this.timer = this.clock.setTimeout(
          () => {
            this.timer = undefined;
            this.pump();
          },
          this.pausedUntil - now + 1,
        );
        return;
      }
      // Full: the next release pumps again.
      if (this.s.inFlight >= this.limit) return;
      this.waiters.shift()!.admit();
    }
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
