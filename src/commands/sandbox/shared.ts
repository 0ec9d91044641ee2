// What `sched sandbox book|cancel|reschedule` share: finding the running sandbox, calling its
// control endpoints, turning its answers into clear errors, and printing the meeting and the
// webhooks that were notified.
import type { ApiClient } from '../../api/client.js';
import type { ActionResult } from '../../api/types.js';
import type { Context } from '../../context.js';
import { ApiError, NotFoundError, UsageError } from '../../errors.js';
import { show, type Column } from '../../output/render.js';
import { writeAfterChange } from '../../output/unwritten.js';
import { sanitizeCell } from '../../text/sanitize.js';
import { quote } from '../../text/quote.js';
import { DEFAULT_SANDBOX_API_KEY, DEFAULT_SANDBOX_BASE_URL } from '../../defaults.js';
// The booking page's own reading of a wall-clock time, so `book --at` means what the page means.
import { zonedTimeToUtc } from '../../sandbox/meetings.js';
import { accountCommand, type Invocation } from '../../text/hints.js';

interface DeliveryView {
  notification_uuid: string;
  url: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: Array<{ attempt: number; status: number | null; error: string | null }>;
}

/** ISO 8601 date and time, the offset optional (a booking page's datetime-local has none). */
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * Checks --at locally, so a typo is exit 2 before anything is sent: the shape, then that the
 * date and the time exist (`2026-02-30` is no date, not a missing offset). A time without an
 * offset is read as the booking page reads it: on the wall clock of `localZone` (the invitee's
 * time zone); without `localZone` an offset is required.
 */
export function checkIsoTime(value: string, flag = '--at', localZone?: string): string {
  const v = value.trim();
  const m = ISO_TIME.exec(v);
  const example = `e.g. ${flag} 2026-12-01T15:00:00+01:00 or ${flag} 2026-12-01T14:00:00Z`;
  if (!m) {
    throw new UsageError(
      `${flag} ${quote(value)} is not an ISO 8601 time${localZone === undefined ? ' with an offset' : ''}`,
      {
        hint:
          localZone === undefined
            ? example
            : `${example}, or a local time such as ${flag} 2026-12-01T15:00 (with --timezone)`,
      },
    );
  }
  const [, y, mo, d, h, mi, sec, offset] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12) {
    throw new UsageError(`${flag} ${quote(value)}: there is no month ${mo}`, { hint: example });
  }
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > days) {
    throw new UsageError(
      `${flag} ${quote(value)}: there is no such date (${MONTHS[month - 1]} ${y} has ${days} days)`,
      { hint: example },
    );
  }
  if (Number(h) > 23 || Number(mi) > 59 || Number(sec ?? 0) > 59) {
    throw new UsageError(`${flag} ${quote(value)}: there is no such time of day`, {
      hint: example,
    });
  }
  if (offset !== undefined) {
    if (Number.isNaN(Date.parse(v))) {
      throw new UsageError(`${flag} ${quote(value)} has an offset that is not one`, {
        hint: example,
      });
    }
    return v;
  }
  if (localZone === undefined) {
    throw new UsageError(`${flag} ${quote(value)} has no offset: say which time zone it is in`, {
      hint: example,
    });
  }
  return zonedTimeToUtc({ year, month, day, hour: Number(h), minute: Number(mi) }, localZone)
    .toISOString()
    .replace(/\.000Z$/, 'Z');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where to find a UUID of each kind: commands of the sandbox or account the invocation names. */
const UUID_HINTS = {
  meeting: (inv: Invocation) =>
    `\`${accountCommand(inv)`sched sandbox book`}\` prints the UUID of the meeting it creates; \`${accountCommand(inv)`sched sandbox meetings`}\` lists them`,
  webhook: (inv: Invocation) =>
    `\`${accountCommand(inv)`sched webhooks ls`}\` lists the webhooks with their UUIDs`,
} as const;

/** A meeting or webhook UUID given on the command line, checked locally (exit 2). */
export function checkUuid(
  value: string,
  what: keyof typeof UUID_HINTS,
  inv: Invocation = {},
): string {
  const v = value.trim();
  if (!UUID.test(v)) {
    throw new UsageError(`${quote(value)} is not a ${what} UUID`, { hint: UUID_HINTS[what](inv) });
  }
  return v.toLowerCase();
}

