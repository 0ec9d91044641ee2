import { describe, expect, it } from 'vitest';
import {
  ALL_PAGES_LIMIT,
  MAX_PAGES,
  paginate,
  parseEnvelope,
  type FetchPage,
  type Page,
} from '../../src/api/paginate.js';
import { ApiError } from '../../src/errors.js';
import type { RateLimitInfo } from '../../src/api/client.js';
import { adaptivePageLimiter } from '../../src/bulk/page-walk.js';

/** A fake list of `total` numbered items served `limit` per page, recording calls. */
function fakeList(total: number, opts: { delay?: (page: number) => number } = {}) {
  const calls: Array<{ page: number; limit: number | undefined }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetchPage = async (page: number, limit: number | undefined): Promise<Page<number>> => {
    calls.push({ page, limit });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, opts.delay?.(page) ?? 1));
    inFlight--;
    const size = limit ?? 10;
    const pages = Math.ceil(total / size);
    const items = Array.from(
      { length: Math.max(0, Math.min(size, total - (page - 1) * size)) },
      (_, i) => (page - 1) * size + i,
    );
    return { items, page, pages, total, limit: size };
  };
  return { fetchPage, calls, maxInFlight: () => maxInFlight };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('paginate', () => {
  it('one page: yields its items and says more pages exist', async () => {
    const l = fakeList(25);
    const p = paginate(l.fetchPage, { page: 2 });
    expect(await collect(p)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(l.calls).toEqual([{ page: 2, limit: undefined }]);
    expect(p.stats).toMatchObject({ pagesRead: 1, pages: 3, total: 25, morePages: true });
  });

  it('the last page says no more pages', async () => {
    const l = fakeList(25);
    const p = paginate(l.fetchPage, { page: 3 });
    await collect(p);
    expect(p.stats.morePages).toBe(false);
  });

  it('all: reads every page in order with the default page size of 50', async () => {
    // Later pages answer faster than earlier ones; the order must still hold.
    const l = fakeList(1234, { delay: (page) => (page % 3 === 0 ? 15 : 1) });
    const p = paginate(l.fetchPage, { all: true });
    const items = await collect(p);
    expect(items).toEqual(Array.from({ length: 1234 }, (_, i) => i));
    expect(l.calls[0]).toEqual({ page: 1, limit: ALL_PAGES_LIMIT });
    expect(l.calls.map((c) => c.page).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    expect(p.stats).toMatchObject({ pagesRead: 25, pages: 25, morePages: false });
    expect(l.maxInFlight()).toBeLessThanOrEqual(4);
    expect(l.maxInFlight()).toBeGreaterThan(1);
  });

  it('all: bounded window, never more pages fetched than concurrency ahead of the consumer', async () => {
    const l = fakeList(1000);
    const p = paginate(l.fetchPage, { all: true, limit: 10, concurrency: 3 });
    let seen = 0;
    for await (const x of p) {
      seen++;
      // Each consumed item on page k allows at most pages up to k + 3 to have been requested.
      const page = Math.floor(x / 10) + 1;
      expect(Math.max(...l.calls.map((c) => c.page))).toBeLessThanOrEqual(page + 3);
      if (seen === 35) break;
    }
    expect(l.calls.length).toBeLessThanOrEqual(4 + 3);
  });

  it('all: an empty list is one request', async () => {
    const l = fakeList(0);
    expect(await collect(paginate(l.fetchPage, { all: true }))).toEqual([]);
    expect(l.calls).toHaveLength(1);
  });

  it('all: without a name for the request, the error says "the API"', async () => {
    const fetchPage = async (): Promise<Page<number>> => ({
      items: [1],
      page: 1,
      pages: 2,
      total: undefined,
      limit: undefined,
    });
    await expect(collect(paginate(fetchPage, { all: true }))).rejects.toThrow(
      /unexpected response shape from the API: asked for page 2 and got page 1/,
    );
  });

  it('all: a signal already aborted reaches the first request', async () => {
    const ac = new AbortController();
    ac.abort('SIGINT');
    const seen: Array<boolean | undefined> = [];
    const fetchPage = async (
      _page: number,
      _limit: number | undefined,
      signal?: AbortSignal,
    ): Promise<Page<number>> => {
      seen.push(signal?.aborted);
      throw new Error('interrupted');
    };
    await expect(collect(paginate(fetchPage, { all: true, signal: ac.signal }))).rejects.toThrow(
      'interrupted',
    );
    expect(seen).toEqual([true]);
  });

  it('all: a page answering another page number is an error, not a loop', async () => {
    const fetchPage = async (): Promise<Page<number>> => ({
      items: [1],
      page: 1,
      pages: 3,
      total: 3,
      limit: 1,
    });
    await expect(
      collect(paginate(fetchPage, { all: true, what: 'GET /webhooks' })),
    ).rejects.toThrow(
      /unexpected response shape from GET \/webhooks: asked for page 2 and got page 1/,
    );
  });

  it('all: a failing later page fails the walk (no unhandled rejection) after earlier items', async () => {
    const l = fakeList(100);
    const fetchPage = async (page: number, limit: number | undefined) => {
      if (page === 3) throw new ApiError('boom on page 3');
      return l.fetchPage(page, limit);
    };
    const got: number[] = [];
    await expect(
      (async () => {
        for await (const x of paginate(fetchPage, { all: true, limit: 10 })) got.push(x);
      })(),
    ).rejects.toThrow('boom on page 3');
    expect(got).toHaveLength(20);
  });

  it('all: passes an abort signal that fires when the consumer stops early', async () => {
    // Pages after the first two never answer on their own: only their abort ends them.
    const inFlight: AbortSignal[] = [];
    const fetchPage = (page: number, _l: number | undefined, signal: AbortSignal | undefined) => {
      const p = { items: [page], page, pages: 10, total: 10, limit: 1 };
      if (page <= 2) return Promise.resolve(p);
      inFlight.push(signal!);
      return new Promise<typeof p>((_resolve, reject) =>
        signal!.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    };
    for await (const x of paginate(fetchPage, { all: true })) if (x === 2) break;
    expect(inFlight.length).toBeGreaterThan(0);
    expect(inFlight.every((s) => s.aborted)).toBe(true);
  });
});

/** What a walk ends with: the items it yielded, and the error it failed with (if any). */
async function outcome<T>(it: AsyncIterable<T>): Promise<{ items: T[]; error?: unknown }> {
  const items: T[] = [];
  try {
    for await (const x of it) items.push(x);
  } catch (error) {
    return { items, error };
  }
  return { items };
}

/** A list served by `page(n, limit)`, recording which pages were asked for. */
function served(page: (n: number, limit: number) => Page<number>) {
  const calls: number[] = [];
  const fetchPage: FetchPage<number> = async (n, limit) => {
    calls.push(n);
    await new Promise((r) => setTimeout(r, 1));
    return page(n, limit ?? 10);
  };
  return { fetchPage, calls };
}

/** `size` items on page `n` (numbered from (n - 1) * size), claiming `pages` pages. */
const full = (n: number, size: number, pages: number, total?: number): Page<number> => ({
  items: Array.from({ length: size }, (_, i) => (n - 1) * size + i),
  page: n,
  pages,
  total,
  limit: size,
});

describe('paginate: the walk has an end', () => {
  it('a first page announcing more than the most pages is refused before any other request', async () => {
    const l = served((n, limit) => full(n, limit, MAX_PAGES + 1));
    const r = await outcome(paginate(l.fetchPage, { all: true, what: 'GET /webhooks' }));
    expect(r.error).toBeInstanceOf(ApiError);
    expect((r.error as ApiError).message).toBe(
      `GET /webhooks announced ${MAX_PAGES + 1} pages; sched reads at most ${MAX_PAGES} pages of a list; stopped`,
    );
    expect((r.error as ApiError).hint).toBe(
      'is the base URL the service? (--base-url, SCHED_BASE_URL or the profile)',
    );
    expect((r.error as ApiError).exitCode).toBe(1);
    expect(r.items).toEqual([]);
    expect(l.calls).toEqual([1]);
  });

  it('exactly the most pages is read', async () => {
    const l = served((n, limit) => full(n, limit, MAX_PAGES));
    const got: number[] = [];
    for await (const x of paginate(l.fetchPage, { all: true, limit: 2, concurrency: 1 })) {
      got.push(x);
      if (got.length === 6) break;
    }
    expect(got).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('without a name for the request, the refusal says "the API"', async () => {
    const l = served((n, limit) => full(n, limit, MAX_PAGES + 1));
    const r = await outcome(paginate(l.fetchPage, { all: true }));
    expect((r.error as ApiError).message).toMatch(/^the API announced 10001 pages;/);
  });

  it.each([
    ['the first page', 1],
    ['a later page', 3],
  ])('%s with more items than asked for stops the walk', async (_what, bad) => {
    const l = served((n, limit) => full(n, n === bad ? limit + 1 : limit, 5));
    const r = await outcome(paginate(l.fetchPage, { all: true, limit: 10, what: 'GET /x' }));
    expect(r.error).toBeInstanceOf(ApiError);
    expect((r.error as ApiError).message).toBe(
      `unexpected response from GET /x: page ${bad} has 11 items, more than the 10 asked for; stopped`,
    );
    // Only the pages before the bad one reached the caller.
    expect(r.items).toEqual(Array.from({ length: (bad - 1) * 10 }, (_, i) => i));
  });

  it('a first page that is empty ends the walk, whatever pages it announces', async () => {
    const l = served((n) => (n === 1 ? { ...full(1, 0, 3), total: 0 } : full(n, 10, 3)));
    const p = paginate(l.fetchPage, { all: true, limit: 10 });
    expect(await collect(p)).toEqual([]);
    expect(l.calls).toEqual([1]);
  });
});

describe('paginate: maxItems, the most a caller holds', () => {
  const refusal = (what: string, max: number) =>
    `${what} lists more than ${max} items; sched reads at most ${max} before acting on a whole list; stopped, nothing was changed`;

  it('a list without a total stops once the items read pass the most', async () => {
    // 5 pages of 10, no total: the walk has read 30 when page 3 passes 25.
    const l = served((n, limit) => full(n, limit, 5));
    const p = paginate(l.fetchPage, { all: true, limit: 10, maxItems: 25, what: 'GET /w' });
    const r = await outcome(p);
    expect(r.error).toBeInstanceOf(ApiError);
    expect((r.error as ApiError).message).toBe(refusal('GET /w', 25));
    expect(r.items).toHaveLength(20);
  });

  it('a list of exactly the most items is read whole', async () => {
    const l = served((n, limit) => full(n, limit, 3));
    const p = paginate(l.fetchPage, { all: true, limit: 10, maxItems: 30 });
    expect(await collect(p)).toHaveLength(30);
  });

  it('a total past the most stops at the first page', async () => {
    const l = served((n, limit) => full(n, limit, 3, 31));
    const r = await outcome(paginate(l.fetchPage, { all: true, limit: 10, maxItems: 30 }));
    expect((r.error as ApiError).message).toBe(refusal('the API', 30));
    expect(r.items).toEqual([]);
    expect(l.calls).toEqual([1]);
  });

  it('a total of exactly the most is read whole', async () => {
    const l = served((n, limit) => full(n, limit, 3, 30));
    const p = paginate(l.fetchPage, { all: true, limit: 10, maxItems: 30 });
    expect(await collect(p)).toHaveLength(30);
  });
});

describe("paginate: the caller's signal", () => {
  it('aborted mid-walk, it aborts the pages in flight with its reason', async () => {
    const ac = new AbortController();
    const inFlight: AbortSignal[] = [];
    const fetchPage: FetchPage<number> = (n, _limit, signal) => {
      if (n === 1) return Promise.resolve(full(1, 1, 5));
      inFlight.push(signal!);
      return new Promise((_resolve, reject) =>
        signal!.addEventListener('abort', () => reject(signal!.reason as Error)),
      );
    };
    const seen: number[] = [];
    let error: unknown;
    try {
      for await (const x of paginate(fetchPage, { all: true, limit: 1, signal: ac.signal })) {
        seen.push(x);
        // Stopped (Ctrl-C) while pages 2 and on are in flight.
        setTimeout(() => ac.abort('SIGINT'), 5);
      }
    } catch (e) {
      error = e;
    }
    expect(error).toBe('SIGINT');
    expect(seen).toEqual([0]);
    expect(inFlight.length).toBeGreaterThan(0);
  }, 2_000);

  it('one signal over many walks: no listener is left behind (no leak warning)', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const ac = new AbortController();
      const l = served((n, limit) => full(n, limit, 2));
      for (let i = 0; i < 15; i++) {
        expect(
          await collect(paginate(l.fetchPage, { all: true, limit: 2, signal: ac.signal })),
        ).toEqual([0, 1, 2, 3]);
      }
      // Warnings are emitted on the next tick.
      await new Promise((r) => setTimeout(r, 10));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => w.message)).toEqual([]);
  });
});

// The command's limiter (src/bulk/page-walk.ts), as `types list --all` passes it.
describe('paginate under 429', () => {
  it('all: a rate-limited page is read again and fewer pages are asked for at once', async () => {
    let inFlight = 0;
    let maxBefore = 0;
    const after: number[] = [];
    let limited = false;
    const calls: number[] = [];
    const fetchPage = async (
      page: number,
      limit: number | undefined,
      signal: AbortSignal | undefined,
      onRateLimit?: (info: RateLimitInfo) => void,
    ): Promise<Page<number>> => {
      calls.push(page);
      inFlight++;
      if (limited) after.push(inFlight);
      else maxBefore = Math.max(maxBefore, inFlight);
      try {
        await new Promise((r) => setTimeout(r, 5));
        if (page === 3 && !limited) {
          limited = true;
          // What the client does on a 429 with an owner: tell it, then fail with the 429.
          onRateLimit!({ method: 'GET', path: '/x', retryAfterMs: 10, attempt: 1 });
          throw new ApiError('rate limited', { status: 429 });
        }
        const size = limit ?? 10;
        const items = Array.from({ length: size }, (_, i) => (page - 1) * size + i);
        return { items, page, pages: 30, total: 30 * size, limit: size };
      } finally {
        inFlight--;
      }
    };
    const items = await collect(
      paginate(fetchPage, {
        all: true,
        limit: 2,
        concurrency: 4,
        limiter: adaptivePageLimiter,
      }),
    );
    expect(items).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(calls.filter((p) => p === 3)).toHaveLength(2);
    // Four at once until the 429; fewer right after it (halved, then +1 per round of
    // successes), and back up to four by the end.
    expect(maxBefore).toBe(4);
    expect(Math.max(...after.slice(0, 4))).toBeLessThanOrEqual(3);
    expect(after).toContain(4);
  });
});

describe('parseEnvelope', () => {
  const ok = {
    page: 1,
    limit: 10,
    pages: 2,
    total: 11,
    _embedded: { items: [{ a: 1 }] },
    _links: {},
    extra: true,
  };

  it('accepts extra fields and keeps items as they are', () => {
    expect(parseEnvelope(ok, 'GET /x')).toEqual({
      items: [{ a: 1 }],
      page: 1,
      pages: 2,
      total: 11,
      limit: 10,
    });
  });

  it('takes numbers sent as digit strings', () => {
    expect(parseEnvelope({ ...ok, page: '1', pages: ' 2 ', total: '11' }, 'GET /x')).toEqual({
      items: [{ a: 1 }],
      page: 1,
      pages: 2,
      total: 11,
      limit: 10,
    });
  });

  it.each([
    [{ ...ok, page: '1.5' }, '`page` is missing or not a number'],
    [{ ...ok, _embedded: undefined }, '`_embedded.items` is missing or not a list'],
    [{ ...ok, _embedded: null }, '`_embedded.items` is missing or not a list'],
    [{ ...ok, _embedded: { items: 'x' } }, '`_embedded.items` is missing or not a list'],
    [{ ...ok, pages: 'many' }, '`pages` is missing or not a number'],
    [{ ...ok, page: null }, '`page` is missing or not a number'],
    [[1, 2], 'a JSON array instead of the paged envelope'],
    ['text', 'not a JSON object'],
  ])('rejects %j', (body, why) => {
    expect(() => parseEnvelope(body, 'GET /webhooks')).toThrow(
      `unexpected response shape from GET /webhooks: ${why}`,
    );
  });
});
