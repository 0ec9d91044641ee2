// What happens on the service behind the API: an invitee books a single-use link (a meeting
// is created and the link is spent), a meeting is cancelled or rescheduled — and each of these
// is delivered to every webhook subscribed to the event. The meeting object itself is built by
// src/domain/webhooks/meeting.ts, the same code `sched events sample` uses.
import type { ActionResult, EventName, Meeting } from '../api/types.js';
import { EVENTS } from '../domain/webhooks/events.js';
import { assertTimeZone, buildMeeting } from '../domain/webhooks/meeting.js';
import { SANDBOX_ACTIONS, type ActionRow, type ActionVerb } from './actions.js';
import { freshUuid } from './api.js';
import type { SandboxCore } from './core.js';
import type { DeliveryRecord } from './deliveries.js';
import { httpError, validationError } from './http.js';
import { isoWithOffset } from './seed.js';
import type { LinkRecord, MeetingRecord } from './state.js';

export const DEFAULT_INVITEE = {
  name: 'Jordan Rivera',
  email: 'jordan.rivera@example.com',
  timezone: 'UTC',
} as const;

/** What an action did: the meeting as it is now, and the deliveries it queued. */
export interface ActionOutcome {
  meeting: Meeting;
  deliveries: DeliveryRecord[];
}

/** The JSON the control endpoints answer with (ActionResult in api/types.ts). */
export function actionResult({ meeting, deliveries }: ActionOutcome): ActionResult {
  return {
    meeting,
    notified: deliveries.map((d) => ({
      webhook_uuid: d.webhook_uuid,
      url: d.url,
      event: d.event,
      notification_uuid: d.notification_uuid,
      signed: d.signed,
    })),
  };
}

export interface BookInput {
  name?: unknown;
  email?: unknown;
  /** ISO 8601 with an offset, e.g. 2026-12-01T15:00:00+01:00. */
  at?: unknown;
  /** The invitee's IANA time zone. */
  timezone?: unknown;
  /** Free text: becomes a textarea answer. */
  notes?: unknown;
}

/** ISO 8601 date-time with a mandatory offset (Z or ±hh:mm): a time without one is ambiguous. */
const ISO_WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Parses an ISO 8601 time with an offset; undefined when it is not one or not a real time. */
export function parseIsoWithOffset(value: string): Date | undefined {
  const m = ISO_WITH_OFFSET.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m;
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(h) > 23) return undefined;
  if (Number(mi) > 59 || Number(s ?? 0) > 59) return undefined;
  const date = new Date(value.trim());
  if (Number.isNaN(date.getTime())) return undefined;
  // Date accepts 2026-02-31 as March 3rd; a calendar date that does not exist is an error.
  const back = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (back.getUTCDate() !== Number(d)) return undefined;
  return date;
}

/** What the wall clock in `timeZone` shows at `date` (month 1-12, hour 0-23). */
export function wallClock(date: Date, timeZone: string) {
  const p: Record<string, number> = {};
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  for (const part of f.formatToParts(date)) p[part.type] = Number(part.value);
  return {
    year: p.year!,
    month: p.month!,
    day: p.day!,
    hour: p.hour! % 24,
    minute: p.minute!,
    second: p.second!,
  };
}

/** Milliseconds that `timeZone` is ahead of UTC at `date`. */
function zoneOffsetMs(date: Date, timeZone: string): number {
  const w = wallClock(date, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(date.getTime() / 1000) * 1000;
}

/** The instant when the wall clock in `timeZone` shows the given local time. */
export function zonedTimeToUtc(
  local: { year: number; month: number; day: number; hour: number; minute: number },
  timeZone: string,
): Date {
  const guess = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  let t = guess - zoneOffsetMs(new Date(guess), timeZone);
  // Once more, in case the first guess was on the other side of a DST change.
  t = guess - zoneOffsetMs(new Date(t), timeZone);
  return new Date(t);
}

/** Tomorrow at 10:00 on the invitee's wall clock. */
export function defaultStart(now: Date, timeZone: string): Date {
  const { year, month, day } = wallClock(new Date(now.getTime() + 24 * 3600_000), timeZone);
  return zonedTimeToUtc({ year, month, day, hour: 10, minute: 0 }, timeZone);
}

function optionalString(
  errors: Record<string, string[]>,
  key: string,
  value: unknown,
  max = 255,
): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    errors[key] = ['This value should be of type string.'];
    return undefined;
  }
  if (value.trim() === '') {
    errors[key] = ['This value should not be blank.'];
    return undefined;
  }
  if (value.length > max) {
    errors[key] = [`This value is too long. It should have ${max} characters or less.`];
    return undefined;
  }
  return value.trim();
}

function futureTime(
  core: SandboxCore,
  errors: Record<string, string[]>,
  value: unknown,
): Date | undefined {
  if (typeof value !== 'string') {
    errors.at = ['This value should be of type string.'];
    return undefined;
  }
  const d = parseIsoWithOffset(value);
  if (!d) {
    errors.at = [
      'This value is not a valid ISO 8601 date-time with an offset, e.g. 2026-12-01T15:00:00+01:00.',
    ];
    return undefined;
  }
  if (d.getTime() <= core.now().getTime()) {
    errors.at = ['The start time must be in the future.'];
    return undefined;
  }
  return d;
}

