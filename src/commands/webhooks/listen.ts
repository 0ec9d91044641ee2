// `sched webhooks listen`: a local receiver for deliveries. Each delivery is answered 200 at
// once (so the sender never retries because of us), then shown: time, event, meeting, invitee,
// start and the signature verdict (valid | invalid | missing | unchecked), or one NDJSON object
// with --json. Optionally re-sent to --forward-to, and optionally subscribed for its lifetime
// with --register (created on start, deleted on stop: Ctrl-C, SIGTERM or a closed stdout).
//
// This file parses the flags and prints; the listener (src/domain/webhooks/listen/listener.ts)
// owns the loop, the counting, forwarding, recording, registration and clean-up.
import type { Context } from '../../context.js';
import type { WebhooksListenOptions } from './inputs.js';
import { LOCAL_HOST } from '../define.js';
import { OutputFailed, UsageError } from '../../errors.js';
import { parseEventList } from '../../domain/webhooks/event-names.js';
import { checkWebhookUrl } from '../../domain/webhooks/url.js';
import { chooseSecret, generateSecret, secretGoes } from '../../domain/webhooks/secret.js';
import { CaptureFile } from '../../domain/webhooks/listen/capture.js';
import { Listener } from '../../domain/webhooks/listen/listener.js';
import type { WebhookApi } from '../../domain/webhooks/listen/register.js';
import { forwardTargets } from '../../domain/webhooks/listen/targets.js';
import * as show from '../../domain/webhooks/listen/render.js';
import { listenFailure } from '../../http/listen.js';
import { printsData, renderText } from '../../output/render.js';
import { invocationOf } from '../../text/hints.js';

export async function run(ctx: Context, flags: WebhooksListenOptions): Promise<void> {
  const o = await settings(ctx, flags);
  const capture = flags.record !== undefined ? await CaptureFile.open(flags.record) : undefined;
  if (capture) ctx.defer(() => capture.close());
  const { io } = ctx;
  const json = printsData(ctx.globals);
  // stdout that failed stops the listener (its webhook still deleted): a reader that left
  // (`| head -1`) is a server's normal end; a full disk is said after the clean-up, exit 1.
  let stdoutFailed: OutputFailed | undefined;
  const write = async (text: string) => {
    if (stdoutFailed || text === '') return;
    try {
      await renderText(io, text);
    } catch (e) {
      if (!(e instanceof OutputFailed)) throw e;
      stdoutFailed = e;
      listener.interrupt();
    }
  };
  const listener: Listener = new Listener(
    {
      ...{ host: o.host, kept: o.kept, forwardTo: o.forwardTo, capture, signal: ctx.signal },
      ...{ port: flags.port, limit: flags.count, maxTimeS: flags.maxTime },
      secret: o.given?.secret ?? o.generated,
      forwardAll: o.forwardAll,
      recordUnverified: flags.recordUnverified === true,
      register: o.registerUrl
        ? { url: o.registerUrl, events: o.events, api: () => webhookApi(ctx) }
        : undefined,
      timeoutMs: ctx.globals.timeoutMs,
      env: ctx.env,
      invocation: invocationOf(ctx.globals),
    },
    { event: (e) => write(show.eventText(e, json, io.color)), note: (line) => io.err(line) },
  );
  ctx.defer(() => listener.close());
  const port = await listener.listen().catch((e: NodeJS.ErrnoException) => {
    throw listenFailure(e, o.host, flags.port);
  });
  const localUrl = show.displayUrl(o.host, port);
  for (const line of show.startLines({ ...o, localUrl, capture: capture?.file })) io.err(line);
  const elsewhere = o.registerUrl && show.registerPortWarning(o.registerUrl, port);
  if (elsewhere) io.err(`${io.colorErr.yellow('warning:')} ${elsewhere}`);

  const webhook = await listener.register();
  // The app behind --forward-to must verify with a generated secret: shown once, on stdout
  // (like `webhooks add`), never on stderr (a CI log).
  const shown = webhook && o.generated && o.shownSecret ? listener.verifyingWith : '';
  for (const line of show.registeredLines(webhook, { ...o, shown: Boolean(shown) })) io.err(line);
  if (!listener.stopping) {
    // The ready line: a script waits for it (or for the first --json line) before it triggers.
    if (json)
      await write(
        JSON.stringify({ listening: localUrl, ...(shown ? { secret: shown } : {}) }) + '\n',
      );
    else if (shown) await write(`signing secret: ${shown}\n`);
    io.err(io.colorErr.dim(show.readyLine(flags.count, flags.maxTime)));
  }
  const summary = await listener.run();
  for (const line of show.stopLines(summary, { localUrl, kept: o.kept, capture: capture?.file }))
    io.err(line);
  // A clean stop is exit 0, unless the webhook was left behind or --max-time came first.
  const failure = show.stopFailure(summary, {
    ...o,
    limit: flags.count,
    maxTimeS: flags.maxTime,
    invocation: invocationOf(ctx.globals),
  });
  if (failure) throw failure;
  // The data asked for could not be written: the recording, or stdout (not a reader that left).
  if (capture?.error !== undefined) {
    throw new OutputFailed({ kind: 'file', flag: '--record', path: capture.file }, capture.error);
  }
  if (stdoutFailed && !stdoutFailed.readerLeft) throw stdoutFailed;
}

