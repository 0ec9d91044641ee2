// What `webhooks add`, `ls` and `rm` share: columns and reading every webhook across pages.
// The checks of a URL and of event names live in src/domain/webhooks/url.ts and event-names.ts.
import type { Context } from '../../context.js';
import { ExitCode, QuietExit } from '../../errors.js';
import type { ApiClient } from '../../api/client.js';
import { EVENT_NAMES, isEventName, type Webhook } from '../../api/types.js';
import type { Column } from '../../output/render.js';
import { sanitizeCell } from '../../text/sanitize.js';
import { plural } from '../../text/plural.js';

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
  const [{ webhooks }, { heldWalk }] = await Promise.all([
    import('../../api/endpoints.js'),
    import('../../bulk/page-walk.js'),
  ]);
  const list: Webhook[] = [];
  for await (const w of webhooks(client, heldWalk(ctx.signal))) list.push(w);
  return list;
}

/** What a confirmation lists of one webhook: its UUID, and its URL and events when known. */
export interface ListedWebhook {
  uuid: string;
  webhook?: Webhook;
}

/**
 * The lines a question about deleting webhooks shows (`webhooks rm --all|--url`, a sync that
 * deletes every webhook), within `columns`: one line per webhook whose URL fits beside its UUID
 * (and its events, when they fit too). The UUID is whole (it identifies), and so is the URL:
 * never cut or broken, so it can be copied (the README's promise). A URL too long for the room
 * beside the UUID goes whole on the next line, under it, the events beside the UUID.
 */
export function webhookLines(targets: readonly ListedWebhook[], columns: number): string[] {
  const rows = targets.map((t) => ({
    uuid: t.uuid,
    url: t.webhook ? sanitizeCell(String(t.webhook.url)) : '',
    events: t.webhook ? sanitizeCell(shortEvents(t.webhook.events).join(', ')) : '',
  }));
  const longest = (k: 'uuid' | 'url' | 'events', of = rows) =>
    of.reduce((w, r) => Math.max(w, r[k].length), 0);
  const fixed = 2 + longest('uuid') + 2;
  const fits = (r: { url: string }) => fixed + r.url.length <= columns;
  const inline = rows.filter(fits);
  const urlWidth = longest('url', inline);
  const withEvents = fixed + urlWidth + 2 + longest('events') <= columns;
  return rows.flatMap((r) => {
    if (!fits(r)) return [`  ${r.uuid}  ${r.events}`.trimEnd(), `    ${r.url}`];
    return [`  ${r.uuid}  ${r.url.padEnd(urlWidth)}  ${withEvents ? r.events : ''}`.trimEnd()];
  });
}

/**
 * Shows the webhooks about to be deleted and asks (no is the default). Saying no is a choice,
 * not an error and not an interruption (130 means Ctrl-C): it says `nothingDone` and ends with
 * 1, so `sched webhooks rm --all && next-step` stops.
 */
export async function confirmDeletion(
  ctx: Context,
  targets: readonly ListedWebhook[],
  what: string,
  nothingDone: string,
): Promise<void> {
  const { io } = ctx;
  const n = plural(targets.length, 'webhook');
  io.err(`This deletes ${n} (${what}):`);
  for (const line of webhookLines(targets, io.columns)) io.err(line);
  const prompter = await ctx.prompter();
  if (!(await prompter.confirm(`Delete ${n}?`, { default: false }))) {
    io.err(`Cancelled; ${nothingDone}.`);
    throw new QuietExit(ExitCode.failure);
  }
}
