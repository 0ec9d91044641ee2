// `sched webhooks listen`: a local receiver for deliveries. Each delivery is answered 200 at
// once (so the sender never retries because of us), then shown: time, event, meeting, invitee,
// start and the signature verdict (valid | invalid | missing | unchecked), or one NDJSON object
// with --json. Optionally re-sent to --forward-to, and optionally subscribed for its lifetime
// with --register (created on start, deleted on stop: Ctrl-C, SIGTERM or a closed stdout).
//
// Stopping: Ctrl-C, SIGTERM or a closed stdout (`| head -1`) is a server's normal end. The
// summary ("stopped …; deleted webhook …") goes to stderr and the exit code is 0 — or 1, naming
// the webhook left behind, when --register could not delete it. An invalid signature's likely
// cause is on its line and, with --json, in signatureReason.
//
// The parts live in src/webhooks/listen/: receiver (HTTP, bounded body reads), dedupe, record
// (signature verdict, the --json line), render, forward and register; this file wires them.
import { randomBytes } from 'node:crypto';
import { addAbortListener } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Context } from '../../context.js';
import type { WebhooksListenOptions } from './inputs.js';
import { LOCAL_HOST } from '../define.js';
import type { EventName } from '../../api/types.js';
import { Failure, messageOf, QuietExit, UsageError, whenAborted } from '../../errors.js';
import {
  canonicalEventName,
  eventNameProblem,
  parseEventList,
} from '../../webhooks/event-names.js';
import { quote } from '../../text/quote.js';
import { checkWebhookUrl } from '../../webhooks/url.js';
import { resolveSecret } from '../../webhooks/input.js';
import { diagnoseSignature, likelyCause } from '../../webhooks/signature.js';
import { SeenNotifications } from '../../webhooks/listen/dedupe.js';
import { forwardDelivery, targetsFor, type ForwardTarget } from '../../webhooks/listen/forward.js';
import { deliveryRecord, signatureHeader, signatureVerdict } from '../../webhooks/listen/record.js';
import { ListenerWebhook, type WebhookApi } from '../../webhooks/listen/register.js';
import { deliveryLine, displayUrl, forwardLine } from '../../webhooks/listen/render.js';
import { listenFailure } from '../../http/listen.js';
import { answerNonDelivery, startReceiver, type Receiver } from '../../webhooks/listen/receiver.js';
import { renderText } from '../../output/render.js';

