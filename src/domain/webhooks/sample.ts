// Realistic sample deliveries ({event, uuid, data: meeting}) for each event, for `sched events sample` and
// `sched events send`. The meeting is fixed (same uuid and times every run, so docs and tests
// can rely on it); the notification uuid is fresh each time, as every real delivery's is, so a
// receiver that de-duplicates on it does not drop the second sample it is sent.
import type { EventName, Meeting } from '../../api/types.js';
import { buildDeliveryBody, type DeliveryBody } from './delivery.js';
import { EVENTS } from './events.js';
import { buildMeeting } from './meeting.js';

export const SAMPLE_HOST_TIMEZONE = 'Europe/Berlin';
export const SAMPLE_MEETING_UUID = '5f0c2a9e-8b1d-4c3e-9a7f-2d6b4e8c1a35';

function scheduledSample(): Meeting {
  return buildMeeting({
    uuid: SAMPLE_MEETING_UUID,
    meetingType: {
      name: 'Discovery call',
      slug: 'discovery-call',
      duration: 30,
      description: 'A first conversation about your project.',
      location: 'https://meet.example.com/discovery',
      location_label: 'Video call',
      notification_type: 'email',
      position: 1,
    },
    invitee: {
      name: 'Ada Lovelace',
      email: 'ada.lovelace@example.com',
      timezone: 'America/New_York',
      locale: 'en',
      phoneNumber: '+1 212 555 0142',
    },
    start: '2026-03-17T14:30:00Z',
    location: 'https://meet.example.com/discovery/ada-7f3k',
    hostTimezone: SAMPLE_HOST_TIMEZONE,
    answers: [
      {
        question_label: 'What would you like to discuss?',
        question_type: 'textarea',
        value: 'Connecting our booking flow to your API.\nAlso: pricing for teams.',
      },
      {
        question_label: 'I agree to the privacy policy',
        question_type: 'checkbox',
        value: 1,
      },
    ],
  });
}

/** The sample meeting as it is after `event` happened (its registry row's `sample` change). */
export function sampleMeeting(event: EventName): Meeting {
  const { apply, sample } = EVENTS[event];
  const m = scheduledSample();
  return apply && sample ? apply(m, { ...sample, hostTimezone: SAMPLE_HOST_TIMEZONE }) : m;
}

/** A delivery of `event` with the sample meeting: payload and the exact bytes. */
export function sampleDelivery(event: EventName): DeliveryBody {
  return buildDeliveryBody(event, sampleMeeting(event));
}
