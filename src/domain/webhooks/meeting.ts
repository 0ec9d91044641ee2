// Pure construction of the meeting object that a delivery carries as `data`, in the
// shapes the real service produces (see test/fixtures/real-delivery.json). Shared by
// `sched events sample|send` and the sandbox, which books, cancels and reschedules with it.
// Nothing here does I/O or reads the clock unless a time is omitted.
import { randomUUID } from 'node:crypto';
import type { Answer, Invitee, Meeting, MeetingEventType } from '../../api/types.js';
import { quote } from '../../text/quote.js';

/** The meeting type a meeting is booked through. Fields beyond name/slug/duration default. */
export interface MeetingTypeInput {
  name: string;
  slug: string;
  /** Minutes. */
  duration: number;
  description?: string | null;
  location?: string | null;
  location_label?: string | null;
  is_secret?: boolean;
  confirmation_page_type?: string;
  confirmation_page_url?: string | null;
  notification_type?: string;
  pass_details_to_redirected_page?: boolean;
  type?: string;
  position?: number;
}

export interface InviteeInput {
  /** Full name, e.g. "Ada Lovelace". */
  name: string;
  email: string;
  /** IANA time-zone name; default "UTC". */
  timezone?: string;
  /** Language code; default "en". */
  locale?: string;
  /** Default: the first word of `name`. */
  firstName?: string;
  phoneNumber?: string | null;
}

export interface BuildMeetingInput {
  /** Default: a fresh UUID v4. */
  uuid?: string;
  meetingType: MeetingTypeInput;
  invitee: InviteeInput;
  /** Start of the meeting: a Date or an ISO 8601 string. Sub-second parts are dropped. */
  start: Date | string;
  /** Minutes; default the meeting type's duration. */
  duration?: number;
  /** Default: the meeting type's location, else "". */
  location?: string;
  answers?: Answer[];
  /** IANA time zone of the host (the account owner); default "UTC". */
  hostTimezone?: string;
  /** Default "new" (the only value the service is known to send, for a scheduled meeting). */
  state?: string;
  notes?: string | null;
  details?: string | null;
  payment?: Record<string, unknown> | null;
}

/** What happened to a meeting (cancelled, moved, …): what an event's `apply` is given. */
export interface MeetingChange {
  /** The host's time zone, for the pretty times (the meeting object does not record it). */
  hostTimezone: string;
  /** When it happened; default now. */
  at?: Date | string;
  reason?: string | null;
  /** Who did it; default "invitee". */
  by?: 'invitee' | 'host';
  /** The new start, when the meeting moves (its duration is kept). */
  newStart?: Date | string;
}

/** The `cancellation` object of a cancelled meeting (its shape is undocumented; this one is ours). */
export interface Cancellation {
  canceled_by: 'invitee' | 'host';
  reason: string | null;
  created_at: string;
  [extra: string]: unknown;
}

/** The `rescheduling` object of a rescheduled meeting (its shape is undocumented; this one is ours). */
export interface Rescheduling {
  rescheduled_by: 'invitee' | 'host';
  reason: string | null;
  created_at: string;
  previous_scheduled_at: string;
  previous_end_date: string;
  previous_pretty_scheduled_at: string;
  previous_pretty_scheduled_at_in_invitee_timezone: string;
  [extra: string]: unknown;
}

function toDate(value: Date | string, what: string): Date {
  const d = typeof value === 'string' ? new Date(value) : new Date(value.getTime());
  if (Number.isNaN(d.getTime()))
    throw new RangeError(`${what} is not a valid time: ${quote(String(value))}`);
  d.setUTCMilliseconds(0);
  return d;
}

/** "2022-02-18T07:00:00+00:00": the service writes UTC with an explicit offset, no fraction. */
export function isoWithOffset(value: Date | string): string {
  return toDate(value, 'time')
    .toISOString()
    .replace(/\.\d{3}Z$/, '+00:00');
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(date: Date, timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone,
        weekday: 'long',
        year: 'numeric',
        month: 'long',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
    } catch {
      throw new RangeError(`unknown time zone ${quote(timeZone)}`);
    }
    formatters.set(timeZone, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(date)) p[part.type] = part.value;
  // Composed from parts rather than f.format(): ICU versions differ in separators (", " vs
  // " at ") and in the space before AM/PM (U+202F), and the service's text is fixed.
  return {
    date: `${p.weekday}, ${p.month} ${p.day}, ${p.year}`,
    hour: Number(p.hour) % 24,
    minute: p.minute!, // formatToParts always gives the minute asked for
  };
}

/** Host style, 24-hour: "Friday, February 18, 2022 08:00". */
export function prettyHostTime(value: Date | string, timeZone: string): string {
  const p = partsIn(toDate(value, 'time'), timeZone);
  return `${p.date} ${String(p.hour).padStart(2, '0')}:${p.minute}`;
}

/** Invitee style, 12-hour: "Friday, February 18, 2022 at 8:00 AM". */
export function prettyInviteeTime(value: Date | string, timeZone: string): string {
  const p = partsIn(toDate(value, 'time'), timeZone);
  const h12 = p.hour % 12 === 0 ? 12 : p.hour % 12;
  return `${p.date} at ${h12}:${p.minute} ${p.hour < 12 ? 'AM' : 'PM'}`;
}

/** Throws a RangeError naming the zone when it is not a known IANA time zone. */
export function assertTimeZone(timeZone: string): void {
  partsIn(new Date(0), timeZone);
}

