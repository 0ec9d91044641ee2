// The arguments and options of every `sched sandbox` verb, declared once (see ../define.ts):
// index.ts registers them, and each verb's run() takes its type from here.
import {
  arg,
  flag,
  input,
  type InputOf,
  LOCAL_HOST,
  portNumber,
  value,
  wholeNumber,
} from '../define.js';
import { DEFAULT_SANDBOX_PORT } from '../../defaults.js';
import type { ActionRow } from '../../sandbox/actions.js';

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
    // The library's seedTypes: many types for a pick list, paging or a load test.
    value(
      '--types <n>',
      'start with exactly <n> meeting types: the 8 realistic ones, then generated ones (default: the 8)',
      { parse: wholeNumber('--types', 1_000_000) },
    ),
  ],
});
export type SandboxServeOptions = InputOf<typeof serveInput>;

/**
 * The key the sandbox's actions (book, cancel, reschedule, …) and readouts send. The account's key (SCHED_API_KEY, the profile's)
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

const AT = value('--at <iso-time>', 'the new start time, ISO 8601', { required: true });

/** A meeting action's input (its row in sandbox/actions.ts): the meeting, --at when it moves it, --reason when the row says what it means, the key. */
export function meetingActionInput(row: ActionRow) {
  const reason = row.cli.reason === undefined ? [] : [value('--reason <text>', row.cli.reason)];
  const at = row.meeting?.moves ? [AT] : [];
  return input({ args: [MEETING_ARG], options: [...at, ...reason, SANDBOX_KEY] });
}
/** What a meeting action's run receives. */
export interface SandboxActionOptions {
  meetingUuid: string;
  at?: string;
  reason?: string;
  apiKey?: string;
}

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
