import { command, NO_CSV } from '../define.js';
import { signInput, verifyInput } from './inputs.js';

export const sig = command({
  name: 'sig',
  description: 'Compute and verify webhook signatures',
  commands: [
    command({
      name: 'sign',
      description: 'Print the base64 HMAC-SHA256 of the payload bytes (stdin when no file)',
      input: signInput,
      examples: [
        'sched events sample meetingScheduled > body.json   # a payload to sign',
        'SECRET=my-webhook-secret',
        'SCHED_WEBHOOK_SECRET="$SECRET" sched sig sign --payload-file body.json',
        'BODY=$(cat body.json)',
        'printf %s "$BODY" | SCHED_WEBHOOK_SECRET=s3cret sched sig sign',
      ],
      json: '{"signature"}',
      formats: NO_CSV,
      load: () => import('./sign.js'),
    }),
    command({
      name: 'verify',
      description: 'Check a webhook-signature value against the exact payload bytes',
      input: verifyInput,
      examples: [
        'sched events sample meetingScheduled > body.json   # a payload, and its signature',
        'export SCHED_WEBHOOK_SECRET=my-webhook-secret',
        'SIG=$(sched sig sign --payload-file body.json)',
        'sched sig verify --signature "$SIG" --payload-file body.json',
        'sched sig verify --signature "$SIG" --json < body.json',
      ],
      json: '{"valid","reason"}: valid true or false; reason null when valid, else the likely cause the human output names',
      exitCodes: [
        [0, 'the signature is valid'],
        [1, 'the signature is invalid (the likely cause goes to stderr, or reason with --json)'],
      ],
      formats: NO_CSV,
      load: () => import('./verify.js'),
    }),
  ],
});
