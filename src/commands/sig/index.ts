import type { Command } from 'commander';
import { type Act, examples } from '../define.js';

export function register(program: Command, act: Act): void {
  const sig = program.command('sig').description('Compute and verify webhook signatures');
  examples(
    sig
      .command('sign')
      .description('Print the base64 HMAC-SHA256 of the payload bytes (stdin when no file)')
      .option('--secret <secret>', 'the webhook secret (else SCHED_WEBHOOK_SECRET, else a prompt)')
      .option('--payload-file <file>', 'read the payload from this file')
      .action(act(() => import('./sign.js'))),
    [
      'sched sig sign --payload-file body.json --secret "$SECRET"',
      'printf %s "$BODY" | SCHED_WEBHOOK_SECRET=s3cret sched sig sign',
    ],
  );
  examples(
    sig
      .command('verify')
      .description('Check a webhook-signature value against the exact payload bytes')
      .requiredOption('--signature <sig>', 'the webhook-signature header value')
      .option('--secret <secret>', 'the webhook secret (else SCHED_WEBHOOK_SECRET, else a prompt)')
      .option('--payload-file <file>', 'read the payload from this file (else stdin)')
      .action(act(() => import('./verify.js'))),
    [
      'sched sig verify --signature "$SIG" --payload-file body.json --secret "$SECRET"',
      'sched sig verify --signature "$SIG" --json < body.json',
    ],
  );
}
