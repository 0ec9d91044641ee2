// sched webhooks add --url <url> [--event <name>]... [--secret <s> | --secret-stdin | --no-secret]
//                    [--if-absent]
//
// Secure by default: with no secret option a strong secret is generated and printed once, on
// stdout, since the service never shows it again; or written to the 0600 file --secret-out
// names. In CI (CI set, stdout not a terminal) stdout is the job's log: a generated secret is
// then made only when the user said where it goes (--secret-out or --print-secret), as the
// Stripe CLI prints a secret only on --print-secret. A secret is never written to stderr, and a
// secret the user gave is never echoed (except inside --json, which is the API's object).
// Everything that can be checked locally is checked before any request.
import { generateSecret } from '../../domain/webhooks/secret.js';
import type { Context } from '../../context.js';
import type { WebhooksAddOptions } from './inputs.js';
import type { Prompter } from '../../prompt.js';
import { messageOf, UsageError } from '../../errors.js';
import { EVENT_NAMES, type EventName, type Webhook } from '../../api/types.js';
import { show } from '../../output/render.js';
import { nonEmptySecret, readPayload, secretFlag } from '../../domain/webhooks/input.js';
import { checkWebhookUrl, urlKey } from '../../domain/webhooks/url.js';
import { sameEvents } from '../../domain/webhooks/sync/plan.js';
import { defaultEvents, parseEventList } from '../../domain/webhooks/event-names.js';
import { allWebhooks, WEBHOOK_COLUMNS } from './common.js';
import { forcedTTY } from '../../io.js';
import { openSecretFile, type SecretFile } from '../../domain/webhooks/secret-out.js';

type SecretChoice =
  { kind: 'generate' } | { kind: 'given'; secret: string; fromEnv?: true } | { kind: 'none' };

const MAX_SECRET_BYTES = 64 * 1024;

async function readSecretFromStdin(ctx: Context): Promise<string> {
  if (ctx.io.stdinIsTTY) {
    throw new UsageError('--secret-stdin reads the secret from a pipe or a file, not a terminal', {
      hint: 'printf %s "$SECRET" | sched webhooks add --url <url> --secret-stdin',
    });
  }
  const bytes = await readPayload(ctx, { file: undefined, label: 'stdin' });
  if (bytes.length > MAX_SECRET_BYTES) {
    throw new UsageError('the secret on stdin is too long (more than 64 KiB)');
  }
  // One trailing newline is what `echo` and most editors add; anything else is kept as given.
  const secret = bytes.toString('utf8').replace(/\r?\n$/, '');
  if (secret === '') throw new UsageError('the secret read from stdin (--secret-stdin) is empty');
  return secret;
}

// Giving more than one of --secret, --secret-stdin and --no-secret is refused before run (their
// `exclusive` group in index.ts).
function secretFromFlags(flags: WebhooksAddOptions): SecretChoice | 'stdin' | undefined {
  if (typeof flags.secret === 'string') return { kind: 'given', secret: secretFlag(flags.secret) };
  if (flags.secret === false) return { kind: 'none' };
  if (flags.secretStdin === true) return 'stdin';
  return undefined;
}

function validUrl(v: string): true | string {
  try {
    checkWebhookUrl(v.trim(), 'the URL');
    return true;
  } catch (e) {
    return messageOf(e);
  }
}

async function askSecret(prompter: Prompter): Promise<SecretChoice> {
  const mode = await prompter.select('Signing secret', [
    { name: 'Generate a strong secret (recommended)', value: 'generate' as const },
    { name: 'Enter my own secret', value: 'enter' as const },
    { name: 'None: unsigned deliveries', value: 'none' as const },
  ]);
  if (mode !== 'enter') return { kind: mode };
  const secret = await prompter.password('Secret', { validate: nonEmptySecret });
  return { kind: 'given', secret };
}

/** The questions asked on a terminal when --url is missing (each only if not given by flag). */
async function ask(
  ctx: Context,
  given: { events: EventName[] | undefined; secret: SecretChoice | undefined },
): Promise<{ url: string; events: EventName[]; secret: SecretChoice }> {
  const prompter = await ctx.prompter();
  const url = (
    await prompter.input('Webhook URL (absolute http or https)', { validate: validUrl })
  ).trim();
  const events =
    given.events ??
    (await prompter.checkbox(
      'Events to send',
      EVENT_NAMES.map((e) => ({ name: e, value: e, checked: defaultEvents().includes(e) })),
      { required: true },
    ));
  const secret = given.secret ?? (await askSecret(prompter));
  return { url, events: EVENT_NAMES.filter((e) => events.includes(e)), secret };
}

