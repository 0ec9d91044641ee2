// What `webhooks add`, `ls` and `rm` share: columns and reading every webhook across pages.
// The checks of a URL and of event names live in src/webhooks/url.ts and event-names.ts.
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/client.js';
import { EVENT_NAMES, isEventName, type Webhook } from '../../api/types.js';
import type { Column } from '../../output/render.js';

/**
 * Events as a table shows them: `all` for every one, else short names (`cancelled`), in the
 * canonical order. Names the CLI does not know are shown as they are.
 */
export function shortEvents(events: unknown): string[] {
  if (!Array.isArray(events)) return [];
  const names = events.map(String);
  if (EVENT_NAMES.every((e) => names.includes(e)) && names.every((n) => isEventName(n))) {
    return ['all'];
  }
  const known = EVENT_NAMES.filter((e) => names.includes(e)).map((e) =>
    e.replace(/^meeting(.)/, (_, c: string) => c.toLowerCase()),
  );
  return [...known, ...names.filter((n) => !isEventName(n))];
}

/**
 * An API time as a table shows it: `2026-11-22 02:15`, in UTC (the header says so), so it
 * reads the same on every machine. Anything unparsable is shown as it came.
 */
export function shortUtcTime(value: unknown): string {
  const s = typeof value === 'string' ? value : '';
  const t = Date.parse(s);
  if (s === '' || Number.isNaN(t)) return s;
  return new Date(t).toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * TSV, CSV and JSON carry the API's values; the terminal table shows events and times
 * compactly, keeps the UUID and the URL whole (people copy them), wraps the events and hides
 * the creation time when the terminal has no room for them, else prints records.
 */
export const WEBHOOK_COLUMNS: readonly Column<Webhook>[] = [
  { key: 'uuid', value: (w) => w.uuid },
  { key: 'url', value: (w) => w.url, style: 'cyan' },
  {
    key: 'events',
    value: (w) => (Array.isArray(w.events) ? w.events : []),
    display: (w) => shortEvents(w.events),
    wrap: true,
    minWidth: 11,
    narrowFirst: true,
  },
  {
    key: 'created_at',
    header: 'CREATED (UTC)',
    value: (w) => w.created_at,
    display: (w) => shortUtcTime(w.created_at),
    style: 'dim',
    optional: true,
  },
];

/** Every webhook of the account, every page read first (for --if-absent, rm --url/--all). */
export async function allWebhooks(ctx: Context, client: ApiClient): Promise<Webhook[]> {
  const [{ webhooks }, { adaptivePageLimiter }, { MAX_HELD_ITEMS }] = await Promise.all([
    import('../../api/endpoints.js'),
    import('../../bulk/page-walk.js'),
    import('../../api/paginate.js'),
  ]);
  const list: Webhook[] = [];
  for await (const w of webhooks(client, {
    all: true,
    signal: ctx.signal,
    limiter: adaptivePageLimiter,
    maxItems: MAX_HELD_ITEMS,
  }))
    list.push(w);
  return list;
}
