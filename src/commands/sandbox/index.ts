import { InvalidArgumentError, Option, type Command } from 'commander';
import { type Act, examples, portNumber } from '../define.js';
import { DEFAULT_SANDBOX_PORT } from '../../sandbox/constants.js';

function seedCount(value: string): number {
  const v = value.trim();
  if (!/^\d+$/.test(v) || Number(v) > 1_000_000) {
    throw new InvalidArgumentError('--seed-types must be a whole number from 0 to 1000000');
  }
  return Number(v);
}

export function register(program: Command, act: Act): void {
  const sandbox = examples(
    program
      .command('sandbox')
      .description(
        'Run a local emulator of the whole service API, with bookings and signed deliveries',
      )
      .option(
        '--port <n>',
        'port to listen on (0 = any free port)',
        portNumber,
        DEFAULT_SANDBOX_PORT,
      )
      .option('--host <host>', 'address to listen on', '127.0.0.1')
      .option(
        '--api-key <key>',
        'the API key the sandbox accepts (default: a fixed documented key)',
      )
      .option('--state <file>', 'keep state in this JSON file across restarts')
      .option('--service-name <name>', 'user-agent of deliveries', 'SimplyMeet.me')
      .option(
        '--public-url <url>',
        'origin that link URLs point to, e.g. a tunnel (default: the sandbox itself)',
      )
      .addOption(
        // For load tests: exactly <n> meeting types (the 8 realistic ones, then synthetic ones).
        new Option('--seed-types <n>', 'start with exactly <n> meeting types')
          .argParser(seedCount)
          .hideHelp(),
      )
      .action(act(() => import('./serve.js'))),
    ['sched sandbox', 'sched sandbox --port 0 --json --state ./sandbox-state.json'],
  );
  examples(
    sandbox
      .command('book')
      .description('Book a single-use link in a running sandbox (delivers meetingScheduled)')
      .argument('<code-or-url>', 'the link code or its URL')
      .option('--name <name>', 'invitee full name')
      .option('--email <email>', 'invitee email')
      .option('--at <iso-time>', 'start time (default: tomorrow 10:00 in the invitee time zone)')
      .option('--timezone <tz>', 'invitee time zone, e.g. America/New_York (default: UTC)')
      .action(act(() => import('./book.js'))),
    [
      `sched sandbox book http://127.0.0.1:${DEFAULT_SANDBOX_PORT}/s/abc123`,
      'sched sandbox book abc123 --json',
    ],
  );
  examples(
    sandbox
      .command('cancel')
      .description('Cancel a meeting in a running sandbox (delivers meetingCancelled)')
      .argument('<meeting-uuid>', 'the meeting UUID')
      .option('--reason <text>', 'cancellation reason')
      .action(act(() => import('./cancel.js'))),
    [
      'sched sandbox cancel 4b1d2f0e-2f44-4c1a-9a51-0f3f6a7c8d90',
      'sched sandbox cancel "$MEETING" --json',
    ],
  );
  examples(
    sandbox
      .command('reschedule')
      .description('Move a meeting in a running sandbox (delivers meetingRescheduled)')
      .argument('<meeting-uuid>', 'the meeting UUID')
      .requiredOption('--at <iso-time>', 'the new start time, ISO 8601')
      .action(act(() => import('./reschedule.js'))),
    [
      'sched sandbox reschedule "$MEETING" --at 2026-12-01T15:00:00+01:00',
      'sched sandbox reschedule "$MEETING" --at 2026-12-01T14:00:00Z --json',
    ],
  );
}
