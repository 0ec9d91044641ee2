import { command, NO_CSV, TEXT_OR_JSON } from '../define.js';
import { replayInput, sampleInput, sendInput } from './inputs.js';

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
        "sched events sample meetingScheduled --override data.invitee.email=grace@example.com --override 'data.answers[1].value=0'",
        'sched events sample meetingScheduled --override-new data.invitee.company=ACME',
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
        'sched events send meetingScheduled --to http://127.0.0.1:4020/hook --override data.invitee.timezone=Asia/Tokyo',
      ],
      json: '{"status","ms","url","event","uuid","signed","bytes","response"}; when the receiver does not answer: {"status":null,"ms","url","event","uuid","signed","error"}',
      exitCodes: [[1, 'the receiver did not answer, or answered other than 2xx']],
      formats: TEXT_OR_JSON,
      load: () => import('./send.js'),
    }),
    command({
      name: 'replay',
      description:
        'Re-send recorded deliveries (webhooks listen --record) byte-exact, or re-signed with --secret',
      input: replayInput,
      examples: [
        '# Your app on port 4021 (here a second listener stands in for it):',
        'sched webhooks listen --port 4021 > app.txt & sleep 1',
        'sched webhooks listen --port 4020 --record deliveries.ndjson --forward-to http://127.0.0.1:4021/hook --count 1 & sleep 1',
        'SCHED_WEBHOOK_SECRET=my-webhook-secret sched events send meetingScheduled --to http://127.0.0.1:4020/hook',
        'sleep 1',
        'sched events replay deliveries.ndjson --to http://127.0.0.1:4021/hook --last 1',
        'sched events replay deliveries.ndjson --to http://127.0.0.1:4021/hook --uuid "$(jq -r \'select(.kind == "sched.webhook-delivery/1") | .uuid\' deliveries.ndjson)"',
        'sched events replay deliveries.ndjson --to http://127.0.0.1:4021/hook --json | jq .status',
      ],
      json: 'one object per delivery replayed: {"line","event","uuid","url","signed","resigned","status","ms"}; "status":null and "error" when the receiver did not answer',
      exitCodes: [
        [1, 'a replayed delivery got no answer, or one other than 2xx'],
        [2, 'the file is not a recording (the line is named), or a --uuid is not in it'],
      ],
      formats: NO_CSV,
      load: () => import('./replay.js'),
    }),
  ],
});
