// The event registry: one row per webhook event the service sends (its name is in
// EVENT_NAMES, api/types.ts, which the typed record below makes every row follow). A row says
// what the event does to a meeting (`apply`: the sandbox makes the event happen with it) and
// how its sample differs from the scheduled sample meeting (`sample`: `sched events
// sample|send`). The sandbox's action that makes it happen (route, library method, console
// button, `sched sandbox <verb>`) is a row of src/sandbox/actions.ts naming the event.
import type { EventName, Meeting } from '../../api/types.js';
import { cancelMeeting, rescheduleMeeting, type MeetingChange } from './meeting.js';

export interface EventRow {
  /** The meeting after the event happened to it; undefined for the booking, which creates it. */
  apply?: (meeting: Meeting, change: MeetingChange) => Meeting;
  /** The change the sample applies to the scheduled sample meeting (`apply` is given it). */
  sample?: Omit<MeetingChange, 'hostTimezone'>;
}

export const EVENTS: { readonly [E in EventName]: EventRow } = {
  meetingScheduled: {},
  meetingCancelled: {
    apply: cancelMeeting,
    sample: { at: '2026-03-12T09:15:00Z', reason: 'Something came up, sorry!', by: 'invitee' },
  },
  meetingRescheduled: {
    apply: rescheduleMeeting,
    sample: {
      newStart: '2026-03-19T16:00:00Z',
      at: '2026-03-13T08:00:00Z',
      reason: 'Could we do Thursday instead?',
      by: 'invitee',
    },
  },
};
