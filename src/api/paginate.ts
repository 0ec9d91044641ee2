// Iterates the paged list envelope ({page, limit, pages, total, _embedded: {items}}) of any
// list endpoint. There is no `next` link,
// so it follows `page`/`pages`. One page: fetch it, yield its items, say whether more exist.
// Every page (`all`): page 1 first (it tells how many pages there are), then the rest with a
// few requests in flight, yielded strictly in order; at most `concurrency` pages are held at
// once, so memory stays flat however long the list is. The reads go through the limiter the
// caller passes (src/bulk/page-walk.ts: a 429 halves the pages in flight, waits as the
// service asks, and reads that page again, so a rate-limited walk slows down instead of
// failing); this module holds no scheduling policy of its own.
import { ApiError } from '../errors.js';
import type { RateLimitOwner } from './client.js';

/** Page size for `--all` when the user gave no --limit (a public client uses 50 successfully). */
export const ALL_PAGES_LIMIT = 50;
export const DEFAULT_PAGE_CONCURRENCY = 4;
/**
 * The most pages one walk reads (documented in docs/links.md): a first page announcing more is
 * refused before any other request, so a server claiming a billion pages cannot keep a walk
 * going. 10,000 pages of 50 is half a million items.
 */
export const MAX_PAGES = 10_000;
/**
 * The most items a command holds to act on a whole list (webhooks sync, rm --all/--url, add
 * --if-absent): past it the walk stops, whatever the server announces.
 */
export const MAX_HELD_ITEMS = 10_000;

export interface Page<T> {
  items: T[];
  page: number;
  pages: number;
  total: number | undefined;
  limit: number | undefined;
}

/**
 * Fetches one page; `limit` undefined means the server's default. `rateLimitOwner`, when
 * given, must reach the request (ApiRequest.rateLimitOwner): the limiter then owns its 429s.
 */
export type FetchPage<T> = (
  page: number,
  limit: number | undefined,
  signal: AbortSignal | undefined,
  rateLimitOwner?: RateLimitOwner,
) => Promise<Page<T>>;

/** What one page read gets from the limiter. */
export interface PageAttempt {
  /** Pass to the request: aborted when the walk stops. */
  signal: AbortSignal;
  /** Pass to the request as its rateLimitOwner. */
  onRateLimit?: RateLimitOwner;
}

/**
 * Admits the page reads of an `all` walk, lowest `priority` first, and may read a page again
 * (a 429). When `signal` aborts before a read started, run() must reject with Interrupted.
 */
export interface PageLimiter {
  run<R>(
    read: (a: PageAttempt) => Promise<R>,
    opts: { signal: AbortSignal; requestSignal: AbortSignal; priority: number },
  ): Promise<R>;
}

/** Makes the limiter of one `all` walk, `max` pages in flight at most. */
export type PageLimiterFactory = (max: number) => PageLimiter | Promise<PageLimiter>;

/** Without a limiter: every read starts at once (the walk itself bounds them). */
const unlimited: PageLimiterFactory = () => ({
  run: (read, opts) => read({ signal: opts.requestSignal }),
});

export interface PaginateOptions {
  /** The page to read when not `all` (default 1). */
  page?: number;
  /** With `all`: the first page to read (default 1); the walk goes on from it to the last. */
  from?: number;
  /** Page size; with `all` and no limit, ALL_PAGES_LIMIT. */
  limit?: number;
  all?: boolean;
  /** Pages in flight with `all` (default 4): the most; fewer while the service answers 429. */
  concurrency?: number;
  signal?: AbortSignal;
  /** Names the request in errors, e.g. "GET /webhooks". */
  what?: string;
  /** Admits the reads of an `all` walk; commands pass bulk/'s adaptive one. */
  limiter?: PageLimiterFactory;
  /** With `all`: the walk is held whole by the caller, so it stops past this many items. */
  maxItems?: number;
  /** The hint of the error past maxItems: what the user can do instead. */
  maxItemsHint?: string;
}

export interface PageStats {
  /** Pages fetched so far. */
  pagesRead: number;
  /** Total pages, as the first page answered (0 for an empty list). */
  pages: number;
  total: number | undefined;
  /** True when pages exist beyond those read (for the "use --all or --page N" hint). */
  morePages: boolean;
  /** The page size the service used, as its first page said (it may cap the one asked for). */
  limit?: number | undefined;
}

export interface Paginated<T> extends AsyncIterable<T> {
  /** Filled in as pages arrive; complete once iteration ends. */
  readonly stats: PageStats;
  /** The same walk, one page at a time. */
  pages(): AsyncIterable<Page<T>>;
}

function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v.trim())) return Number(v);
  return undefined;
}