export async function run(ctx: Context, flags: WebhooksListenOptions): Promise<void> {
  // Everything is checked before a port is opened or a request is made.
  const port = flags.port;
  // A blank --host means the default one.
  const host = flags.host.trim() || LOCAL_HOST;
  let registerUrl: string | undefined;
  if (flags.register !== undefined) {
    // The same rule as `webhooks add --url`: what add refuses is never registered.
    registerUrl = checkWebhookUrl(flags.register, '--register');
  }
  // --event keeps only those events (and is what --register subscribes to).
  const kept: EventName[] | undefined =
    flags.event !== undefined ? parseEventList(flags.event) : undefined;
  const events: EventName[] = kept ?? parseEventList(undefined);
  const forwardTo = forwardTargets(flags.forwardTo ?? [], kept);

  const given = await resolveSecret(ctx, flags.secret, { prompt: false, why: '' });
  let secret = given?.secret;
  let secretNote = given
    ? `verifying signatures with the secret from ${given.source === 'flag' ? '--secret' : 'SCHED_WEBHOOK_SECRET'}`
    : 'not checking signatures (no --secret or SCHED_WEBHOOK_SECRET)';
  let generatedSecret = false;
  if (registerUrl && !secret) {
    secret = randomBytes(32).toString('base64url');
    generatedSecret = true;
    secretNote = 'verifying signatures with a generated secret, given to the webhook it registers';
  }

  const json = ctx.globals.output === 'json' || ctx.globals.output === 'ndjson';
  const io = ctx.io;

  // Stops on Ctrl-C/SIGTERM, and when stdout goes away.
  const stop = new AbortController();
  let stdoutClosed = false;
  const listening = addAbortListener(ctx.signal, () => stop.abort());
  ctx.defer(() => listening[Symbol.dispose]());

  const write = async (text: string) => {
    if (stdoutClosed) return;
    try {
      await renderText(io, text);
    } catch (e) {
      if (e instanceof QuietExit) {
        stdoutClosed = true;
        stop.abort();
        return;
      }
      throw e;
    }
  };

  const seen = new SeenNotifications();
  let count = 0;
  let skipped = 0;
  let warnedUnchecked = false;
  const inFlight = new Set<Promise<void>>();

  async function handleDelivery(req: IncomingMessage, body: Buffer): Promise<void> {
    const receivedAt = new Date();
    const header = signatureHeader(req);
    const signature = signatureVerdict(secret, header, body);
    // The likely cause goes on the line (and into --json); any other lead goes to stderr.
    const diagnoses =
      signature === 'invalid' && secret && header !== undefined
        ? diagnoseSignature({ secret, received: header, payload: body })
        : [];
    const signatureReason =
      signature === 'invalid'
        ? likelyCause(diagnoses, { kept: true, bytes: body.length })
        : undefined;
    const record = deliveryRecord(req, body, {
      receivedAt,
      signature,
      signatureReason,
      duplicate: false,
    });
    if (kept && !kept.some((e) => e === record.event)) {
      // Answered 200 already, like every delivery; neither shown nor forwarded.
      skipped += 1;
      return;
    }
    const { duplicate, firstAt } = seen.check(record.uuid ?? undefined, receivedAt);
    record.duplicate = duplicate;
    count += 1;

    if (!json) await write(deliveryLine(io.color, record, receivedAt, firstAt) + '\n');
    for (const d of diagnoses) {
      if (d.reason !== signatureReason) io.err(`  ${d.confirmed ? 'cause' : 'check'}: ${d.reason}`);
    }
    if (signature === 'unchecked' && header !== undefined && !warnedUnchecked) {
      warnedUnchecked = true;
      io.err('note: deliveries are signed; give --secret (or SCHED_WEBHOOK_SECRET) to check them');
    }

    const targets = targetsFor(forwardTo, record.event ?? undefined);
    if (targets.length > 0) {
      const reports = await forwardDelivery(
        targets,
        { body, headers: req.headers },
        { timeoutMs: ctx.globals.timeoutMs, signal: stop.signal },
      );
      record.forward = reports[0];
      if (!json) for (const f of reports) await write(forwardLine(io.color, f) + '\n');
      // Every target's report, in the order given (`forward` keeps the first, as before).
      if (json) return write(JSON.stringify({ ...record, forwards: reports }) + '\n');
    }
    if (json) await write(JSON.stringify(record) + '\n');
  }

  let receiver: Receiver;
  try {
    receiver = await startReceiver({
      port,
      host,
      early: (req, res) => answerNonDelivery(req, res, (line) => io.err(line)),
      onBody(req, body, res) {
        // Answer first: the sender should never wait for our printing or forwarding.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"received":true}');
        const p = handleDelivery(req, body).catch((e: unknown) => {
          io.err(`error: could not handle a delivery: ${messageOf(e)}`);
        });
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p));
      },
      onTooLarge({ size, declared, maxBytes }) {
        io.err(
          declared
            ? `note: refused a ${size}-byte body (over ${maxBytes} bytes) with 413`
            : `note: refused a body over ${maxBytes} bytes with 413`,
        );
      },
    });
  } catch (e) {
    throw listenFailure(e as NodeJS.ErrnoException, host, port);
  }
  ctx.defer(() => receiver.close());
  const localUrl = displayUrl(host, receiver.port);
  io.err(`listening on ${localUrl} (any path); ${secretNote}`);
  if (kept) {
    io.err(`keeping only ${kept.join(', ')}; other events are answered 200 and skipped`);
  }
  for (const t of forwardTo) {
    io.err(`forwarding ${t.events ? t.events.join(', ') : 'each delivery'} to ${t.url.toString()}`);
  }

  // --register: the webhook exists exactly as long as this listener.
  const registration = new ListenerWebhook(
    () => webhookApi(ctx),
    (line) => io.err(line),
  );
  ctx.defer(() => registration.unregister());
  if (registerUrl && !stop.signal.aborted) {
    const registered = await registration.register({
      url: registerUrl,
      events,
      secret,
      stop: stop.signal,
      interrupt: ctx.signal,
    });
    if (typeof registered.secret === 'string' && registered.secret !== '') {
      secret = registered.secret;
    }
    io.err(`registered webhook ${registered.uuid} for ${registerUrl} (${events.join(', ')})`);
    if (generatedSecret && forwardTo.length > 0) {
      // The app behind --forward-to must verify with this secret; it is shown once, like
      // `sched webhooks add` shows a generated one.
      io.err(`signing secret (shown once, give --secret to choose it): ${secret}`);
    }
  }
  if (!stop.signal.aborted) io.err(io.colorErr.dim('ready; Ctrl-C to stop'));

  await whenAborted(stop.signal);

  await receiver.close();
  await Promise.allSettled([...inFlight]);
  await registration.unregister();
  if (kept) {
    io.err(
      `skipped ${skipped} ${skipped === 1 ? 'delivery' : 'deliveries'} of other events than ${kept.join(', ')}`,
    );
  }
  const summary = `stopped listening on ${localUrl} after ${count} ${count === 1 ? 'delivery' : 'deliveries'}`;
  io.err(summary + (registration.outcome ? `; ${registration.outcome}` : ''));
  if (registration.failed && registration.webhook) {
    const { uuid } = registration.webhook;
    throw new Failure(`the webhook ${uuid} for ${registerUrl} was left behind`, {
      hint: `remove it with \`sched webhooks rm ${uuid}\``,
    });
  }
  // Ctrl-C or SIGTERM is how a server is meant to end (like a closed stdout): a clean stop is
  // exit 0, with nothing left behind.
}

