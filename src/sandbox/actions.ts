// The sandbox's actions: what an invitee or host does on the service (book, cancel,
// reschedule), one row each, keyed by the library method's name. A row gives the control route (POST /api/_sandbox/...), the
// library method (`sched/sandbox`, its signature in ActionCalls), the console's button and
// `sched sandbox <verb>` (its help and options). A meeting action is carried out by
// `changeMeeting` (meetings.ts) with its event's `apply` (src/domain/webhooks/events.ts); the
// one link action, book, by `bookLink`. Import-free but for types: the CLI reads it to build
// its command tree.
import type { EventName } from '../api/types.js';
import { DEFAULT_SANDBOX_PORT } from '../defaults.js';

/** Who books, and when; every field has a default (Jordan Rivera, UTC, tomorrow 10:00). */
export interface Invitee {
  name?: string;
  email?: string;
  /** The invitee's IANA time zone, e.g. "America/New_York". */
  timezone?: string;
  /** Start time: a Date, or ISO 8601 with an offset. */
  at?: string | Date;
  /** Free text, delivered as a textarea answer. */
  notes?: string;
}

export interface CancelOptions {
  reason?: string;
  /** Who cancelled; default "invitee". */
  by?: 'invitee' | 'host';
}

export interface RescheduleOptions {
  reason?: string;
  /** Who rescheduled; default "invitee". */
  by?: 'invitee' | 'host';
}

/** The library's action methods; each resolves once the deliveries it caused are settled. */
export interface ActionCalls<Result> {
  /** Books a single-use link (its code or URL): a meeting, and meetingScheduled delivered. */
  book(codeOrUrl: string, invitee?: Invitee): Promise<Result>;
  /** Cancels a meeting: meetingCancelled delivered. */
  cancel(meetingUuid: string, opts?: CancelOptions): Promise<Result>;
  /** Moves a meeting to `at`: meetingRescheduled delivered. */
  reschedule(meetingUuid: string, at: string | Date, opts?: RescheduleOptions): Promise<Result>;
}

export type ActionVerb = keyof ActionCalls<unknown>;

type After<F> = F extends (first: string, ...rest: infer R) => unknown ? R : never;

export interface ActionRow<V extends ActionVerb = ActionVerb> {
  /** The event the action delivers to every webhook subscribed to it. */
  event: EventName;
  /**
   * What it acts on: a single-use link (its code or URL in the body; POST /_sandbox/<verb>) or
   * a meeting (POST /_sandbox/meetings/<uuid>/<verb>).
   */
  on: 'link' | 'meeting';
  /** `sched sandbox <verb>`'s description, before " in a running sandbox (delivers <event>)". */
  summary: string;
  /** Past tense, for "Cancelled meeting <uuid>." (the CLI and the console). */
  done: string;
  /** The console's button; a dangerous one comes last. */
  button: { label: string; danger?: boolean };
  /** The body the library method sends, from its arguments after the first. */
  body: (...args: After<ActionCalls<unknown>[V]>) => Record<string, unknown>;
  /**
   * A meeting action: what a cancelled meeting answers (422), the body field naming who did
   * it, and whether it moves the meeting (`at`, a future time, required).
   */
  meeting?: { refused: string; byField: string; moves?: boolean };
  /**
   * `sched sandbox <verb>`: its examples; for a meeting action, what its --reason means (none
   * without one). A moving action takes --at (required).
   */
  cli: { examples: string[]; reason?: string };
}

const iso = (at: string | Date | undefined) => (at instanceof Date ? at.toISOString() : at);

export const SANDBOX_ACTIONS: { readonly [V in ActionVerb]: ActionRow<V> } = {
  book: {
    event: 'meetingScheduled',
    on: 'link',
    summary: 'Book a single-use link',
    done: 'Booked',
    button: { label: 'Book' },
    body: ({ at, ...rest } = {}) => ({ ...rest, at: iso(at) }),
    cli: {
      examples: [
        `# a link's URL (http://127.0.0.1:${DEFAULT_SANDBOX_PORT}/s/<code>) or its code; here, a new one:`,
        'url=$(sched link create intro-call)',
        'sched sandbox book "$url"',
        `sched sandbox book "$(sched link create intro-call --json | jq -r .code)" --json`,
        'sched sandbox book "$(sched link create intro-call)" --at 2030-12-03T11:00 --timezone Europe/London',
      ],
    },
  },
  cancel: {
    event: 'meetingCancelled',
    on: 'meeting',
    summary: 'Cancel a meeting',
    done: 'Cancelled',
    button: { label: 'Cancel', danger: true },
    body: (opts = {}) => ({ reason: opts.reason, canceled_by: opts.by }),
    meeting: { refused: 'The meeting is already cancelled.', byField: 'canceled_by' },
    cli: {
      examples: [
        'MEETING=$(sched sandbox book "$(sched link create intro-call)" -q)   # a meeting to cancel',
        'sched sandbox cancel "$MEETING" --json',
      ],
      reason: 'cancellation reason',
    },
  },
  reschedule: {
    event: 'meetingRescheduled',
    on: 'meeting',
    summary: 'Move a meeting',
    done: 'Rescheduled',
    button: { label: 'Reschedule' },
    body: (at, opts = {}) => ({ at: iso(at), reason: opts.reason, rescheduled_by: opts.by }),
    meeting: {
      refused: 'A cancelled meeting cannot be rescheduled.',
      byField: 'rescheduled_by',
      moves: true,
    },
    cli: {
      examples: [
        'MEETING=$(sched sandbox book "$(sched link create intro-call)" -q)   # a meeting to move',
        'sched sandbox reschedule "$MEETING" --at 2030-12-01T15:00:00+01:00',
        'sched sandbox reschedule "$MEETING" --at 2030-12-02T14:00:00Z --json',
      ],
    },
  },
};

/** The verbs, in the table's order. */
export const ACTION_VERBS = Object.keys(SANDBOX_ACTIONS) as ActionVerb[];

/** The verb as `sched sandbox` and the route spell it: `noShow` is `no-show`. */
export function actionName(verb: ActionVerb): string {
  return verb.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/**
 * The control path of an action, under the base URL (/api): `/_sandbox/book`, or
 * `/_sandbox/meetings/<meeting>/<verb>` (the route's pattern when `meeting` is ":uuid").
 */
export function actionPath(verb: ActionVerb, meeting = ':uuid'): string {
  const name = actionName(verb);
  return SANDBOX_ACTIONS[verb].on === 'link'
    ? `/_sandbox/${name}`
    : `/_sandbox/meetings/${meeting}/${name}`;
}