/**
 * The client for the sandbox to talk to. --base-url / SCHED_BASE_URL win; else a link URL
 * names its sandbox; else the profile's base URL; else the default sandbox address.
 *
 * The key: --api-key when given. Else the account's key (SCHED_API_KEY or the profile's) only
 * when the sandbox is on the configured base URL's origin; a sandbox anywhere else (a link
 * URL's host, 127.0.0.1:4010 when the real service is configured) gets the documented
 * sandbox key, never the account's.
 */
export async function sandboxClient(
  ctx: Context,
  flags: { apiKey?: string },
  linkUrl?: URL,
): Promise<ApiClient> {
  if (flags.apiKey !== undefined && flags.apiKey.trim() === '') {
    throw new UsageError('--api-key must not be empty');
  }
  // The key command of a profile runs only if the account's key is the one to send.
  const creds = await ctx.credentials({ runKeyCommand: false });
  const explicit = creds.baseUrlSource === 'flag' || creds.baseUrlSource === 'env';
  const target = explicit
    ? creds.baseUrl
    : linkUrl
      ? `${linkUrl.origin}/api`
      : creds.baseUrlSource === 'profile'
        ? creds.baseUrl
        : DEFAULT_SANDBOX_BASE_URL;
  const configured = new URL(target).origin === new URL(creds.baseUrl).origin;
  const account = async () => (await ctx.credentials()).apiKey;
  const key = flags.apiKey ?? (configured ? await account() : undefined) ?? DEFAULT_SANDBOX_API_KEY;
  return ctx.apiFor(target, key, { sayOverrides: explicit });
}

/**
 * Checks the answer of a control call before anything reads it: a server that is not the
 * sandbox (or a broken proxy) answering 2xx with another body is one clear error, not a crash.
 */
function checkActionResult(body: unknown, client: ApiClient): ActionResult {
  const bad = (why: string) =>
    new ApiError(`unexpected response shape from the sandbox at ${client.baseUrl}: ${why}`, {
      hint: 'is the base URL a `sched sandbox`? (--base-url or SCHED_BASE_URL choose it)',
    });
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(body)) throw bad('not a JSON object');
  if (!isObject(body.meeting) || typeof body.meeting.uuid !== 'string') {
    throw bad('`meeting.uuid` is missing');
  }
  if (!Array.isArray(body.notified) || !body.notified.every(isObject)) {
    throw bad('`notified` is missing or not a list of objects');
  }
  return body as unknown as ActionResult;
}

/** Re-words the client's typed errors for a sandbox control call. */
function controlError(e: unknown, client: ApiClient, notFound: string): unknown {
  if (e instanceof NotFoundError) {
    return new NotFoundError(notFound, {
      hint: `is ${client.baseUrl} the sandbox that has it? (--base-url or SCHED_BASE_URL choose it)`,
    });
  }
  if (e instanceof UsageError && e.code === 'invalid_request') {
    // The sandbox's own field messages say it best ("…has already been used.").
    const [first, ...rest] = e.details;
    if (first) {
      return new UsageError(first.replace(/^\w+: /, ''), { details: rest, hint: e.hint });
    }
  }
  return e;
}

/**
 * POSTs to a sandbox control endpoint and checks the answer; a 404 becomes `notFound`, the
 * sandbox's field messages become the error line.
 */
export async function callControl(
  ctx: Context,
  client: ApiClient,
  path: string,
  body: Record<string, string>,
  notFound: string,
): Promise<ActionResult> {
  try {
    const res = await client.request<ActionResult>({
      method: 'POST',
      path,
      body,
      signal: ctx.signal,
    });
    return checkActionResult(res.body, client);
  } catch (e) {
    throw controlError(e, client, notFound);
  }
}

/** A string field of a nested object the API may leave null. */
function field(obj: Record<string, unknown> | null | undefined, key: string): string | undefined {
  const v = obj?.[key];
  return typeof v === 'string' ? v : undefined;
}

/**
 * TSV and CSV keep the original eight columns; the terminal field list also shows what the
 * action changed (terminalOnly, and only when set): the cancellation, or the previous start.
 */
