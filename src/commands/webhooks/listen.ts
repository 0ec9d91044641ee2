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
// The parts live in src/domain/webhooks/listen/: receiver (HTTP, bounded body reads), dedupe, record
// (signature verdict, the --json line), render, forward and register; this file wires them.
import { addAbortListener } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Context } from '../../context.js';
import { jsonText } from '../../output/json-value.js';
import type { WebhooksListenOptions } from './inputs.js';
import { LOCAL_HOST } from '../define.js';
import type { EventName } from '../../api/types.js';
import { Failure, messageOf, QuietExit, UsageError, whenAborted } from '../../errors.js';
import {
  canonicalEventName,
  eventNameProblem,
  parseEventList,
} from '../../domain/webhooks/event-names.js';
import { quote, shellWord } from '../../text/quote.js';
import { checkWebhookUrl } from '../../domain/webhooks/url.js';
import { resolveSecret } from '../../domain/webhooks/input.js';
import { diagnoseSignature, likelyCause, NO_KNOWN_CAUSE } from '../../domain/webhooks/signature.js';
import { SeenNotifications } from '../../domain/webhooks/listen/dedupe.js';
import {
  forwardDelivery,
  forwardOk,
  targetsFor,
  type ForwardTarget,
} from '../../domain/webhooks/listen/forward.js';
import { CaptureFile, captureOf } from '../../domain/webhooks/listen/capture.js';
import { generateSecret } from '../../domain/webhooks/secret.js';
import {
  deliveryRecord,
  signatureHeader,
  signatureVerdict,
} from '../../domain/webhooks/listen/record.js';
import { ListenerWebhook, type WebhookApi } from '../../domain/webhooks/listen/register.js';
import {
  deliveryLine,
  displayUrl,
  forwardLine,
  notForwardedLine,
} from '../../domain/webhooks/listen/render.js';
import { listenFailure } from '../../http/listen.js';
import {
  answerNonDelivery,
  startReceiver,
  type Receiver,
} from '../../domain/webhooks/listen/receiver.js';
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
  const limit = flags.count;
  const maxTimeS = flags.maxTime;
  if (flags.forwardUnverified === true && forwardTo.length === 0) {
    throw new UsageError('--forward-unverified needs --forward-to <url>');
  }

  const given = await resolveSecret(ctx, flags.secret, { prompt: false, why: '' });
  let secret = given?.secret;
  let secretNote = given
    ? `verifying signatures with the secret from ${given.source === 'flag' ? '--secret' : 'SCHED_WEBHOOK_SECRET'}`
    : 'not checking signatures (no --secret or SCHED_WEBHOOK_SECRET)';
  let generatedSecret = false;
  if (registerUrl && !secret) {
    secret = generateSecret();
    generatedSecret = true;
    secretNote = 'verifying signatures with a generated secret, given to the webhook it registers';
  }
  // With a secret, only verified deliveries reach the app, unless the user opts in.
  const forwardAll = flags.forwardUnverified === true;

  const json = ctx.globals.output === 'json' || ctx.globals.output === 'ndjson';
  const io = ctx.io;
  const capture = flags.record !== undefined ? await CaptureFile.open(flags.record) : undefined;
  if (capture) ctx.defer(() => capture.close());

  // `hard` ends everything at once (Ctrl-C/SIGTERM, stdout gone): forwards under way stop too.
  // `end` stops listening: the same, or --count reached, or --max-time passed; deliveries
  // already received are then handled to the end (their forwards finish) before it stops.
  const hard = new AbortController();
  const end = new AbortController();
  let stdoutClosed = false;
  const listening = addAbortListener(ctx.signal, () => hard.abort());
  ctx.defer(() => listening[Symbol.dispose]());
  const stopHard = addAbortListener(hard.signal, () => end.abort('stopped'));
  ctx.defer(() => stopHard[Symbol.dispose]());

  const write = async (text: string) => {
    if (stdoutClosed) return;
    try {
      await renderText(io, text);
    } catch (e) {
      if (e instanceof QuietExit) {
        stdoutClosed = true;
        hard.abort();
        return;
      }
      throw e;
    }
  };

  const seen = new SeenNotifications();
  /** Kept deliveries accepted (answered 200 and shown), the --count that counts. */
  let count = 0;
  let skipped = 0;
  let warnedUnchecked = false;
  const unforwarded: string[] = [];
  const inFlight = new Set<Promise<void>>();
  const busySaid = new Set<string>();

  /** What is known of a delivery the moment it arrives (no I/O). */
  function receive(req: IncomingMessage, body: Buffer) {
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
        ? listenCause(likelyCause(diagnoses, { kept: true, bytes: body.length }))
        : undefined;
    const record = deliveryRecord(req, body, {
      receivedAt,
      signature,
      signatureReason,
      duplicate: false,
    });
    const isKept = !kept || kept.some((e) => e === record.event);
    return { receivedAt, header, signature, diagnoses, signatureReason, record, isKept };
  }

  async function handleDelivery(
    req: IncomingMessage,
    body: Buffer,
    d: ReturnType<typeof receive>,
  ): Promise<void> {
    const { record, receivedAt, signature, diagnoses, signatureReason, header } = d;
    if (capture) {
      await capture.append(
        captureOf(
          { method: record.method, path: record.path, rawHeaders: req.rawHeaders, body },
          {
            receivedAt,
            event: record.event,
            uuid: record.uuid,
            signature,
            signatureReason: record.signatureReason,
          },
        ),
      );
      if (capture.failed !== undefined && !captureSaid) {
        captureSaid = true;
        io.err(`error: could not write to ${capture.file}: ${capture.failed}; no longer recording`);
      }
    }
    if (!d.isKept) {
      // Answered 200 already, like every delivery; neither shown nor forwarded.
      skipped += 1;
      return;
    }
    const { duplicate, firstAt } = seen.check(
      record.uuid ?? undefined,
      receivedAt,
      signature === 'valid',
    );
    record.duplicate = duplicate;

    if (!json) await write(deliveryLine(io.color, record, receivedAt, firstAt) + '\n');
    for (const x of diagnoses) {
      if (x.reason !== signatureReason) io.err(`  ${x.confirmed ? 'cause' : 'check'}: ${x.reason}`);
    }
    if (signature === 'unchecked' && header !== undefined && !warnedUnchecked) {
      warnedUnchecked = true;
      io.err('note: deliveries are signed; give --secret (or SCHED_WEBHOOK_SECRET) to check them');
    }

    const targets = targetsFor(forwardTo, record.event ?? undefined);
    if (targets.length === 0) return json ? write(jsonText(record) + '\n') : undefined;
    if ((signature === 'invalid' || signature === 'missing') && !forwardAll) {
      if (!json) await write(notForwardedLine(io.color, signature) + '\n');
      else await write(jsonText({ ...record, notForwarded: `signature ${signature}` }) + '\n');
      return;
    }
    const reports = await forwardDelivery(
      targets,
      { body, headers: req.headers },
      { timeoutMs: ctx.globals.timeoutMs, signal: hard.signal, env: ctx.env },
    );
    record.forward = reports[0];
    if (!json) for (const f of reports) await write(forwardLine(io.color, f) + '\n');
    if (!reports.some(forwardOk) && !hard.signal.aborted) {
      // Nothing reached the app: say how to send it again once the app is fixed.
      unforwarded.push(record.uuid ?? '');
      io.err(
        capture && record.uuid
          ? `  not delivered to the app; once fixed: sched events replay ${shellWord(capture.file)} --uuid ${record.uuid} --to ${shellWord(targets[0]!.url.toString())}`
          : `  not delivered to the app${capture ? '' : ' (record deliveries with --record <file> to replay them later)'}`,
      );
    }
    // Every target's report, in the order given (`forward` keeps the first, as before).
    if (json) await write(jsonText({ ...record, forwards: reports }) + '\n');
  }
  let captureSaid = false;

  let receiver: Receiver;
  try {
    receiver = await startReceiver({
      port,
      host,
      early: (req, res) => answerNonDelivery(req, res, (line) => io.err(line)),
      onBody(req, body, res) {
        const d = receive(req, body);
        if (d.isKept && limit !== undefined && count >= limit) {
          // --count is reached and the listener is stopping: the sender should try again later
          // rather than have a delivery answered 200 and never shown.
          res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '5' });
          res.end('the listener is stopping\n');
          return;
        }
        // Answer first: the sender should never wait for our printing or forwarding.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"received":true}');
        if (d.isKept) count += 1;
        const last = d.isKept && count === limit;
        const p = handleDelivery(req, body, d).catch((e: unknown) => {
          io.err(`error: could not handle a delivery: ${messageOf(e)}`);
        });
        inFlight.add(p);
        void p.finally(() => {
          inFlight.delete(p);
          if (last) end.abort('count');
        });
        // Its bytes stay counted against the receiver's bound until it is handled.
        return p;
      },
      onTooLarge({ size, declared, maxBytes }) {
        io.err(
          declared
            ? `note: refused a ${size}-byte body (over ${maxBytes} bytes) with 413`
            : `note: refused a body over ${maxBytes} bytes with 413`,
        );
      },
      onBusy(b) {
        // Said once per kind: a flood must not flood stderr too.
        if (busySaid.has(b.kind)) return;
        busySaid.add(b.kind);
        io.err(
          b.kind === 'connections'
            ? `note: over ${b.limit} connections at once; answering 503 to more (senders retry later)`
            : `note: over ${b.limit / 1024 / 1024} MiB of deliveries held at once; answering 503 to more (senders retry later)`,
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
  if (forwardTo.length > 0 && secret) {
    io.err(
      forwardAll
        ? 'forwarding unverified deliveries too (--forward-unverified)'
        : 'forwarding only deliveries whose signature is valid',
    );
  }
  if (capture) io.err(`recording every delivery to ${capture.file}`);

  // --register: the webhook exists exactly as long as this listener.
  const registration = new ListenerWebhook(
    () => webhookApi(ctx),
    (line) => io.err(line),
  );
  ctx.defer(() => registration.unregister());
  let shownSecret: string | undefined;
  if (registerUrl && !end.signal.aborted) {
    const registered = await registration.register({
      url: registerUrl,
      events,
      secret,
      stop: end.signal,
      interrupt: ctx.signal,
    });
    if (typeof registered.secret === 'string' && registered.secret !== '') {
      secret = registered.secret;
    }
    io.err(`registered webhook ${registered.uuid} for ${registerUrl} (${events.join(', ')})`);
    if (generatedSecret && forwardTo.length > 0) {
      // The app behind --forward-to must verify with this secret; it is shown once, like
      // `sched webhooks add` shows a generated one: on stdout, never on stderr (a CI log).
      shownSecret = secret;
      io.err('the generated signing secret is on stdout (shown once; give --secret to choose it)');
    }
  }
  let timer: NodeJS.Timeout | undefined;
  if (!end.signal.aborted) {
    // The ready line: a script waits for it (or for the first --json line) before it triggers.
    if (json) {
      await write(
        JSON.stringify({ listening: localUrl, ...(shownSecret ? { secret: shownSecret } : {}) }) +
          '\n',
      );
    } else if (shownSecret) {
      await write(`signing secret: ${shownSecret}\n`);
    }
    const until = [
      limit !== undefined ? `after ${limit} ${limit === 1 ? 'delivery' : 'deliveries'}` : '',
      maxTimeS !== undefined ? `after ${maxTimeS} s at most` : '',
    ].filter(Boolean);
    io.err(
      io.colorErr.dim(
        `ready; ${until.length > 0 ? `stopping ${until.join(' or ')}, or on Ctrl-C` : 'Ctrl-C to stop'}`,
      ),
    );
    if (maxTimeS !== undefined) {
      timer = setTimeout(() => end.abort('max-time'), maxTimeS * 1000);
    }
  }

  await whenAborted(end.signal);
  clearTimeout(timer);

  await receiver.close();
  await Promise.allSettled([...inFlight]);
  await capture?.close();
  await registration.unregister();
  if (kept) {
    io.err(
      `skipped ${skipped} ${skipped === 1 ? 'delivery' : 'deliveries'} of other events than ${kept.join(', ')}`,
    );
  }
  if (unforwarded.length > 0) {
    io.err(
      `${unforwarded.length} ${unforwarded.length === 1 ? 'delivery was' : 'deliveries were'} not delivered to the app${capture ? `; replay with \`sched events replay ${shellWord(capture.file)} --to <url>\`` : ''}`,
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
  if (end.signal.reason === 'max-time' && limit !== undefined && count < limit) {
    throw new Failure(
      `only ${count} of ${limit} ${limit === 1 ? 'delivery' : 'deliveries'} arrived within ${maxTimeS} s`,
    );
  }
  // Ctrl-C or SIGTERM is how a server is meant to end (like a closed stdout), and so are
  // --count and --max-time: a clean stop is exit 0, with nothing left behind.
}

/**
 * The likely cause on a delivery's line: when no common mistake explains an invalid signature,
 * the usual reason a listener sees one is a webhook created with another secret (a generated
 * one, or before SCHED_WEBHOOK_SECRET was set).
 */
export function listenCause(cause: string): string {
  if (cause !== NO_KNOWN_CAUSE) return cause;
  return `${cause}; the webhook may have been created with another secret: check one with \`sched sig verify --secret <it>\`, or re-create the webhook with \`sched webhooks add\` while SCHED_WEBHOOK_SECRET is set`;
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
