// sched types list [--page n] [--limit n] [--all] [--sort field[:asc|desc]]...
import type { Context } from '../../context.js';
import type { TypesListOptions } from './inputs.js';
import { UsageError } from '../../errors.js';
import type { SortDirection } from '../../api/endpoints.js';
import { pageFlags, printListing } from '../listing.js';
import type { MeetingType } from '../../api/types.js';
import type { Column } from '../../output/render.js';
import { MEETING_TYPE_COLUMNS } from '../meeting-types.js';
import { quote } from '../../text/quote.js';

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

/** `name`, `name:asc`, `created_at:DESC` → [field, direction]; the direction defaults to asc. */
export function parseSort(spec: string): [string, SortDirection] {
  const at = spec.lastIndexOf(':');
  const field = (at < 0 ? spec : spec.slice(0, at)).trim();
  const dir = (at < 0 ? 'asc' : spec.slice(at + 1)).trim().toLowerCase();
  // Field names are short identifiers; a huge one would only make the request line too long.
  if (!/^[A-Za-z0-9_.]{1,100}$/.test(field)) {
    throw new UsageError(`invalid --sort ${quote(spec)}: expected a field name, e.g. name:asc`);
  }
  if (dir !== 'asc' && dir !== 'desc') {
    throw new UsageError(
      `invalid --sort ${quote(spec)}: the direction must be asc or desc, e.g. ${field}:desc`,
    );
  }
  return [field, dir];
}

export async function run(ctx: Context, flags: TypesListOptions): Promise<void> {
  const paging = pageFlags(flags);
  const sorting = (flags.sort ?? []).map(parseSort);
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
