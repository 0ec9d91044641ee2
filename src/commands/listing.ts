// What every list command (`types list`, `webhooks ls`) does the same way: --page/--limit/--all,
// streaming the pages through the renderer, --quiet values, and the stderr hints ("more pages
// exist", "nothing found"). The command supplies the endpoint walk and its columns.
import type { Context } from '../context.js';
import type { PageOptions } from './define.js';
import type { Paginated } from '../api/paginate.js';
import { forPeople, show, type Column } from '../output/render.js';

export interface PageFlags {
  page: number | undefined;
  limit: number | undefined;
  all: boolean;
}

/** The paging options as the walk takes them (--page with --all is refused by PAGE_GROUP). */
export function pageFlags(flags: PageOptions): PageFlags {
  return { page: flags.page, limit: flags.limit, all: flags.all === true };
}

export interface ListingSpec<T> {
  columns: readonly Column<T>[];
  /** The value --quiet prints, one per line. */
  quietValue: (item: T) => string;
  /** e.g. ['meeting type', 'meeting types'] */
  noun: readonly [string, string];
}

async function* itemPages<T>(listing: Paginated<T>): AsyncGenerator<readonly T[]> {
  for await (const p of listing.pages()) yield p.items;
}

/** Writes the listing (streamed, one write per page) and the hints. */
export async function printListing<T>(
  ctx: Context,
  listing: Paginated<T>,
  flags: PageFlags,
  spec: ListingSpec<T>,
): Promise<void> {
  const { io, globals } = ctx;
  const n = await show(io, globals, {
    records: { pages: itemPages(listing) },
    columns: spec.columns,
    lines: spec.quietValue,
  });

  const { stats } = listing;
  const page = flags.page ?? 1;
  const plural = spec.noun[1];
  if (flags.limit !== undefined && stats.limit !== undefined && stats.limit < flags.limit) {
    io.err(
      io.colorErr.yellow(
        `--limit ${flags.limit}: the service sends at most ${stats.limit} ${plural} per page.`,
      ),
    );
  }
  if (n === 0 && !flags.all && page > 1 && page > stats.pages) {
    io.err(
      io.colorErr.yellow(
        `Page ${page} is past the last page (${stats.pages === 0 ? `there are no ${plural}` : `there ${stats.pages === 1 ? 'is 1 page' : `are ${stats.pages} pages`}`}).`,
      ),
    );
  } else if (n === 0 && forPeople(globals)) {
    io.err(`No ${plural} found.`);
  }
  if (!flags.all && stats.morePages) {
    const of = stats.total !== undefined ? ` (${n} of ${stats.total} ${plural})` : '';
    io.err(
      io.colorErr.dim(
        `Showing page ${page} of ${stats.pages}${of}; use --all for every page, or --page ${page + 1} for the next.`,
      ),
    );
  }
}