/**
 * The --forward-to values: `url` receives every kept delivery, `event=url` only that event's.
 * Each URL passes the rule of `webhooks add --url`, each event the event-name rule; a route
 * for an event that --event does not keep would never fire, so it is a mistake.
 */
export function forwardTargets(
  values: readonly string[],
  kept: readonly EventName[] | undefined,
): ForwardTarget[] {
  return values.map((raw) => {
    const eq = raw.indexOf('=');
    const head = eq > 0 ? raw.slice(0, eq) : '';
    // `https://x/?a=b` is a plain URL: an event name has neither ':' nor '/'.
    if (head === '' || /[:/]/.test(head)) {
      return { url: new URL(checkWebhookUrl(raw, '--forward-to')) };
    }
    const event = canonicalEventName(head);
    if (!event) {
      throw new UsageError(`--forward-to ${quote(raw)}: ${eventNameProblem(head)}`, {
        hint: 'route one event as <event>=<url>, e.g. meetingCancelled=http://localhost:3000/cancel',
      });
    }
    if (kept && !kept.includes(event)) {
      throw new UsageError(
        `--forward-to ${event}=… would receive nothing: --event keeps only ${kept.join(', ')}`,
        { hint: `add --event ${event}, or drop that route` },
      );
    }
    return { url: new URL(checkWebhookUrl(raw.slice(eq + 1), '--forward-to')), events: [event] };
  });
}

/** The webhook calls of --register, on the command's API client (loaded when first needed). */
async function webhookApi(ctx: Context): Promise<WebhookApi> {
  const { createWebhook, removeWebhook, webhooks } = await import('../../api/endpoints.js');
  const { adaptivePageLimiter } = await import('../../bulk/page-walk.js');
  const client = await ctx.api();
  return {
    list: (signal) => webhooks(client, { all: true, signal, limiter: adaptivePageLimiter }),
    create: (input) => createWebhook(client, input),
    remove: (uuid) => removeWebhook(client, uuid),
  };
}
