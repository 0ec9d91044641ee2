// What a command hands to an `--all` list walk (src/api/paginate.ts): the adaptive limiter, so
// that a 429 halves the pages in flight, waits as the service asks and reads that page again.
import { Interrupted, signalOf } from '../errors.js';
import type { PageLimiter } from '../api/paginate.js';
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
