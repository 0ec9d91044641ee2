import { command, TEXT_OR_JSON } from '../define.js';
import { sampleInput, sendInput } from './inputs.js';

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
        'SCHED_WEBHOOK_SECRET="$SECRET" sched events send meetingScheduled --to http://localhost:3000/hook',
        'sched events send meetingCancelled --to http://localhost:3000/hook --payload-file body.json',
      ],
      json: '{"status","ms","url","event","uuid","signed","bytes","response"}; when the receiver does not answer: {"status":null,"ms","url","event","uuid","signed","error"}',
      exitCodes: [[1, 'the receiver did not answer, or answered other than 2xx']],
      formats: TEXT_OR_JSON,
      load: () => import('./send.js'),
    }),
  ],
});
