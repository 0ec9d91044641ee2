// sched types list [--page n] [--limit n] [--all] [--sort field[:asc|desc]]...
import type { Context } from '../../context.js';
import type { TypesListOptions } from './inputs.js';
import { pageFlags, printListing } from '../listing.js';
import type { MeetingType } from '../../api/types.js';
import type { Column } from '../../output/render.js';
import { MEETING_TYPE_COLUMNS } from './meeting-types.js';

/**
 * The shared columns (TSV and CSV unchanged), laid out for a terminal: names wrap rather
 * than being cut to a few letters next to a whole UUID, and the duration takes 3 columns.
 */
const TERMINAL_LAYOUT: Record<string, Partial<Column<MeetingType>>> = {
  name: { shrink: false, wrap: true, minWidth: 12 },
  duration: { header: 'MIN', align: 'right' },
};
const COLUMNS: readonly Column<MeetingType>[] = MEETING_TYPE_COLUMNS.map((c) => ({
  ...c,
  ...TERMINAL_LAYOUT[c.key],
}));

export async function run(ctx: Context, flags: TypesListOptions): Promise<void> {
  const paging = pageFlags(flags);
  const sorting = flags.sort ?? [];
  const client = await ctx.api();
  const { meetingTypes } = await import('../../api/endpoints.js');
  const { adaptivePageLimiter } = await import('../../bulk/page-walk.js');
  const listing = meetingTypes(client, {
    ...paging,
    sorting,
    signal: ctx.signal,
    limiter: adaptivePageLimiter,
  });
  await printListing(ctx, listing, paging, {
    columns: COLUMNS,
    // UUIDs, not slugs: they are what every other command and the API accept unambiguously.
    quietValue: (t) => t.uuid,
    noun: ['meeting type', 'meeting types'],
  });
}