/** Finds a link by its code or by its URL ({public_url}/s/<code>, any host). */
export function findLink(core: SandboxCore, codeOrUrl: string): LinkRecord | undefined {
  let code = codeOrUrl.trim();
  const m = /^https?:\/\/[^/]+(?:\/[^?#]*)?\/s\/([^/?#]+)\/?(?:[?#].*)?$/i.exec(code);
  if (m) code = decodeURIComponent(m[1]!);
  return core.state.links.get(code);
}

/** Queues `event` to every webhook subscribed to it. */
function notify(core: SandboxCore, event: EventName, meeting: Meeting): DeliveryRecord[] {
  return [...core.state.webhooks.values()]
    .filter((w) => w.events.includes(event))
    .map((w) => core.deliveries.enqueue(w, event, meeting));
}

/** Books the link: creates the meeting (state "new"), spends the link, delivers book's event. */
export function bookLink(core: SandboxCore, link: LinkRecord, input: BookInput): ActionOutcome {
  const errors: Record<string, string[]> = {};
  if (link.used_at !== null) {
    throw validationError({
      code: [`The single-use link ${link.code} has already been used.`],
    }).because('link_used');
  }
  const name = optionalString(errors, 'name', input.name) ?? DEFAULT_INVITEE.name;
  const email = optionalString(errors, 'email', input.email) ?? DEFAULT_INVITEE.email;
  if (!errors.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    errors.email = ['This value is not a valid email address.'];
  }
  const timezone =
    optionalString(errors, 'timezone', input.timezone, 64) ?? DEFAULT_INVITEE.timezone;
  if (!errors.timezone) {
    try {
      assertTimeZone(timezone);
    } catch {
      errors.timezone = ['This value is not a valid timezone.'];
    }
  }
  const notes = optionalString(errors, 'notes', input.notes, 5000);
  const start =
    input.at === undefined || input.at === null || input.at === ''
      ? errors.timezone
        ? undefined
        : defaultStart(core.now(), timezone)
      : futureTime(core, errors, input.at);
  if (Object.keys(errors).length > 0) throw validationError(errors);

  const type = core.state.meetingTypesByUuid.get(link.meeting_type_uuid);
  if (!type) throw httpError(404, 'Not found.').because('meeting_type_not_found');
  const meeting = buildMeeting({
    uuid: freshUuid(core, core.state.meetings),
    meetingType: type,
    invitee: { name, email, timezone, locale: 'en' },
    start: start!,
    hostTimezone: core.hostTimezone,
    answers: [
      ...(notes !== undefined
        ? [
            {
              question_label: 'What would you like to discuss?',
              question_type: 'textarea',
              value: notes,
            },
          ]
        : []),
      { question_label: 'I agree to the privacy policy', question_type: 'checkbox', value: 1 },
    ],
  });
  link.used_at = isoWithOffset(core.now());
  link.meeting_uuid = meeting.uuid;
  const record: MeetingRecord = {
    meeting,
    meeting_type_uuid: type.uuid,
    link_code: link.code,
    host_timezone: core.hostTimezone,
  };
  core.state.meetings.set(meeting.uuid, record);
  core.state.changed();
  return { meeting, deliveries: notify(core, SANDBOX_ACTIONS.book.event, meeting) };
}

/** Who cancelled or rescheduled: "invitee" (the default) or "host". */
function actor(errors: Record<string, string[]>, key: string, value: unknown): 'invitee' | 'host' {
  const by = value ?? 'invitee';
  if (by !== 'invitee' && by !== 'host') {
    errors[key] = ['The value you selected is not a valid choice.'];
  }
  return by as 'invitee' | 'host';
}

/**
 * A meeting action (its row in actions.ts): the meeting must exist and not be cancelled; the
 * body may say why (`reason`) and who (`row.meeting.byField`), and gives the new start (`at`)
 * when the action moves the meeting. Its event's `apply` changes the meeting, which is then
 * delivered.
 */
function changeMeeting(
  core: SandboxCore,
  row: ActionRow,
  uuid: string,
  body: Record<string, unknown>,
): ActionOutcome {
  const { refused, byField, moves } = row.meeting!;
  const record = core.state.meetings.get(uuid);
  if (!record) throw httpError(404, 'Not found.').because('meeting_not_found');
  if (record.meeting.canceled_at !== null) {
    throw validationError({ meeting: [refused] }).because('meeting_cancelled');
  }
  const errors: Record<string, string[]> = {};
  let newStart: Date | undefined;
  if (moves && (body.at === undefined || body.at === null || body.at === '')) {
    errors.at = ['This value should not be blank.'];
  } else if (moves) {
    newStart = futureTime(core, errors, body.at);
  }
  const reason = optionalString(errors, 'reason', body.reason, 5000);
  const by = actor(errors, byField, body[byField]);
  if (Object.keys(errors).length > 0) throw validationError(errors);
  const change = { hostTimezone: record.host_timezone, at: core.now(), reason, by, newStart };
  record.meeting = EVENTS[row.event].apply!(record.meeting, change);
  core.state.changed();
  return { meeting: record.meeting, deliveries: notify(core, row.event, record.meeting) };
}

/**
 * Carries out the action `verb` on `target` (a meeting UUID, or a link's code or URL) with the
 * body its control route received or its library method built.
 */
export function performAction(
  core: SandboxCore,
  verb: ActionVerb,
  target: string,
  body: Record<string, unknown>,
): ActionOutcome {
  const row = SANDBOX_ACTIONS[verb];
  if (row.on === 'meeting') return changeMeeting(core, row, target, body);
  const link = findLink(core, target);
  if (!link) {
    throw httpError(404, 'Not found.', { detail: `No single-use link "${target}".` }).because(
      'link_not_found',
    );
  }
  return bookLink(core, link, body);
}
