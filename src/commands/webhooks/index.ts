import { ALL_FORMATS, command, NO_CSV } from '../define.js';
import { addInput, lsInput, rmInput, syncInput, listenInput } from './inputs.js';

const WEBHOOK_JSON = '{"uuid","url","events","secret",...}: the webhook object the API returned';

export const webhooks = command({
  name: 'webhooks',
  description: 'Manage webhook endpoints',
  commands: [
    command({
      name: 'add',
      description: 'Create a webhook (a strong secret is generated and shown once unless given)',
      input: addInput,
      examples: [
        'sched webhooks add --url https://example.com/hooks/sched',
        'sched webhooks add --url https://example.com/hooks --event meetingScheduled --if-absent --json',
        'out=$(mktemp) && sched webhooks add --url https://example.com/hooks/ci --if-absent --secret-out "$out"   # CI: the secret goes to a 0600 file, not the log',
        'WEBHOOK_SECRET=$(head -c 32 /dev/urandom | base64)',
        'printf %s "$WEBHOOK_SECRET" | sched webhooks add --url https://example.com/hooks --secret-stdin',
      ],
      json: WEBHOOK_JSON,
      formats: ALL_FORMATS,
      load: () => import('./add.js'),
    }),
    command({
      name: 'ls',
      aliases: ['list'],
      description: 'List webhooks',
      input: lsInput,
      examples: ['sched webhooks ls', "sched webhooks ls --all --json | jq -r '.[].url'"],
      json: 'an array of the webhook objects the API returned',
      formats: ALL_FORMATS,
      load: () => import('./ls.js'),
    }),
    command({
      name: 'rm',
      aliases: ['delete'],
      description: 'Delete webhooks by UUID, by URL, or all of them',
      input: rmInput,
      examples: [
        'uuid=$(sched webhooks add --url https://example.com/hooks/old --no-secret -q)   # one to remove',
        'sched webhooks rm "$uuid"',
        'sched webhooks rm --url https://example.com/hooks --yes',
        'sched webhooks rm --all --yes --json',
      ],
      json: '{"deleted":[uuid...]}',
      exitCodes: [
        [1, 'the confirmation was declined (nothing was deleted)'],
        [2, '--url or --all without --yes when no terminal can ask'],
      ],
      formats: ALL_FORMATS,
      load: () => import('./rm.js'),
    }),
    command({
      name: 'sync',
      description: 'Make the webhooks match a file (JSON or YAML): create, replace, prune',
      input: syncInput,
      examples: [
        `echo '{"webhooks":[{"url":"https://example.com/hooks/sched","events":["meetingScheduled"],"secretEnv":"SCHED_HOOK_SECRET"}]}' > webhooks.json`,
        'sched webhooks sync --file webhooks.json --dry-run   # plans without SCHED_HOOK_SECRET set',
        `printf 'webhooks:\\n  - url: https://example.com/hooks/sched\\n    events: [meetingScheduled, meetingCancelled]\\n    secretEnv: SCHED_HOOK_SECRET\\n' > webhooks.yaml`,
        'SCHED_HOOK_SECRET=s3cret sched webhooks sync --file webhooks.yaml --prune --json',
        '# A plan that deletes every webhook asks first on a terminal (--yes skips the question);',
        '# without a terminal it does what the file says, with a warning.',
        '# webhooks.yaml (secrets come from the environment, never from the file):',
        '#   webhooks:',
        '#     - url: https://example.com/hooks/sched',
        '#       events: [meetingScheduled, meetingCancelled]',
        '#       secretEnv: SCHED_HOOK_SECRET',
        '# Matched by URL; events differ -> replaced (new one created first). Secrets of existing',
        '# webhooks cannot be compared (the API hides them) and are left as they are.',
      ],
      json: '{"created":[...],"replaced":[...],"deleted":[...],"unchanged":[...]} (webhook objects or UUIDs; a webhook object here always carries "secret": null)',
      formats: ALL_FORMATS,
      load: () => import('./sync.js'),
    }),
    command({
      name: 'listen',
      description: 'Receive deliveries locally, verify their signatures, optionally forward them',
      input: listenInput,
      examples: [
        'SCHED_WEBHOOK_SECRET=my-webhook-secret sched webhooks listen --port 4020',
        'sched webhooks listen --register https://abc.ngrok.app/hook --forward-to http://localhost:3000/hook',
        'sched webhooks listen --event meetingCancelled --event meetingRescheduled',
        'sched webhooks listen --forward-to meetingCancelled=http://localhost:3000/cancel --forward-to http://localhost:3000/all',
        'sched webhooks listen --json | jq .event',
        'sched webhooks listen --json --count 1 --max-time 60 --record deliveries.ndjson > out.ndjson &',
        '# CI: wait for the first line {"listening":"<url>"}, trigger, then read one object per delivery',
      ],
      json: 'first line {"listening":"<url>"} once it is ready (with "secret" when --register generated one for --forward-to), then one NDJSON object per delivery: {"event","uuid","signature","signatureReason",...}; signature is valid, invalid, missing or unchecked; "forwards" lists each forward\'s {"url","status"|"error","ms","attempts"}, "notForwarded" says why one was not',
      exitCodes: [
        [
          0,
          'stopped with Ctrl-C, SIGTERM, after --count deliveries, or at --max-time without --count',
        ],
        [1, '--max-time passed before --count deliveries arrived (it says how many did)'],
        [1, 'the webhook made by --register could not be deleted on exit (it is named)'],
      ],
      formats: NO_CSV,
      load: () => import('./listen.js'),
    }),
  ],
});
