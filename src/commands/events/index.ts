import type { Command } from 'commander';
import { type Act, examples } from '../define.js';

export function register(program: Command, act: Act): void {
  const events = program.command('events').description('Sample and send webhook deliveries');
  examples(
    events
      .command('sample')
      .description('Print a realistic sample delivery payload for an event')
      .argument('<event>', 'meetingScheduled, meetingCancelled or meetingRescheduled')
      .action(act(() => import('./sample.js'))),
    [
      'sched events sample meetingScheduled',
      'sched events sample meetingCancelled > cancelled.json',
    ],
  );
  examples(
    events
      .command('send')
      .description('POST a delivery to a URL exactly as the service would (signed with --secret)')
      .argument('<event>', 'meetingScheduled, meetingCancelled or meetingRescheduled')
      .requiredOption('--to <url>', 'the receiver URL')
      .option(
        '--secret <secret>',
        'sign with this secret (else SCHED_WEBHOOK_SECRET; unsigned without)',
      )
      .option('--payload-file <file>', 'send this body unchanged instead of a sample')
      .option('--service-name <name>', 'user-agent to send (default SimplyMeet.me; or Harmonizely)')
      .action(act(() => import('./send.js'))),
    [
      'sched events send meetingScheduled --to http://localhost:3000/hook --secret "$SECRET"',
      'sched events send meetingCancelled --to http://localhost:3000/hook --payload-file body.json',
    ],
  );
}