/** The flags checked, before a port is opened or a request is made. */
async function settings(ctx: Context, flags: WebhooksListenOptions) {
  const host = flags.host.trim() || LOCAL_HOST; // a blank --host means the default one
  // The same rule as `webhooks add --url`: what add refuses is never registered.
  const registerUrl =
    flags.register !== undefined ? checkWebhookUrl(flags.register, '--register') : undefined;
  // --event keeps only those events (and is what --register subscribes to).
  const kept = flags.event !== undefined ? parseEventList(flags.event) : undefined;
  const forwardTo = forwardTargets(flags.forwardTo ?? [], kept);
  if (flags.forwardUnverified === true && forwardTo.length === 0) {
    throw new UsageError('--forward-unverified needs --forward-to <url>');
  }
  if (flags.recordUnverified === true && flags.record === undefined) {
    throw new UsageError('--record-unverified needs --record <file>');
  }
  const choice = chooseSecret({ flag: flags.secret, generate: Boolean(registerUrl) }, ctx.env);
  const given = choice.kind === 'given' ? choice : undefined;
  // Never shown again, in whatever a receiver echoes (the output gate masks it).
  if (given) ctx.io.addSecrets([given.secret]);
  const generated = choice.kind === 'generate' ? generateSecret() : undefined;
  const needs = forwardTo.length > 0 ? ('app' as const) : ('nobody' as const);
  const shownSecret = secretGoes(choice, {
    needs,
    terminal: ctx.io.stdoutIsTTY,
    env: ctx.env,
  }).stdout;
  const events = kept ?? parseEventList(undefined);
  const secretFrom = generated
    ? ('generated' as const)
    : given && (given.from === 'flag' ? ('--secret' as const) : ('SCHED_WEBHOOK_SECRET' as const));
  // With a secret, only verified deliveries reach the app, unless the user opts in.
  const forwardAll = flags.forwardUnverified === true;
  return {
    ...{ host, registerUrl, kept, forwardTo, given, generated, events, secretFrom, forwardAll },
    shownSecret,
  };
}

/** The webhook calls of --register, on the command's API client (loaded when first needed). */
async function webhookApi(ctx: Context): Promise<WebhookApi> {
  const { createWebhook, removeWebhook, webhooks } = await import('../../api/endpoints.js');
  const { adaptivePageLimiter } = await import('../../bulk/page-walk.js');
  const client = await ctx.api();
  return {
    list: (signal) => webhooks(client, { all: true, signal, limiter: adaptivePageLimiter }),
    create: (input) => createWebhook(client, input, { invocation: invocationOf(ctx.globals) }),
    remove: (uuid) => removeWebhook(client, uuid),
  };
}
