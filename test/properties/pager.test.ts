// The pager (paginate({ all: true }), src/api/paginate.ts, with the adaptive page limiter the
// commands give it, src/bulk/page-walk.ts) against a list server that lies
// about how many pages and items it has, answers out of order and sometimes 429 or fails:
// every item is yielded once, in order — all of them when the page count is not understated
// and nothing failed, else a prefix ending where the walk had to stop.
import { describe, expect, it } from 'vitest';
import { fc } from '../helpers/fc.js';
import { paginate, type FetchPage } from '../../src/api/paginate.js';
import { ApiError, Interrupted } from '../../src/errors.js';
import { adaptivePageLimiter } from '../../src/bulk/page-walk.js';

interface Scenario {
  items: number;
  pageSize: number;
  concurrency: number;
  /** Added to the true page count in every answer (a lie when not 0). */
  pagesLie: number;
  /** The `total` every answer claims. */
  total: number;
  /** Event-loop turns before each answer, by request number (answers come out of order). */
  delays: number[];
  /** 429s each page gets before its answer, by page. */
  rateLimited: number[];
  /** A page that fails for good (500), if any. */
  failing: number | undefined;
}

const scenarios = fc
  .record({
    items: fc.nat({ max: 60 }),
    pageSize: fc.integer({ min: 1, max: 12 }),
    concurrency: fc.integer({ min: 1, max: 6 }),
    pagesLie: fc.integer({ min: -3, max: 3 }),
    total: fc.nat({ max: 100 }),
    delays: fc.array(fc.nat({ max: 4 }), { maxLength: 30 }),
    rateLimited: fc.array(fc.nat({ max: 2 }), { maxLength: 12 }),
    failing: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
  })
  .map((s): Scenario => s);

const turn = () => new Promise<void>((r) => setImmediate(r));

function server(s: Scenario): { fetch: FetchPage<number>; requests: () => number } {
  const truePages = Math.ceil(s.items / s.pageSize);
  const limited = new Map<number, number>();
  let requests = 0;
  const fetch: FetchPage<number> = async (page, limit, signal, onRateLimit) => {
    const n = requests++;
    for (let i = 0; i < (s.delays[n % Math.max(1, s.delays.length)] ?? 0); i++) await turn();
    if ((limited.get(page) ?? 0) < (s.rateLimited[page - 1] ?? 0)) {
      limited.set(page, (limited.get(page) ?? 0) + 1);
      // As the client reports a 429 to its owner: the callback, then the attempt fails with
      // the 429 (the limiter takes over the re-send).
      onRateLimit?.({ method: 'GET', path: '/list', retryAfterMs: 0, attempt: 1 });
      if (signal?.aborted) throw new Interrupted();
      throw new ApiError('rate limited', { status: 429 });
    }
    if (page === s.failing) throw new ApiError('server error', { status: 500 });
    const size = limit ?? s.pageSize;
    const from = (page - 1) * size;
    const items = Array.from(
      { length: Math.max(0, Math.min(size, s.items - from)) },
      (_, i) => from + i,
    );
    return {
      items,
      page,
      pages: Math.max(0, truePages + s.pagesLie),
      total: s.total,
      limit: size,
    };
  };
  return { fetch, requests: () => requests };
}

describe('pager (property)', () => {
  it('each item once and in order, whatever the page size, the lies, the order and the faults', async () => {
    await fc.assert(
      fc.asyncProperty(scenarios, async (s) => {
        const srv = server(s);
        const seen: number[] = [];
        let error: unknown;
        try {
          for await (const item of paginate(srv.fetch, {
            all: true,
            limit: s.pageSize,
            concurrency: s.concurrency,
            limiter: adaptivePageLimiter,
          })) {
            seen.push(item);
          }
        } catch (e) {
          error = e;
        }
        // Once and in order: 0, 1, 2, ... with no gap and no repeat.
        expect(seen).toEqual(seen.map((_, i) => i));
        const truePages = Math.ceil(s.items / s.pageSize);
        const claimed = Math.max(0, truePages + s.pagesLie);
        // Pages the walk waits for: page 1, then 2 .. the claimed count, until an empty one
        // (the page after the last, when the count is overstated) ends it.
        const awaited = s.items === 0 ? 1 : Math.min(Math.max(1, claimed), truePages + 1);
        const failsAt = s.failing !== undefined && s.failing <= awaited ? s.failing : undefined;
        if (failsAt === undefined) {
          expect(error).toBeUndefined();
          expect(seen.length).toBe(Math.min(s.items, awaited * s.pageSize));
        } else {
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).status).toBe(500);
          expect(seen.length).toBe(Math.min(s.items, (failsAt - 1) * s.pageSize));
        }
      }),
    );
  });
});
