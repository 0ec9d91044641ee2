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
import {
  chooseSecret,
  generateSecret,
  secretGoes,
  SECRET_VARIABLE,
  type SecretChoice,
} from '../../domain/webhooks/secret.js';
import type { Context } from '../../context.js';
import type { WebhooksAddOptions } from './inputs.js';
import type { Prompter } from '../../prompt.js';
import { messageOf, OutputFailed, UsageError } from '../../errors.js';
import type { ApiClient } from '../../api/client.js';
import { invocationOf, webhookRemoveHint } from '../../text/hints.js';
import { EVENT_NAMES, type EventName, type Webhook } from '../../api/types.js';
import { show } from '../../output/render.js';
import { nonEmptySecret, readPayload } from '../../domain/webhooks/input.js';
import { checkWebhookUrl, urlKey } from '../../domain/webhooks/url.js';
import { sameEvents } from '../../domain/webhooks/sync/plan.js';
import { defaultEvents, parseEventList } from '../../domain/webhooks/event-names.js';
import { allWebhooks, WEBHOOK_COLUMNS } from './common.js';
import { forcedTTY } from '../../io.js';
import { openSecretFile, type SecretFile } from '../../domain/webhooks/secret-out.js';

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
  if (mode === 'generate') return { kind: mode };
  if (mode === 'none') return { kind: mode, from: 'prompt' };
  const secret = await prompter.password('Secret', { validate: nonEmptySecret });
  return { kind: 'given', secret, from: 'prompt' };
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

/**
 * The generated secret of a webhook just created could not be written (stdout or --secret-out
 * failed): nobody has it, and it is never put on stderr (SECURITY.md), so the webhook is
 * deleted — a change begun finishes its own steps, whatever the output does — and that is said.
 */
async function secretLost(
  ctx: Context,
  client: ApiClient,
  uuid: string,
  failure: OutputFailed,
): Promise<OutputFailed> {
  const { deleteWebhook } = await import('../../api/endpoints.js');
  try {
    await deleteWebhook(client, uuid);
    return failure.afterChange(
      `the new webhook ${uuid} was deleted, since its signing secret could not be kept`,
    );
  } catch (e) {
    return failure.afterChange(
      `the new webhook ${uuid} has a signing secret nobody has, and deleting it failed: ${messageOf(e)}`,
      [],
      `delete it: ${webhookRemoveHint(invocationOf(ctx.globals), uuid)}`,
    );
  }
}

export async function run(ctx: Context, flags: WebhooksAddOptions): Promise<void> {
  const { io, globals } = ctx;
  // The variable `sig`, `events send` and `listen` verify with is the one a new webhook signs
  // with; giving more than one of --secret, --secret-stdin and --no-secret is refused before
  // run (their `exclusive` group).
  const given = chooseSecret({ flag: flags.secret, stdin: flags.secretStdin }, ctx.env);
  const eventsFlag = flags.event ? parseEventList(flags.event) : undefined;

  let url: string;
  let events: EventName[];
  let secret: SecretChoice;
  if (typeof flags.url === 'string') {
    url = checkWebhookUrl(flags.url, '--url');
    events = eventsFlag ?? defaultEvents();
    secret =
      given.kind === 'stdin'
        ? { kind: 'given', secret: await readSecretFromStdin(ctx), from: 'stdin' }
        : given.kind === 'absent'
          ? { kind: 'generate' }
          : given;
  } else if (io.canPrompt() && given.kind !== 'stdin') {
    const asked = { events: eventsFlag, secret: given.kind === 'absent' ? undefined : given };
    ({ url, events, secret } = await ask(ctx, asked));
  } else {
    throw new UsageError('--url is required', {
      hint: 'e.g. sched webhooks add --url https://example.com/hooks/sched',
    });
  }

  const goes = secretGoes(secret, {
    file: flags.secretOut,
    print: flags.printSecret,
    terminal: io.stdoutIsTTY && !forcedTTY(ctx.env),
    env: ctx.env,
  });
  if (goes.unused) {
    io.err(`Note: ${SECRET_VARIABLE} is set, so no secret is generated; ${goes.unused} is unused.`);
  }

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

  if (secret.kind === 'given' && secret.from === 'env') {
    io.err('Signing with the secret from SCHED_WEBHOOK_SECRET.');
  }
  const generated = secret.kind === 'generate' ? generateSecret() : undefined;
  // The file is opened before the webhook exists: a path that cannot be written stops here.
  const file: SecretFile | undefined =
    generated && goes.file !== undefined ? await openSecretFile(goes.file) : undefined;
  const { createWebhook } = await import('../../api/endpoints.js');
  let created: Webhook;
  try {
    created = await createWebhook(
      client,
      { url, events, secret: secret.kind === 'given' ? secret.secret : generated },
      { signal: ctx.signal, invocation: invocationOf(ctx.globals) },
    );
  } catch (e) {
    await file?.discard();
    throw e;
  }

  // The secret to keep is the one the service will sign with; it echoes it on creation.
  const newSecret = generated && (typeof created.secret === 'string' ? created.secret : generated);
  const shownSecret = goes.stdout ? newSecret : undefined;
  if (file && newSecret) {
    try {
      await file.write(newSecret);
    } catch (e) {
      await file.discard();
      const target = { kind: 'file', flag: '--secret-out', path: file.path } as const;
      throw await secretLost(ctx, client, created.uuid, new OutputFailed(target, e));
    }
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
  try {
    await show(io, globals, {
      records: [created],
      one: true,
      columns: shownSecret
        ? [...WEBHOOK_COLUMNS, { key: 'secret', value: () => shownSecret, style: 'yellow' }]
        : WEBHOOK_COLUMNS,
      // -q: the one value that cannot be got again, the generated secret; else the new UUID.
      lines: (w) => shownSecret ?? w.uuid,
    });
  } catch (e) {
    if (!(e instanceof OutputFailed)) throw e;
    // A generated secret that reached nobody: the webhook is useless (and never on stderr).
    if (shownSecret) throw await secretLost(ctx, client, created.uuid, e);
    throw e.afterChange(`webhook ${created.uuid} was created`);
  }

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
