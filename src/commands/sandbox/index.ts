import { InvalidArgumentError } from 'commander';
import {
  ALL_FORMATS,
  arg,
  command,
  flag,
  input,
  type InputOf,
  LOCAL_HOST,
  portNumber,
  TEXT_OR_JSON,
  value,
} from '../define.js';
import { DEFAULT_SANDBOX_PORT } from '../../sandbox/constants.js';

/** A parser for a flag taking a whole number from 0 to `max`. */
function wholeNumber(flag: string, max: number): (value: string) => number {
  return (value) => {
    const v = value.trim();
    if (!/^\d+$/.test(v) || Number(v) > max) {
      throw new InvalidArgumentError(`${flag} must be a whole number from 0 to ${max}`);
    }
    return Number(v);
  };
}

export const serveInput = input({
  options: [
    value('--port <n>', 'port to listen on (0 = any free port)', {
      parse: portNumber,
      default: DEFAULT_SANDBOX_PORT,
    }),
    value('--host <host>', 'address to listen on', { default: LOCAL_HOST }),
    value('--api-key <key>', 'the API key the sandbox accepts (default: a fixed documented key)'),
    flag(
      '--insecure-default-key',
      'with a --host other machines can reach: serve the public default key anyway',
    ),
    value('--state <file>', 'keep state in this JSON file across restarts'),
    value('--service-name <name>', 'user-agent of deliveries', { default: 'SimplyMeet.me' }),
    value(
      '--public-url <url>',
      'origin that link URLs point to, e.g. a tunnel (default: the sandbox itself)',
    ),
    value(
      '--faults <file>',
      'start with the synthetic faults in this JSON file ({"api":[...],"deliveries":[...]})',
    ),
    value('--seed <n>', 'make UUIDs, link codes and generated times repeatable (snapshot tests)', {
      parse: wholeNumber('--seed', Number.MAX_SAFE_INTEGER),
    }),
    // For load tests: exactly <n> meeting types (the 8 realistic ones, then synthetic ones).
    value('--seed-types <n>', 'start with exactly <n> meeting types', {
      parse: wholeNumber('--seed-types', 1_000_000),
      hidden: true,
    }),
  ],
});
export type SandboxServeOptions = InputOf<typeof serveInput>;

/**
 * The key book, cancel and reschedule send. The account's key (SCHED_API_KEY, the profile's)
 * goes only to the configured base URL; a sandbox anywhere else gets this key, else the
 * documented sandbox key.
 */
const SANDBOX_KEY = value(
  '--api-key <key>',
  "the sandbox's key (default: the documented sandbox key; the account's key only goes to its base URL)",
);

export const bookInput = input({
  args: [arg('<code-or-url>', 'the link code or its URL')],
  options: [
    SANDBOX_KEY,
    value('--name <name>', 'invitee full name'),
    value('--email <email>', 'invitee email'),
    value(
      '--at <iso-time>',
      'start time: with an offset, or local to --timezone as on the booking page, e.g. 2026-12-03T11:00 (default: tomorrow 10:00 in the invitee time zone)',
    ),
    value('--timezone <tz>', 'invitee time zone, e.g. America/New_York (default: UTC)'),
  ],
});
export type SandboxBookOptions = InputOf<typeof bookInput>;

const MEETING_ARG = arg('<meeting-uuid>', 'the meeting UUID');

export const cancelInput = input({
  args: [MEETING_ARG],
  options: [value('--reason <text>', 'cancellation reason'), SANDBOX_KEY],
});
export type SandboxCancelOptions = InputOf<typeof cancelInput>;

export const rescheduleInput = input({
  args: [MEETING_ARG],
  options: [
    value('--at <iso-time>', 'the new start time, ISO 8601', { required: true }),
    SANDBOX_KEY,
  ],
});
export type SandboxRescheduleOptions = InputOf<typeof rescheduleInput>;

const MEETING_JSON = 'the meeting object, as the sandbox API returns it';

export const meetingsInput = input({ options: [SANDBOX_KEY] });
export type SandboxMeetingsOptions = InputOf<typeof meetingsInput>;

export const deliveriesInput = input({
  options: [
    SANDBOX_KEY,
    value('--event <name>', 'only deliveries of this event, e.g. meetingScheduled'),
    value('--webhook <uuid>', 'only deliveries to this webhook'),
    value('--meeting <uuid>', 'only deliveries about this meeting'),
  ],
});
export type SandboxDeliveriesOptions = InputOf<typeof deliveriesInput>;

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
