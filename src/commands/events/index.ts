import {
  arg,
  command,
  input,
  type InputOf,
  TEXT_OR_JSON,
  value,
  webhookSecretOption,
} from '../define.js';

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

export const events = command({
  name: 'events',
  description: 'Sample and send webhook deliveries',
  commands: [
    command({
      name: 'sample',
      description: 'Print a realistic sample delivery payload for an event',
      input: sampleInput,
      examples: [
        'sched events sample meetingScheduled',
        'sched events sample meetingCancelled > cancelled.json',
      ],
      json: 'the delivery payload itself (always JSON): {"event","payload":{...}} as the service sends it',
      formats: TEXT_OR_JSON,
      load: () => import('./sample.js'),
    }),
    command({
      name: 'send',
      description:
        'POST a delivery to a URL exactly as the service would (signed when a secret is given)',
      input: sendInput,
      examples: [
        '# A receiver to send to (yours, or this one, which prints what arrives):',
        'sched webhooks listen --port 4020 > received.txt & sleep 1',
        'SECRET=my-webhook-secret',
        'SCHED_WEBHOOK_SECRET="$SECRET" sched events send meetingScheduled --to http://127.0.0.1:4020/hook',
        'sched events sample meetingCancelled > body.json',
        'sched events send meetingCancelled --to http://127.0.0.1:4020/hook --payload-file body.json',
      ],
      json: '{"status","ms","url","event","uuid","signed","bytes","response"}; when the receiver does not answer: {"status":null,"ms","url","event","uuid","signed","error"}',
      exitCodes: [[1, 'the receiver did not answer, or answered other than 2xx']],
      formats: TEXT_OR_JSON,
      load: () => import('./send.js'),
    }),
  ],
});