const COLUMNS: readonly Column<ActionResult>[] = [
  { key: 'uuid', header: 'MEETING', value: (r) => r.meeting.uuid },
  { key: 'state', value: (r) => r.meeting.state },
  {
    key: 'canceled_at',
    header: 'CANCELED AT',
    value: (r) => r.meeting.canceled_at,
    terminalOnly: true,
  },
  {
    key: 'canceled_by',
    header: 'CANCELED BY',
    value: (r) => field(r.meeting.cancellation, 'canceled_by'),
    terminalOnly: true,
  },
  {
    key: 'reason',
    value: (r) => field(r.meeting.cancellation, 'reason'),
    style: 'yellow',
    terminalOnly: true,
  },
  { key: 'meeting_type', header: 'TYPE', value: (r) => r.meeting.event_type?.name, shrink: true },
  { key: 'invitee', value: (r) => r.meeting.invitee?.full_name, shrink: true },
  { key: 'email', value: (r) => r.meeting.invitee?.email },
  { key: 'start', value: (r) => r.meeting.scheduled_at },
  {
    key: 'invitee_time',
    header: 'INVITEE TIME',
    value: (r) => r.meeting.pretty_scheduled_at_in_invitee_timezone,
    shrink: true,
  },
  {
    key: 'previous_start',
    header: 'PREVIOUS START',
    value: (r) => field(r.meeting.rescheduling, 'previous_scheduled_at'),
    style: 'dim',
    terminalOnly: true,
  },
  { key: 'notified', header: 'WEBHOOKS', value: (r) => r.notified.map((n) => n.url) },
];

/** Waits briefly for each delivery's first answer, so the user sees what the receivers said. */
async function firstAnswers(
  ctx: Context,
  client: ApiClient,
  result: ActionResult,
): Promise<Map<string, DeliveryView>> {
  const wanted = new Set(result.notified.map((n) => n.notification_uuid));
  const seen = new Map<string, DeliveryView>();
  const deadline = Date.now() + 3000;
  while (!ctx.signal.aborted) {
    try {
      const res = await client.request<{ items: DeliveryView[] }>({
        method: 'GET',
        path: '/_sandbox/deliveries',
        query: [['meeting', result.meeting.uuid]],
        signal: ctx.signal,
      });
      for (const d of res.body.items ?? []) {
        if (wanted.has(d.notification_uuid)) seen.set(d.notification_uuid, d);
      }
    } catch {
      return seen; // The answer is nice to have; the action itself already succeeded.
    }
    const answered = [...wanted].every((id) => (seen.get(id)?.attempts.length ?? 0) > 0);
    if (answered || Date.now() > deadline) return seen;
    await new Promise((r) => setTimeout(r, 100));
  }
  return seen;
}

function describeDelivery(d: DeliveryView | undefined): string {
  const last = d?.attempts[d.attempts.length - 1];
  if (!d || !last) return 'sent, no answer yet';
  const answer = last.status !== null ? `HTTP ${last.status}` : `no answer (${last.error})`;
  if (d.state === 'delivered') return answer;
  return d.state === 'failed' ? `${answer}, gave up` : `${answer}, retrying`;
}

/** Prints the result: the meeting (stdout) and the notified webhooks with their answers (stderr). */
export async function printResult(
  ctx: Context,
  client: ApiClient,
  verb: string,
  result: ActionResult,
): Promise<void> {
  const { io, globals } = ctx;
  // The action is done: a stdout that fails says so ("Booked meeting <uuid>" -> "booked ...").
  // JSON prints the meeting alone; the other formats the result; -q the meeting's UUID.
  await writeAfterChange(`${verb.charAt(0).toLowerCase()}${verb.slice(1)} in the sandbox`, () =>
    show(io, globals, {
      records: [result],
      one: true,
      columns: COLUMNS,
      document: () => result.meeting,
      lines: (r) => r.meeting.uuid,
    }),
  );
  if (globals.quiet) return;
  const event = result.notified[0]?.event;
  if (result.notified.length === 0) {
    io.err(`${verb}.`);
    io.err('Nothing was delivered: no webhook is subscribed to this event.');
    return;
  }
  const answers = await firstAnswers(ctx, client, result);
  // Short lines and an aligned list read better on an 80-column terminal than one long line.
  io.err(`${verb}.`);
  io.err(
    `${event} sent to ${result.notified.length} webhook${result.notified.length === 1 ? '' : 's'}:`,
  );
  const urls = result.notified.map((n) => sanitizeCell(String(n.url)));
  const urlWidth = urls.reduce((w, u) => Math.max(w, u.length), 0);
  const signWidth = result.notified.some((n) => !n.signed) ? 8 : 6;
  result.notified.forEach((n, i) => {
    const d = answers.get(n.notification_uuid);
    const signed = (n.signed ? 'signed' : 'unsigned').padEnd(signWidth);
    io.err(`  ${urls[i]!.padEnd(urlWidth)}  ${signed}  ${describeDelivery(d)}`.trimEnd());
  });
}
