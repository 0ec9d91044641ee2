import { ALL_FORMATS, command, TEXT_OR_JSON } from '../define.js';
import { DEFAULT_SANDBOX_PORT } from '../../sandbox/constants.js';
import { serveInput, bookInput, cancelInput, rescheduleInput } from './inputs.js';

const MEETING_JSON = 'the meeting object, as the sandbox API returns it';

export const sandbox = command({
  name: 'sandbox',
  description: 'Run a local emulator of the whole service API, with bookings and signed deliveries',
  input: serveInput,
  examples: ['sched sandbox', 'sched sandbox --port 0 --json --state ./sandbox-state.json'],
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
        `sched sandbox book http://127.0.0.1:${DEFAULT_SANDBOX_PORT}/s/abc123`,
        'sched sandbox book abc123 --json',
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
        'sched sandbox cancel 4b1d2f0e-2f44-4c1a-9a51-0f3f6a7c8d90',
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
        'sched sandbox reschedule "$MEETING" --at 2026-12-01T15:00:00+01:00',
        'sched sandbox reschedule "$MEETING" --at 2026-12-01T14:00:00Z --json',
      ],
      json: MEETING_JSON,
      formats: ALL_FORMATS,
      load: () => import('./reschedule.js'),
    }),
  ],
});
