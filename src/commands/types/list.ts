// sched types list [--page n] [--limit n] [--all] [--sort field[:asc|desc]]...
import type { Context } from '../../context.js';
import type { TypesListOptions } from './inputs.js';
import { pageFlags, printListing } from '../listing.js';
import type { MeetingType } from '../../api/types.js';
import type { Column } from '../../output/render.js';
import { MEETING_TYPE_COLUMNS, nameFilter } from './meeting-types.js';
import type { Paginated } from '../../api/paginate.js';
import { UsageError } from '../../errors.js';

/** The same walk, keeping only the items `keep` accepts (the stats stay the walk's). */
function filtered<T>(walk: Paginated<T>, keep: (t: T) => boolean): Paginated<T> {
  return {
    stats: walk.stats,
    async *pages() {
      for await (const p of walk.pages()) yield { ...p, items: p.items.filter(keep) };
    },
    async *[Symbol.asyncIterator]() {
      for await (const p of this.pages()) yield* p.items;
    },
  };
}

/**
 * The shared columns (TSV and CSV unchanged), laid out for a terminal: names wrap rather
 * than being cut to a few letters next to a whole UUID, and the duration takes 3 columns.
 */
const TERMINAL_LAYOUT: Record<string, Partial<Column<MeetingType>>> = {
  name: { shrink: false, wrap: true, minWidth: 12 },
  duration: { header: 'MIN', align: 'right' },
};
export const COLUMNS: readonly Column<MeetingType>[] = MEETING_TYPE_COLUMNS.map((c) => ({
  ...c,
  ...TERMINAL_LAYOUT[c.key],
}));

export async function run(ctx: Context, flags: TypesListOptions): Promise<void> {
  const paging = pageFlags(flags);
  const sorting = flags.sort ?? [];
  const client = await ctx.api();
  const { meetingTypes } = await import('../../api/endpoints.js');
  const { adaptivePageLimiter } = await import('../../bulk/page-walk.js');
  // The API has no name filter: --name reads every page and keeps the matches.
  if (flags.name !== undefined && flags.page !== undefined) {
    throw new UsageError('--name reads every page: give it without --page', {
      hint: '--limit sets the page size it reads with',
    });
  }
  const walk = meetingTypes(client, {
    ...paging,
    all: paging.all || flags.name !== undefined,
    sorting,
    signal: ctx.signal,
    limiter: adaptivePageLimiter,
  });
  const listing = flags.name === undefined ? walk : filtered(walk, nameFilter(flags.name));
  await printListing(
    ctx,
    listing,
    { ...paging, all: paging.all || flags.name !== undefined },
    {
      columns: COLUMNS,
      // UUIDs, not slugs: they are what every other command and the API accept unambiguously.
      quietValue: (t) => t.uuid,
      noun: ['meeting type', 'meeting types'],
    },
  );
}
