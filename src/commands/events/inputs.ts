// The arguments and options of every `sched events` verb, declared once (see ../define.ts):
// index.ts registers them, and each verb's run() takes its type from here.
import {
  arg,
  flag,
  input,
  list,
  positiveInt,
  SECRET_FLAG_RISK,
  type InputOf,
  value,
  webhookSecretOption,
} from '../define.js';
import { EVENT_NAMES } from '../../api/types.js';

const EVENT_ARG = arg(
  '<event>',
  `${EVENT_NAMES.slice(0, -1).join(', ')} or ${EVENT_NAMES[EVENT_NAMES.length - 1]}`,
);

/** --override and --override-new, the same on sample and send. */
const OVERRIDE_OPTIONS = [
  list(
    '--override <path=value>',
    'set a field that exists before the payload is signed: dotted path, [n] for an array item (data.answers[0].value); the value is JSON when it parses, else a string (repeatable)',
  ),
  list(
    '--override-new <path=value>',
    'like --override, but adds a field that does not exist yet, on purpose (repeatable)',
  ),
] as const;

export const sampleInput = input({ args: [EVENT_ARG], options: OVERRIDE_OPTIONS });
export type EventsSampleOptions = InputOf<typeof sampleInput>;

export const sendInput = input({
  args: [EVENT_ARG],
  options: [
    value('--to <url>', 'the receiver URL', { required: true }),
    webhookSecretOption('sign with this secret', '; unsigned without'),
    value('--payload-file <file>', 'send this body unchanged instead of a sample'),
    value('--service-name <name>', 'user-agent to send (default SimplyMeet.me; or Harmonizely)'),
    ...OVERRIDE_OPTIONS,
    flag(
      '--edit',
      'on a terminal, open $VISUAL or $EDITOR on the payload before it is signed and sent',
    ),
  ],
});
export type EventsSendOptions = InputOf<typeof sendInput>;

export const replayInput = input({
  args: [arg('<file>', 'a recording made by `sched webhooks listen --record <file>`')],
  options: [
    value('--to <url>', 'the receiver URL', { required: true }),
    list(
      '--uuid <event-uuid>',
      'replay only the delivery with this notification uuid (repeatable)',
    ),
    flag(
      '--failed',
      'replay only deliveries whose latest outcome failed: their forwards (`listen --record --forward-to`), then each replay (a replay appends its outcomes to the recording)',
    ),
    value('--last <n>', 'replay only the last n deliveries (of those chosen)', {
      parse: positiveInt('--last'),
    }),
    value(
      '--secret <secret>',
      `re-sign each body with this secret instead of sending its recorded signature (${SECRET_FLAG_RISK})`,
    ),
  ],
});
export type EventsReplayOptions = InputOf<typeof replayInput>;
