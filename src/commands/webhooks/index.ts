import type { Command } from 'commander';
import { type Act, collect, examples, portNumber, positiveInt } from '../define.js';

// Commander folds --secret and --no-secret into one value (the last one wins); counting the
// secret options lets `add` refuse a contradictory pair instead of silently picking one.
function countSecretOption(this: Command): void {
  const seen = (this.getOptionValue('secretOptions') as number | undefined) ?? 0;
  this.setOptionValue('secretOptions', seen + 1);
}

export function register(program: Command, act: Act): void {
  const webhooks = program.command('webhooks').description('Manage webhook endpoints');

  examples(
    webhooks
      .command('add')
      .description('Create a webhook (a strong secret is generated and shown once unless given)')
      .option('--url <url>', 'the endpoint URL (absolute http or https)')
      .option(
        '--event <name>',
        'event to send: meetingScheduled, meetingCancelled, meetingRescheduled (repeatable; default all)',
        collect,
      )
      .option('--secret <secret>', 'signing secret to use')
      .option('--secret-stdin', 'read the signing secret from stdin')
      .option('--no-secret', 'create an unsigned webhook')
      .option('--if-absent', 'do nothing when a webhook with this URL and events exists')
      .on('option:secret', countSecretOption)
      .on('option:secret-stdin', countSecretOption)
      .on('option:no-secret', countSecretOption)
      .action(act(() => import('./add.js'))),
    [
      'sched webhooks add --url https://example.com/hooks/sched',
      'sched webhooks add --url https://example.com/hooks --event meetingScheduled --if-absent --json',
      'printf %s "$WEBHOOK_SECRET" | sched webhooks add --url https://example.com/hooks --secret-stdin',
    ],
  );

  examples(
    webhooks
      .command('ls')
      .alias('list')
      .description('List webhooks')
      .option('--page <n>', 'page number to read', positiveInt('--page'))
      .option('--limit <n>', 'page size (items per page)', positiveInt('--limit'))
      .option('--all', 'read every page')
      .action(act(() => import('./ls.js'))),
    ['sched webhooks ls', "sched webhooks ls --all --json | jq -r '.[].url'"],
  );

  examples(
    webhooks
      .command('rm')
      .alias('delete')
      .description('Delete webhooks by UUID, by URL, or all of them')
      .argument('[uuid...]', 'webhook UUIDs')
      .option('--url <url>', 'delete every webhook with this URL')
      .option('--all', 'delete every webhook')
      .option('-y, --yes', 'do not ask for confirmation')
      .action(act(() => import('./rm.js'))),
    [
      'sched webhooks rm 0d5c7a52-9a43-4c55-8d6f-6f4f3b2f9e10',
      'sched webhooks rm --url https://example.com/hooks --yes',
      'sched webhooks rm --all --yes --json',
    ],
  );

  examples(
    webhooks
      .command('sync')
      .description('Make the webhooks match a file (JSON or YAML): create, replace, prune')
      .requiredOption(
        '--file <path>',
        'the desired webhooks: {"webhooks":[{"url","events","secretEnv"}]}',
      )
      .option('--prune', 'delete webhooks that are not in the file')
      .option('--dry-run', 'print the plan and change nothing')
      .action(act(() => import('./sync.js'))),
    [
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
  );

  examples(
    webhooks
      .command('listen')
      .description('Receive deliveries locally, verify their signatures, optionally forward them')
      .option('--port <n>', 'port to listen on (0 = any free port)', portNumber, 4020)
      .option('--host <host>', 'address to listen on', '127.0.0.1')
      .option('--secret <secret>', 'secret to verify signatures with (else SCHED_WEBHOOK_SECRET)')
      .option('--forward-to <url>', 're-send each delivery (raw body and headers) to this URL')
      .option(
        '--register <public-url>',
        'create a webhook for this public URL now, delete it on exit',
      )
      .option(
        '--event <name>',
        'events to subscribe with --register (repeatable; default all)',
        collect,
      )
      .action(act(() => import('./listen.js'))),
    [
      'sched webhooks listen --port 4020 --secret "$SECRET"',
      'sched webhooks listen --register https://abc.ngrok.app/hook --forward-to http://localhost:3000/hook',
      'sched webhooks listen --json | jq .event',
    ],
  );
}
