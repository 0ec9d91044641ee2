// The resources of the service API, as the service documents them. Servers may add fields:
// every type keeps an index signature so unknown fields survive a round trip to `--json`.

/**
 * The service's webhook events, in the API's order: the one list of their names (what each
 * one is, its sample and how the sandbox makes it happen: src/domain/webhooks/events.ts).
 */
export const EVENT_NAMES = ['meetingScheduled', 'meetingCancelled', 'meetingRescheduled'] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/** Exactly one of the service's event names, as the API spells it (deliveries, API answers). */
export function isEventName(value: string): value is EventName {
  return (EVENT_NAMES as readonly string[]).includes(value);
}

/**
 * The service's endpoints, relative to the base URL, with what each method does there (shell
 * completion of `sched api <path>`; docs/ list them too).
 */
export const API_ENDPOINTS: ReadonlyArray<{ path: string; what: string }> = [
  { path: '/users/me/meeting-types', what: 'GET: list meeting types (paged)' },
  { path: '/single-use-link', what: 'POST: create a single-use link' },
  { path: '/webhooks', what: 'GET: list webhooks (paged); POST: create one' },
  { path: '/webhooks/', what: 'DELETE /webhooks/<uuid>: delete a webhook' },
];

export interface MeetingType {
  name: string;
  description: string;
  duration: number;
  slug: string;
  uuid: string;
  [extra: string]: unknown;
}

export interface SingleUseLink {
  code: string;
  url: string;
  [extra: string]: unknown;
}

export interface Webhook {
  url: string;
  secret: string | null;
  events: string[];
  created_at: string;
  uuid: string;
  [extra: string]: unknown;
}

export interface PageLinks {
  self?: { href: string };
  first?: { href: string };
  last?: { href: string };
  [extra: string]: unknown;
}

/** The paged list envelope: the items of one page and where it stands among all pages. */
export interface Envelope<T> {
  page: number;
  limit: number;
  pages: number;
  total: number;
  _embedded: { items: T[] };
  _links: PageLinks;
  [extra: string]: unknown;
}

export interface Invitee {
  first_name: string;
  full_name: string;
  email: string;
  timezone: string;
  phone_number: string | null;
  locale: string;
  [extra: string]: unknown;
}

export interface Answer {
  question_label: string;
  value: string | number;
  question_type: string;
  [extra: string]: unknown;
}

export interface MeetingEventType {
  name: string;
  location: string | null;
  location_label: string | null;
  description: string | null;
  duration: number;
  slug: string;
  is_secret: boolean;
  confirmation_page_type: string;
  confirmation_page_url: string | null;
  notification_type: string;
  pass_details_to_redirected_page: boolean;
  type: string;
  position: number;
  [extra: string]: unknown;
}

/** A meeting, the `data` of a delivery. */
export interface Meeting {
  uuid: string;
  state: string;
  scheduled_at: string;
  end_date: string;
  canceled_at: string | null;
  pretty_scheduled_at: string;
  pretty_scheduled_at_in_invitee_timezone: string;
  pretty_canceled_at: string | null;
  pretty_canceled_at_in_invitee_timezone: string | null;
  rescheduling: Record<string, unknown> | null;
  cancellation: Record<string, unknown> | null;
  payment: Record<string, unknown> | null;
  notes: string | null;
  details: string | null;
  location: string;
  event_type: MeetingEventType;
  invitee: Invitee;
  answers: Answer[];
  [extra: string]: unknown;
}

/** A delivery payload: {event, uuid, data}; `uuid` identifies the notification. */
export interface DeliveryPayload {
  event: EventName | string;
  uuid: string;
  data: Meeting;
  [extra: string]: unknown;
}

/** The body of a 422 answer: what was invalid, per field. */
export interface ValidationErrorBody {
  message: string;
  errors: Record<string, string[]>;
}

/** A delivery a sandbox action caused, as its control endpoints (`/_sandbox/...`) report it. */
export interface Notified {
  webhook_uuid: string;
  url: string;
  event: EventName;
  notification_uuid: string;
  signed: boolean;
}

/** What a sandbox control endpoint (book, cancel, reschedule) answers. */
export interface ActionResult {
  meeting: Meeting;
  notified: Notified[];
}
