import { ALL_FORMATS, command, TEXT_OR_JSON } from '../define.js';
import { DEFAULT_SANDBOX_PORT } from '../../defaults.js';
import {
  bookInput,
  cancelInput,
  deliveriesInput,
  meetingsInput,
  rescheduleInput,
  serveInput,
} from './inputs.js';

const MEETING_JSON = 'the meeting object, as the sandbox API returns it';

export const sandbox = command({
  name: 'sandbox',
  description:
    'Run a local emulator of the whole service API, with bookings, signed deliveries and a browser console at its / (live delivery log, synthetic faults)',
  input: serveInput,
  examples: [
    'sched sandbox',
    'sched sandbox --port 0 --json --state ./sandbox-state.json',
    'echo \'{"api":[{"route":"GET /users/me/meeting-types","type":"status","status":429,"retryAfter":1}]}\' > faults.json',
    'sched sandbox --seed 42 --faults faults.json   # repeatable values; synthetic 429s, 5xx, resets, slow deliveries',
    'sched sandbox --types 300   # 300 meeting types: paging, the pick list, `types list --name`',
  ],
  json: 'first stdout line {"baseUrl","publicUrl","apiKey"}; the request and delivery log goes to stderr',
  exitCodes: [[0, 'stopped with Ctrl-C or SIGTERM after a clean shutdown']],
  formats: TEXT_OR_JSON,
  load: () => import('./serve.js'),
  commands: [
    command({
      name: 'book',
      description: 'Book a single-use link in a running sandbox (delivers meetingScheduled)',
      input: bookInput,
      examples: [
        `# a link's URL (http://127.0.0.1:${DEFAULT_SANDBOX_PORT}/s/<code>) or its code; here, a new one:`,
        'url=$(sched link create intro-call)',
        'sched sandbox book "$url"',
        `sched sandbox book "$(sched link create intro-call --json | jq -r .code)" --json`,
        'sched sandbox book "$(sched link create intro-call)" --at 2030-12-03T11:00 --timezone Europe/London',
      ],
      json: MEETING_JSON,
      formats: ALL_FORMATS,
      load: () => import('./book.js'),
    }),
    command({
      name: 'cancel',
      description: 'Cancel a meeting in a running sandbox (delivers meetingCancelled)',
      input: cancelInput,
      examples: [
        'MEETING=$(sched sandbox book "$(sched link create intro-call)" -q)   # a meeting to cancel',
        'sched sandbox cancel "$MEETING" --json',
      ],
      json: MEETING_JSON,
      formats: ALL_FORMATS,
      load: () => import('./cancel.js'),
    }),
    command({
      name: 'reschedule',
      description: 'Move a meeting in a running sandbox (delivers meetingRescheduled)',
      input: rescheduleInput,
      examples: [
        'MEETING=$(sched sandbox book "$(sched link create intro-call)" -q)   # a meeting to move',
        'sched sandbox reschedule "$MEETING" --at 2030-12-01T15:00:00+01:00',
        'sched sandbox reschedule "$MEETING" --at 2030-12-02T14:00:00Z --json',
      ],
      json: MEETING_JSON,
      formats: ALL_FORMATS,
      load: () => import('./reschedule.js'),
    }),
    command({
      name: 'meetings',
      description: 'List the meetings of a running sandbox (booked, cancelled, rescheduled)',
      input: meetingsInput,
      examples: ['sched sandbox meetings', 'sched sandbox meetings --json | jq -r ".[].uuid"'],
      json: 'an array of meeting objects, oldest first, as the sandbox keeps them',
      formats: ALL_FORMATS,
      load: () => import('./meetings.js'),
    }),
    command({
      name: 'deliveries',
      description: 'List the webhook deliveries of a running sandbox, with every attempt',
      input: deliveriesInput,
      examples: [
        'sched sandbox deliveries',
        'MEETING=$(sched sandbox book "$(sched link create intro-call)" -q)',
        'sched sandbox cancel "$MEETING" --reason "example"',
        'sched sandbox deliveries --event meetingCancelled --meeting "$MEETING" --json',
      ],
      json: 'an array of delivery records (id, event, webhook_uuid, meeting_uuid, url, signed, body, headers, state, attempts, next_retry_at), oldest first; the sandbox keeps the last 1000',
      formats: ALL_FORMATS,
      load: () => import('./deliveries.js'),
    }),
  ],
});
