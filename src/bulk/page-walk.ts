// What a command hands to an `--all` list walk (src/api/paginate.ts): the adaptive limiter, so
// that a 429 halves the pages in flight, waits as the service asks and reads that page again.
import { Interrupted, signalOf } from '../errors.js';
import { MAX_HELD_ITEMS, type PageLimiter, type PaginateOptions } from '../api/paginate.js';
import { AdaptiveLimiter, NotStarted } from './limiter.js';

export function adaptivePageLimiter(max: number): PageLimiter {
  const limiter = new AdaptiveLimiter({ max });
  return {
    run: (read, opts) =>
      limiter.run(read, opts).catch((e: unknown) => {
        // Waiting for a turn when Ctrl-C came: the same error a request in flight gives.
        if (e instanceof NotStarted) {
          throw new Interrupted('interrupted', {
            signal: signalOf(opts.signal.reason),
          });
        }
        throw e;
      }),
  };
}

/**
 * The options of an `--all` walk its caller holds whole (to look one up, to compare): every
 * page, admitted by the adaptive limiter, stopped past MAX_HELD_ITEMS with one error whose
 * hint is `maxItemsHint`.
 */
export function heldWalk(signal: AbortSignal, maxItemsHint?: string): PaginateOptions {
  return {
    all: true,
    signal,
    limiter: adaptivePageLimiter,
    maxItems: MAX_HELD_ITEMS,
    maxItemsHint,
  };
}
