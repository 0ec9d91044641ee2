// `sched sandbox meetings` and `sched sandbox deliveries`: the sandbox's own records for
// scripts, in every record format (--json: arrays of the objects /api/_sandbox answers with).
import type { ApiClient } from '../../api/client.js';
import { parseEnvelope } from '../../api/paginate.js';
import type { Meeting } from '../../api/types.js';
import type { Context } from '../../context.js';
import { ApiError } from '../../errors.js';
import { forPeople, show, type Column } from '../../output/render.js';
import type { DeliveryRecord } from '../../sandbox/deliveries.js';
import { sandboxClient } from './shared.js';

/** The most pages of meetings read (100 each): past it the sandbox is not answering as one. */
const MAX_PAGES = 10_000;

async function allMeetings(ctx: Context, client: ApiClient): Promise<Meeting[]> {
  const out: Meeting[] = [];
  let pages = 1;
  for (let page = 1; page <= pages; page++) {
    const res = await client.request<unknown>({
      method: 'GET',
      path: '/_sandbox/meetings',
      query: [
        ['page', String(page)],
        ['limit', '100'],
      ],
      signal: ctx.signal,
    });
    const p = parseEnvelope<Meeting>(res.body, 'GET /_sandbox/meetings');
    // The walk ends where the first page said it would, whatever later pages claim.
    if (page === 1) pages = Math.min(p.pages, MAX_PAGES);
    for (const m of p.items) out.push(m);
  }
  return out;
}

const MEETING_COLUMNS: readonly Column<Meeting>[] = [
  { key: 'uuid', header: 'MEETING', value: (m) => m.uuid },
  { key: 'state', value: (m) => m.state },
  { key: 'meeting_type', header: 'TYPE', value: (m) => m.event_type?.name, shrink: true },
  { key: 'invitee', value: (m) => m.invitee?.full_name, shrink: true },
  { key: 'email', value: (m) => m.invitee?.email, optional: true },
  { key: 'start', value: (m) => m.scheduled_at },
  { key: 'end', value: (m) => m.end_date, optional: true },
  { key: 'canceled_at', header: 'CANCELED AT', value: (m) => m.canceled_at, optional: true },
];

const DELIVERY_COLUMNS: readonly Column<DeliveryRecord>[] = [
  { key: 'id', value: (d) => d.id, align: 'right' },
  { key: 'event', value: (d) => d.event },
  { key: 'state', value: (d) => d.state },
  { key: 'attempts', value: (d) => d.attempts.length, align: 'right' },
  {
    key: 'last_answer',
    header: 'LAST ANSWER',
    value: (d) => {
      const a = d.attempts.at(-1);
      return a === undefined ? null : a.status !== null ? a.status : a.error;
    },
  },
  { key: 'url', value: (d) => d.url },
  { key: 'webhook_uuid', header: 'WEBHOOK', value: (d) => d.webhook_uuid, optional: true },
  { key: 'meeting_uuid', header: 'MEETING', value: (d) => d.meeting_uuid, optional: true },
  {
    key: 'notification_uuid',
    header: 'NOTIFICATION',
    value: (d) => d.notification_uuid,
    optional: true,
  },
  { key: 'signed', value: (d) => d.signed, optional: true },
];

async function print<T>(
  ctx: Context,
  items: T[],
  columns: readonly Column<T>[],
  quietValue: (item: T) => string,
  plural: string,
): Promise<void> {
  const { io, globals } = ctx;
  const n = await show(io, globals, { records: items, columns, lines: quietValue });
  if (n === 0 && forPeople(globals)) io.err(`No ${plural} found.`);
}

/** sched sandbox meetings */
export async function meetings(ctx: Context, flags: { apiKey?: string }): Promise<void> {
  const client = await sandboxClient(ctx, flags);
  await print(ctx, await allMeetings(ctx, client), MEETING_COLUMNS, (m) => m.uuid, 'meetings');
}

export interface DeliveryFilterFlags {
  event?: string;
  webhook?: string;
  meeting?: string;
}

/** sched sandbox deliveries [--event] [--webhook] [--meeting] */
export async function deliveries(
  ctx: Context,
  flags: { apiKey?: string },
  filter: DeliveryFilterFlags,
): Promise<void> {
  const client = await sandboxClient(ctx, flags);
  const query: Array<[string, string]> = [];
  for (const key of ['event', 'webhook', 'meeting'] as const) {
    if (filter[key] !== undefined) query.push([key, filter[key]]);
  }
  const res = await client.request<unknown>({
    method: 'GET',
    path: '/_sandbox/deliveries',
    query,
    signal: ctx.signal,
  });
  const body = res.body as { items?: unknown };
  if (!body || typeof body !== 'object' || !Array.isArray(body.items)) {
    throw new ApiError(
      `unexpected response shape from the sandbox at ${client.baseUrl}: \`items\` is missing or not a list`,
      { hint: 'is the base URL a `sched sandbox`? (--base-url or SCHED_BASE_URL choose it)' },
    );
  }
  await print(
    ctx,
    body.items as DeliveryRecord[],
    DELIVERY_COLUMNS,
    (d) => String(d.id),
    'deliveries',
  );
}
