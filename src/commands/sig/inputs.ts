// The arguments and options of every `sched sig` verb, declared once (see ../define.ts):
// index.ts registers them, and each verb's run() takes its type from here.
import { input, value, webhookSecretOption, type InputOf } from '../define.js';

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
