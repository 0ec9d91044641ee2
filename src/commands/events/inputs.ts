// The arguments and options of every `sched events` verb, declared once (see ../define.ts):
// index.ts registers them, and each verb's run() takes its type from here.
import { arg, input, type InputOf, value, webhookSecretOption } from '../define.js';

const EVENT_ARG = arg('<event>', 'meetingScheduled, meetingCancelled or meetingRescheduled');

export const sampleInput = input({ args: [EVENT_ARG] });
export type EventsSampleOptions = InputOf<typeof sampleInput>;

export const sendInput = input({
  args: [EVENT_ARG],
  options: [
    value('--to <url>', 'the receiver URL', { required: true }),
    webhookSecretOption('sign with this secret', '; unsigned without'),
    value('--payload-file <file>', 'send this body unchanged instead of a sample'),
    value('--service-name <name>', 'user-agent to send (default SimplyMeet.me; or Harmonizely)'),
  ],
});
export type EventsSendOptions = InputOf<typeof sendInput>;
