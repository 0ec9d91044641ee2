// The arguments and options of every `sched sandbox` verb, declared once (see ../define.ts):
// index.ts registers them, and each verb's run() takes its type from here.
import { InvalidArgumentError } from 'commander';
import { arg, flag, input, type InputOf, LOCAL_HOST, portNumber, value } from '../define.js';
import { DEFAULT_SANDBOX_PORT } from '../../sandbox/constants.js';

function seedCount(value: string): number {
  const v = value.trim();
  if (!/^\d+$/.test(v) || Number(v) > 1_000_000) {
    throw new InvalidArgumentError('--seed-types must be a whole number from 0 to 1000000');
  }
  return Number(v);
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
    // For load tests: exactly <n> meeting types (the 8 realistic ones, then synthetic ones).
    value('--seed-types <n>', 'start with exactly <n> meeting types', {
      parse: seedCount,
      hidden: true,
    }),
  ],
});
export type SandboxServeOptions = InputOf<typeof serveInput>;

export const bookInput = input({
  args: [arg('<code-or-url>', 'the link code or its URL')],
  options: [
    value('--name <name>', 'invitee full name'),
    value('--email <email>', 'invitee email'),
    value('--at <iso-time>', 'start time (default: tomorrow 10:00 in the invitee time zone)'),
    value('--timezone <tz>', 'invitee time zone, e.g. America/New_York (default: UTC)'),
  ],
});
export type SandboxBookOptions = InputOf<typeof bookInput>;

const MEETING_ARG = arg('<meeting-uuid>', 'the meeting UUID');

export const cancelInput = input({
  args: [MEETING_ARG],
  options: [value('--reason <text>', 'cancellation reason')],
});
export type SandboxCancelOptions = InputOf<typeof cancelInput>;

export const rescheduleInput = input({
  args: [MEETING_ARG],
  options: [value('--at <iso-time>', 'the new start time, ISO 8601', { required: true })],
});
export type SandboxRescheduleOptions = InputOf<typeof rescheduleInput>;