function eventTypeOf(t: MeetingTypeInput): MeetingEventType {
  // Only the documented event_type fields: a sandbox meeting type carries a uuid and more, which the
  // service does not put into event_type.
  return {
    name: t.name,
    location: t.location ?? null,
    location_label: t.location_label ?? null,
    description: t.description ?? null,
    duration: t.duration,
    slug: t.slug,
    is_secret: t.is_secret ?? false,
    confirmation_page_type: t.confirmation_page_type ?? 'internal',
    confirmation_page_url: t.confirmation_page_url ?? null,
    notification_type: t.notification_type ?? 'email',
    pass_details_to_redirected_page: t.pass_details_to_redirected_page ?? false,
    type: t.type ?? 'regular',
    position: t.position ?? 1,
  };
}

function inviteeOf(i: InviteeInput): Invitee {
  const fullName = i.name.trim();
  return {
    first_name: i.firstName ?? fullName.split(/\s+/)[0]!, // split always gives a first
    full_name: fullName,
    email: i.email,
    timezone: i.timezone ?? 'UTC',
    phone_number: i.phoneNumber ?? null,
    locale: i.locale ?? 'en',
  };
}

/**
 * A freshly scheduled meeting (state "new"): every documented meeting field, with `end_date` =
 * start + duration, `pretty_scheduled_at` in the host's time zone (24-hour) and
 * `pretty_scheduled_at_in_invitee_timezone` in the invitee's (12-hour), cancellation and
 * rescheduling fields null. Throws RangeError for an invalid time or time zone.
 */
export function buildMeeting(input: BuildMeetingInput): Meeting {
  const start = toDate(input.start, 'start');
  const minutes = input.duration ?? input.meetingType.duration;
  if (!Number.isFinite(minutes) || minutes <= 0) {
    throw new RangeError(`duration must be a positive number of minutes, got ${minutes}`);
  }
  const end = new Date(start.getTime() + minutes * 60_000);
  const hostTz = input.hostTimezone ?? 'UTC';
  const invitee = inviteeOf(input.invitee);
  const eventType = eventTypeOf(input.meetingType);
  // Alphabetical like the real payload (the service serialises its fields sorted).
  return {
    answers: (input.answers ?? []).map((a) => ({ ...a })),
    canceled_at: null,
    cancellation: null,
    details: input.details ?? null,
    end_date: isoWithOffset(end),
    event_type: eventType,
    invitee,
    location: input.location ?? eventType.location ?? '',
    notes: input.notes ?? null,
    payment: input.payment ?? null,
    pretty_canceled_at: null,
    pretty_canceled_at_in_invitee_timezone: null,
    pretty_scheduled_at: prettyHostTime(start, hostTz),
    pretty_scheduled_at_in_invitee_timezone: prettyInviteeTime(start, invitee.timezone),
    rescheduling: null,
    scheduled_at: isoWithOffset(start),
    state: input.state ?? 'new',
    uuid: input.uuid ?? randomUUID(),
  };
}

/**
 * The same meeting, cancelled: `canceled_at`, `pretty_canceled_at` (host zone),
 * `pretty_canceled_at_in_invitee_timezone`, a `cancellation` object and the state "canceled"
 * (the service's value is not documented; spelled like `canceled_at`).
 * Returns a new object; the input is not changed.
 */
export function cancelMeeting(meeting: Meeting, change: MeetingChange): Meeting {
  const at = toDate(change.at ?? new Date(), 'cancellation time');
  const cancellation: Cancellation = {
    canceled_by: change.by ?? 'invitee',
    reason: change.reason ?? null,
    created_at: isoWithOffset(at),
  };
  return {
    ...structuredClone(meeting),
    canceled_at: isoWithOffset(at),
    cancellation,
    pretty_canceled_at: prettyHostTime(at, change.hostTimezone),
    pretty_canceled_at_in_invitee_timezone: prettyInviteeTime(at, meeting.invitee.timezone),
    state: 'canceled',
  };
}

/**
 * The same meeting (same uuid) moved to `newStart`, keeping its duration: new `scheduled_at`,
 * `end_date` and pretty times, a `rescheduling` object recording the previous times, and the
 * state "rescheduled" (the service's value is not documented).
 * Returns a new object; the input is not changed.
 */
export function rescheduleMeeting(meeting: Meeting, change: MeetingChange): Meeting {
  const oldStart = toDate(meeting.scheduled_at, 'scheduled_at');
  const oldEnd = toDate(meeting.end_date, 'end_date');
  const durationMs = oldEnd.getTime() - oldStart.getTime();
  const start = toDate(change.newStart ?? '', 'new start');
  const end = new Date(start.getTime() + (durationMs > 0 ? durationMs : 0));
  const at = toDate(change.at ?? new Date(), 'rescheduling time');
  const rescheduling: Rescheduling = {
    rescheduled_by: change.by ?? 'invitee',
    reason: change.reason ?? null,
    created_at: isoWithOffset(at),
    previous_scheduled_at: meeting.scheduled_at,
    previous_end_date: meeting.end_date,
    previous_pretty_scheduled_at: meeting.pretty_scheduled_at,
    previous_pretty_scheduled_at_in_invitee_timezone:
      meeting.pretty_scheduled_at_in_invitee_timezone,
  };
  return {
    ...structuredClone(meeting),
    scheduled_at: isoWithOffset(start),
    end_date: isoWithOffset(end),
    pretty_scheduled_at: prettyHostTime(start, change.hostTimezone),
    pretty_scheduled_at_in_invitee_timezone: prettyInviteeTime(start, meeting.invitee.timezone),
    rescheduling,
    state: 'rescheduled',
  };
}
