import { command, input, value, webhookSecretOption, type InputOf, NO_CSV } from '../define.js';

const SECRET = webhookSecretOption('the webhook secret', ', else a prompt');

export const signInput = input({
  options: [SECRET, value('--payload-file <file>', 'read the payload from this file')],
});
export type SigSignOptions = InputOf<typeof signInput>;

export const verifyInput = input({
  options: [
    value('--signature <sig>', 'the webhook-signature header value', { required: true }),
    SECRET,
    value('--payload-file <file>', 'read the payload from this file (else stdin)'),
  ],
});
export type SigVerifyOptions = InputOf<typeof verifyInput>;

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
