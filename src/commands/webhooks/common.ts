// What `webhooks add`, `ls` and `rm` share: columns, the local checks of a URL and of event
// names (made before any request), and reading every webhook across pages.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { ApiClient } from '../../api/client.js';
import { EVENT_NAMES, type EventName, type Webhook } from '../../api/types.js';
import type { Column } from '../../output/render.js';
import { quoted } from '../meeting-types.js';

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

function isEventName(n: string): n is EventName {
  return (EVENT_NAMES as readonly string[]).includes(n);
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
 * compactly, keeps the UUID whole, wraps a long URL rather than cutting it, and hides the
 * creation time when an 80-column terminal has no room for it.
 */
export const WEBHOOK_COLUMNS: readonly Column<Webhook>[] = [
  { key: 'uuid', value: (w) => w.uuid },
  { key: 'url', value: (w) => w.url, style: 'cyan', wrap: true, minWidth: 24 },
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

/** Longer than any real endpoint; what browsers and most webhook services accept at most. */
export const MAX_WEBHOOK_URL = 2048;

/**
 * An absolute http(s) URL with a host, no white space, no credentials and at most 2048
 * characters, or a usage error naming `flag`. Credentials are refused because the service
 * shows the URL to anyone who lists the webhooks (and `webhooks ls` prints it into CI logs);
 * the message never repeats them.
 */
export function checkWebhookUrl(raw: string, flag = '--url'): string {
  let u: URL | undefined;
  if (raw !== '' && !/\s/.test(raw)) {
    try {
      u = new URL(raw);
    } catch {
      u = undefined;
    }
  }
  if (u && (u.username || u.password)) {
    u.username = '';
    u.password = '';
    throw new UsageError(`${flag} must not contain a user name or password`, {
      hint: `the service shows webhook URLs to anyone who lists them; use e.g. ${quoted(u.href)} and a signing secret`,
    });
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.hostname === '') {
    throw new UsageError(
      `${flag} must be an absolute http(s) URL without spaces; got ${quoted(raw)}`,
      { hint: 'e.g. https://example.com/hooks/sched' },
    );
  }
  if (raw.length > MAX_WEBHOOK_URL) {
    throw new UsageError(
      `${flag} is ${raw.length} characters long; webhook URLs can have at most ${MAX_WEBHOOK_URL}`,
    );
  }
  return raw;
}

/**
 * Event names from repeated (or comma-separated) --event values: case forgiven, duplicates
 * collapsed, in the canonical order; all three when none given. Unknown names are a usage
 * error listing the allowed ones.
 */
export function parseEvents(values: readonly string[] | undefined): EventName[] {
  // An empty value (`--event ""`, an unset shell variable) is a mistake, not "all events".
  if ((values ?? []).some((v) => v.trim() === '')) {
    throw new UsageError(`--event is empty; allowed: ${EVENT_NAMES.join(', ')}`, {
      hint: 'leave --event out to subscribe to every event',
    });
  }
  const given = (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  if (given.length === 0) return [...EVENT_NAMES];
  const unknown: string[] = [];
  const chosen = new Set<EventName>();
  for (const v of given) {
    const name = EVENT_NAMES.find((e) => e.toLowerCase() === v.toLowerCase());
    if (name) chosen.add(name);
    else unknown.push(quoted(v));
  }
  if (unknown.length > 0) {
    throw new UsageError(`unknown event ${unknown.join(', ')}; allowed: ${EVENT_NAMES.join(', ')}`);
  }
  return EVENT_NAMES.filter((e) => chosen.has(e));
}

/** Every webhook of the account, every page read first (for --if-absent, rm --url/--all). */
export async function allWebhooks(ctx: Context, client: ApiClient): Promise<Webhook[]> {
  const { webhooks } = await import('../../api/endpoints.js');
  const { adaptivePageLimiter } = await import('../../bulk/page-walk.js');
  const list: Webhook[] = [];
  for await (const w of webhooks(client, {
    all: true,
    signal: ctx.signal,
    limiter: adaptivePageLimiter,
  }))
    list.push(w);
  return list;
}