/** CI set (to anything but empty, 0 or false), as CI services and gh read it. */
function inCI(env: Record<string, string | undefined>): boolean {
  const v = env.CI;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/**
 * Where a generated secret goes: the --secret-out file, else stdout. Refused before any request
 * (nothing created): the destination flags with a secret the user gave by flag, and a generated
 * secret bound for a CI job's log (stdout not a real terminal) that the user did not ask for.
 */
function generatedSecretDestination(
  ctx: Context,
  flags: WebhooksAddOptions,
  secret: SecretChoice,
): string | undefined {
  const out = typeof flags.secretOut === 'string' ? flags.secretOut : undefined;
  const chosen = out !== undefined || flags.printSecret === true;
  const named = out !== undefined ? '--secret-out' : '--print-secret';
  if (chosen && secretFromFlags(flags) !== undefined) {
    throw new UsageError(
      `${named} is for a generated secret; --secret, --secret-stdin and --no-secret generate none`,
      { hint: `drop ${named}, or drop the secret option to have one generated` },
    );
  }
  if (secret.kind === 'given' && secret.fromEnv && chosen) {
    ctx.io.err(`Note: SCHED_WEBHOOK_SECRET is set, so no secret is generated; ${named} is unused.`);
    return undefined;
  }
  if (secret.kind !== 'generate' || chosen) return out;
  const terminal = ctx.io.stdoutIsTTY && !forcedTTY(ctx.env);
  if (inCI(ctx.env) && !terminal) {
    throw new UsageError(
      'in CI a generated signing secret would be printed into the job log; nothing was created',
      {
        hint:
          'say where it goes: --secret-out <file> (written 0600), or --print-secret; ' +
          'or give your own with SCHED_WEBHOOK_SECRET or --secret-stdin',
      },
    );
  }
  return undefined;
}

export async function run(ctx: Context, flags: WebhooksAddOptions): Promise<void> {
  const { io, globals } = ctx;
  // --secret > --secret-stdin > SCHED_WEBHOOK_SECRET > generated: the variable `sig`,
  // `events send` and `listen` verify with is the one a new webhook signs with.
  const fromEnv = ctx.env.SCHED_WEBHOOK_SECRET;
  const secretFlag =
    secretFromFlags(flags) ??
    (fromEnv ? { kind: 'given', secret: fromEnv, fromEnv: true } : undefined);
  const eventsFlag = flags.event ? parseEventList(flags.event) : undefined;

  let url: string;
  let events: EventName[];
  let secret: SecretChoice;
  if (typeof flags.url === 'string') {
    url = checkWebhookUrl(flags.url, '--url');
    events = eventsFlag ?? defaultEvents();
    secret =
      secretFlag === 'stdin'
        ? { kind: 'given', secret: await readSecretFromStdin(ctx) }
        : (secretFlag ?? { kind: 'generate' });
  } else if (io.canPrompt() && secretFlag !== 'stdin') {
    ({ url, events, secret } = await ask(ctx, { events: eventsFlag, secret: secretFlag }));
  } else {
    throw new UsageError('--url is required', {
      hint: 'e.g. sched webhooks add --url https://example.com/hooks/sched',
    });
  }

  const secretOut = generatedSecretDestination(ctx, flags, secret);

  // A secret the user gave is never shown, in whatever a server echoes (the output gate).
  if (secret.kind === 'given') io.addSecrets([secret.secret]);
  const client = await ctx.api();

  if (flags.ifAbsent === true) {
    const sameUrl = (await allWebhooks(ctx, client)).filter((w) => urlKey(w.url) === urlKey(url));
    const match = sameUrl.find((w) => Array.isArray(w.events) && sameEvents(w.events, events));
    if (match) {
      io.err(
        `A webhook for this URL with these events already exists (${match.uuid}); nothing was created.`,
      );
      await show(io, globals, {
        records: [match],
        one: true,
        columns: WEBHOOK_COLUMNS,
        lines: (w) => w.uuid,
      });
      return;
    }
    if (sameUrl.length > 0 && !globals.quiet) {
      io.err(
        `Note: ${sameUrl.length === 1 ? 'a webhook' : `${sameUrl.length} webhooks`} for this URL ` +
          `already ${sameUrl.length === 1 ? 'exists' : 'exist'} with other events; creating another one.`,
      );
    }
  }

  if (secret.kind === 'given' && secret.fromEnv) {
    io.err('Signing with the secret from SCHED_WEBHOOK_SECRET.');
  }
  const generated = secret.kind === 'generate' ? generateSecret() : undefined;
  // The file is opened before the webhook exists: a path that cannot be written stops here.
  const file: SecretFile | undefined =
    generated && secretOut !== undefined ? await openSecretFile(secretOut) : undefined;
  const { createWebhook } = await import('../../api/endpoints.js');
  let created: Webhook;
  try {
    created = await createWebhook(
      client,
      { url, events, secret: secret.kind === 'given' ? secret.secret : generated },
      { signal: ctx.signal },
    );
  } catch (e) {
    await file?.discard();
    throw e;
  }

  // The secret to keep is the one the service will sign with; it echoes it on creation.
  const newSecret = generated && (typeof created.secret === 'string' ? created.secret : generated);
  const shownSecret = flags.printSecret === true || !file ? newSecret : undefined;
  if (file && newSecret) {
    await file.write(newSecret);
    if (!globals.quiet)
      io.err(
        `The signing secret is in ${file.path} (mode 0600): the service never shows it again.`,
      );
    // Kept out of every output, as sync's objects carry it: `"secret": null`.
    if (!shownSecret) {
      io.addSecrets([newSecret]);
      created = { ...created, secret: null };
    }
  }
  await show(io, globals, {
    records: [created],
    one: true,
    columns: shownSecret
      ? [...WEBHOOK_COLUMNS, { key: 'secret', value: () => shownSecret, style: 'yellow' }]
      : WEBHOOK_COLUMNS,
    // -q: the one value that cannot be got again, the generated secret; else the new UUID.
    lines: (w) => shownSecret ?? w.uuid,
  });

  // -q keeps stderr to what matters: a secret printed alone on stdout needs no instructions,
  // but an unsigned webhook is still a risk worth a line.
  if (shownSecret && !file && !globals.quiet) {
    // Two lines, each under 80 columns.
    io.err(
      io.colorErr.yellow(
        'Store the signing secret now (on stdout): the service never shows it again.',
      ),
    );
    io.err(io.colorErr.yellow('Your receiver needs it to verify the webhook-signature header.'));
  } else if (secret.kind === 'none') {
    io.err(
      io.colorErr.yellow(
        'This webhook is unsigned: a receiver cannot tell its deliveries from forged ones.',
      ),
    );
  }
}