/**
 * Checks an envelope tolerantly (extra fields are fine) and returns its page. `what` names the
 * request for the error, e.g. "GET /webhooks".
 */
export function parseEnvelope<T>(body: unknown, what: string): Page<T> {
  const bad = (why: string) => new ApiError(`unexpected response shape from ${what}: ${why}`);
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw bad(
      Array.isArray(body) ? 'a JSON array instead of the paged envelope' : 'not a JSON object',
    );
  }
  const o = body as Record<string, unknown>;
  const embedded = o._embedded;
  const items =
    embedded && typeof embedded === 'object'
      ? (embedded as Record<string, unknown>).items
      : undefined;
  if (!Array.isArray(items)) throw bad('`_embedded.items` is missing or not a list');
  const page = num(o.page);
  if (page === undefined) throw bad('`page` is missing or not a number');
  const pages = num(o.pages);
  if (pages === undefined) throw bad('`pages` is missing or not a number');
  return { items: items as T[], page, pages, total: num(o.total), limit: num(o.limit) };
}

export function paginate<T>(fetchPage: FetchPage<T>, opts: PaginateOptions = {}): Paginated<T> {
  const stats: PageStats = { pagesRead: 0, pages: 0, total: undefined, morePages: false };
  const concurrency = Math.max(1, opts.concurrency ?? DEFAULT_PAGE_CONCURRENCY);

  async function* walk(): AsyncGenerator<Page<T>> {
    if (!opts.all) {
      const p = await fetchPage(opts.page ?? 1, opts.limit, opts.signal);
      stats.pagesRead = 1;
      stats.pages = p.pages;
      stats.total = p.total;
      stats.limit = p.limit;
      stats.morePages = p.page < p.pages;
      yield p;
      return;
    }
    const limit = opts.limit ?? ALL_PAGES_LIMIT;
    // Our own controller, so that leaving early (an error, or the consumer stops) cancels the
    // pages still in flight.
    const ctl = new AbortController();
    const onAbort = () => ctl.abort(opts.signal?.reason);
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
    const limiter = await (opts.limiter ?? unlimited)(concurrency);
    const read = (n: number): Promise<Page<T>> =>
      limiter.run((a) => fetchPage(n, limit, a.signal, a.onRateLimit), {
        signal: ctl.signal,
        requestSignal: ctl.signal,
        priority: n,
      });
    const what = opts.what ?? 'the API';
    let held = 0;
    /** A page as asked for: no more items than the limit, and not past maxItems in all. */
    const check = (p: Page<T>, n: number) => {
      if (p.items.length > limit) {
        throw new ApiError(
          `unexpected response from ${what}: page ${n} has ${p.items.length} items, more than the ${limit} asked for; stopped`,
        );
      }
      held += p.items.length;
      const max = opts.maxItems;
      if (max !== undefined && (held > max || (p.total ?? 0) > max)) {
        throw new ApiError(
          `${what} lists more than ${max} items; sched reads at most ${max} before acting on a whole list; stopped, nothing was changed`,
          { hint: opts.maxItemsHint },
        );
      }
    };
    try {
      const start = opts.from ?? 1;
      const first = await read(start);
      if (first.pages > MAX_PAGES) {
        throw new ApiError(
          `${what} announced ${first.pages} pages; sched reads at most ${MAX_PAGES} pages of a list; stopped`,
          { hint: 'is the base URL the service? (--base-url, SCHED_BASE_URL or the profile)' },
        );
      }
      check(first, start);
      stats.pagesRead = 1;
      stats.pages = first.pages;
      stats.total = first.total;
      stats.limit = first.limit;
      const last = first.pages;
      yield first;
      if (first.items.length === 0) return;

      const inFlight = new Map<number, Promise<Page<T>>>();
      let next = start + 1;
      const launch = () => {
        while (next <= last && inFlight.size < concurrency) {
          const n = next++;
          const p = read(n);
          // Awaited later, in order; until then a failure must not count as unhandled.
          p.catch(() => {});
          inFlight.set(n, p);
        }
      };
      for (let n = start + 1; n <= last; n++) {
        launch();
        const p = await inFlight.get(n)!;
        inFlight.delete(n);
        if (p.page !== n) {
          throw new ApiError(
            `unexpected response shape from ${opts.what ?? 'the API'}: asked for page ${n} and got page ${p.page} (the list cannot be read page by page)`,
          );
        }
        check(p, n);
        stats.pagesRead++;
        // A list that shrank while we read it ends early instead of asking for empty pages.
        if (p.items.length === 0) return;
        yield p;
      }
    } finally {
      ctl.abort();
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    stats,
    pages: walk,
    async *[Symbol.asyncIterator]() {
      for await (const p of walk()) yield* p.items;
    },
  };
}
