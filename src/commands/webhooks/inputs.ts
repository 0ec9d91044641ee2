// The arguments and options of every `sched webhooks` verb, declared once (see ../define.ts):
// index.ts registers them, and each verb's run() takes its type from here.
import { isUuid } from '../../api/uuid.js';
import { UsageError } from '../../errors.js';
import { quote } from '../../text/quote.js';
import { checkWebhookUrl } from '../../domain/webhooks/url.js';
import { SECRET_OUT_EXISTING } from '../../domain/webhooks/secret-out.js';
import {
  arg,
  flag,
  input,
  LOCAL_HOST,
  list,
  PAGE_GROUP,
  PAGE_OPTIONS,
  portNumber,
  positiveInt,
  seconds,
  SECRET_FLAG_RISK,
  value,
  webhookSecretOption,
  type InputOf,
} from '../define.js';
import { EVENT_NAMES } from '../../api/types.js';

export const addInput = input({
  options: [
    value('--url <url>', 'the endpoint URL (absolute http or https)'),
    list('--event <name>', `event to send: ${EVENT_NAMES.join(', ')} (repeatable; default all)`),
    // One secret choice: commander would fold --secret and --no-secret into one value (the
    // last one wins); the group makes a contradictory pair a usage error instead.
    value(
      '--secret <secret>',
      `signing secret to use (else --secret-stdin, else SCHED_WEBHOOK_SECRET, else a generated one; ${SECRET_FLAG_RISK}: prefer --secret-stdin)`,
      {
        exclusive: 'secret',
      },
    ),
    flag('--secret-stdin', 'read the signing secret from stdin', { exclusive: 'secret' }),
    flag('--no-secret', 'create an unsigned webhook', { exclusive: 'secret' }),
    value(
      '--secret-out <file>',
      `write a generated secret to this new file (mode 0600) instead of stdout; an existing file is never overwritten (${SECRET_OUT_EXISTING}, is used)`,
    ),
    flag(
      '--print-secret',
      'print a generated secret on stdout even in CI (CI set, stdout not a terminal), where it is otherwise refused',
    ),
    flag('--if-absent', 'do nothing when a webhook with this URL and events exists'),
  ],
});
export type WebhooksAddOptions = InputOf<typeof addInput>;

export const lsInput = input({ options: PAGE_OPTIONS, groups: [PAGE_GROUP] });
export type WebhooksLsOptions = InputOf<typeof lsInput>;

export const rmInput = input({
  args: [arg('[uuid...]', 'webhook UUIDs', { parse: webhookUuids })],
  options: [
    value('--url <url>', 'delete every webhook with this URL', {
      parse: (url) => checkWebhookUrl(url, '--url'),
      exclusive: 'target',
    }),
    flag('--all', 'delete every webhook', { exclusive: 'target' }),
    flag('-y, --yes', 'do not ask for confirmation'),
  ],
  // Exactly one way of choosing: UUIDs, --url or --all.
  groups: [
    {
      name: 'target',
      args: true,
      required: true,
      missing: 'say which webhooks to delete: give their UUIDs, --url <url>, or --all',
      tooMany: 'give webhook UUIDs, --url or --all, not more than one of them',
      hint: '`sched webhooks ls` shows the UUIDs and URLs',
    },
  ],
});

/** UUIDs checked before anything is sent; the same one twice is one webhook (not a false 404). */
function webhookUuids(args: string[]): string[] {
  const bad = args.filter((a) => !isUuid(a));
  if (bad.length > 0) {
    throw new UsageError(`not a webhook UUID: ${bad.map((b) => quote(b)).join(', ')}`, {
      hint: '`sched webhooks ls` shows the UUIDs; to delete by address use --url <url>',
    });
  }
  return [...new Set(args.map((a) => a.toLowerCase()))];
}
export type WebhooksRmOptions = InputOf<typeof rmInput>;

export const syncInput = input({
  options: [
    value('--file <path>', 'the desired webhooks: {"webhooks":[{"url","events","secretEnv"}]}', {
      required: true,
      parse: (path) => {
        if (path.trim() === '') throw new UsageError('--file needs a path (or - for stdin)');
        return path;
      },
    }),
    flag('--prune', 'delete webhooks that are not in the file'),
    flag(
      '--prune-all',
      '--prune, even when the file lists no webhook (without it, emptying the account is refused off a terminal)',
    ),
    flag('--dry-run', 'print the plan and change nothing (secretEnv variables need not be set)'),
    flag('-y, --yes', 'on a terminal, do not ask before a plan that deletes every webhook'),
  ],
});
export type WebhooksSyncOptions = InputOf<typeof syncInput>;

export const listenInput = input({
  options: [
    value('--port <n>', 'port to listen on (0 = any free port)', {
      parse: portNumber,
      default: 4020,
    }),
    value('--host <host>', 'address to listen on', { default: LOCAL_HOST }),
    webhookSecretOption('secret to verify signatures with', ''),
    list(
      '--forward-to <[event=]url>',
      're-send each delivery (exact body and headers) to this URL; event=url routes only that event there (repeatable)',
    ),
    value('--register <public-url>', 'create a webhook for this public URL now, delete it on exit'),
    list(
      '--event <name>',
      'keep only these events: others are answered 200, not shown or forwarded; --register subscribes to them (repeatable)',
    ),
    flag(
      '--forward-unverified',
      'with a secret, forward deliveries whose signature is invalid or missing too (default: only valid ones)',
    ),
    value(
      '--count <n>',
      'stop after n kept deliveries (with a secret, n verified ones; their forwards done), exit 0',
      {
        parse: positiveInt('--count'),
      },
    ),
    value(
      '--max-time <seconds>',
      'stop after this long; with --count, exit 1 when fewer than n arrived',
      { parse: seconds('--max-time') },
    ),
    value(
      '--record <file>',
      'append every delivery received (headers, exact body, verdict) to this NDJSON file, mode 0600, for `events replay`; with a secret, unverified ones without their body',
    ),
    flag(
      '--record-unverified',
      'with --record and a secret, record the bodies of deliveries whose signature is invalid or missing too',
    ),
  ],
});
export type WebhooksListenOptions = InputOf<typeof listenInput>;
