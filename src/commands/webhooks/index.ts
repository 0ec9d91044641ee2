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
        'sched webhooks rm 0d5c7a52-9a43-4c55-8d6f-6f4f3b2f9e10',
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
        'sched webhooks sync --file webhooks.json --dry-run',
        'sched webhooks sync --file webhooks.yaml --prune --json',
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
        'SCHED_WEBHOOK_SECRET="$SECRET" sched webhooks listen --port 4020',
        'sched webhooks listen --register https://abc.ngrok.app/hook --forward-to http://localhost:3000/hook',
        'sched webhooks listen --event meetingCancelled --event meetingRescheduled',
        'sched webhooks listen --forward-to meetingCancelled=http://localhost:3000/cancel --forward-to http://localhost:3000/all',
        'sched webhooks listen --json | jq .event',
      ],
      json: 'one NDJSON object per delivery: {"event","uuid","signature","signatureReason",...}; signature is valid, invalid, missing or unchecked',
      exitCodes: [
        [0, 'stopped with Ctrl-C or SIGTERM after a clean shutdown'],
        [1, 'the webhook made by --register could not be deleted on exit (it is named)'],
      ],
      formats: NO_CSV,
      load: () => import('./listen.js'),
    }),
  ],
});
