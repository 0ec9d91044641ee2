// `sched webhooks listen`: a local receiver for deliveries. Each delivery is answered 200 at
// once (so the sender never retries because of us), then shown: time, event, meeting, invitee,
// start and the signature verdict (valid | invalid | missing | unchecked), or one NDJSON object
// with --json. Optionally re-sent to --forward-to, and optionally subscribed for its lifetime
// with --register (created on start, deleted on stop: Ctrl-C, SIGTERM or a closed stdout).
//
// Stopping: the summary ("stopped …; deleted webhook …") goes to stderr, then the command exits
// 130 on Ctrl-C and 143 on SIGTERM, as every interrupted command does (CLI contract), without
// an "error:" line — stopping a server by signal is its normal end. A closed stdout
// (`| head -1`) ends it with 0.
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Context } from '../../context.js';
import type { EventName, Webhook } from '../../api/types.js';
import { ExitCode, Failure, QuietExit, UsageError, isSchedError } from '../../errors.js';
import { sanitizeCell } from '../../output/sanitize.js';
import { summarizeDelivery } from '../../webhooks/delivery.js';
import { postRaw, type PostResult } from '../../webhooks/http.js';
import { parseEventList } from '../../webhooks/event-names.js';
import { checkWebhookUrl } from '../../webhooks/url.js';
import { resolveSecret } from '../../webhooks/input.js';
import { SIGNATURE_HEADER, diagnoseSignature, verifySignature } from '../../webhooks/signature.js';
import { quote } from '../../text/quote.js';

export type Verdict = 'valid' | 'invalid' | 'missing' | 'unchecked';

/** Bodies above this are refused with 413: no real delivery comes close. */
const MAX_BODY = 5 * 1024 * 1024;
/** Notification uuids remembered for duplicate detection. */
const SEEN_LIMIT = 10_000;

/** Headers that belong to one connection, not to the delivery; never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);

export function forwardHeaders(h: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v !== undefined && !HOP_BY_HOP.has(k.toLowerCase())) out[k] = v;
  }
  return out;
}

interface ForwardReport {
  url: string;
  status?: number;
  ms: number;
  error?: string;
}

interface DeliveryRecord {
  receivedAt: string;
  method: string;
  path: string;
  event: string | null;
  uuid: string | null;
  meeting: string | null;
  invitee: { name: string | null; email: string | null } | null;
  start: string | null;
  signature: Verdict;
  duplicate: boolean;
  userAgent: string | null;
  contentType: string | null;
  bytes: number;
  json: boolean;
  payload: unknown;
  /** The raw body as text, only when it is not JSON. */
  body?: string;
  forward?: ForwardReport;
}

function displayUrl(host: string, port: number): string {
  const h =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${h}:${port}/`;
}

function timeOfDay(d: Date): string {
  return d.toTimeString().slice(0, 8);
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function signalExit(ctx: Context): number {
  return ctx.signal.reason === 'SIGTERM' ? ExitCode.terminated : ExitCode.interrupted;
}

export async function run(
  ctx: Context,
  _args: string[],
  flags: Record<string, unknown>,
): Promise<void> {
  // Everything is checked before a port is opened or a request is made.
  const port = typeof flags.port === 'number' ? flags.port : 4020;
  const host =
    typeof flags.host === 'string' && flags.host.trim() ? flags.host.trim() : '127.0.0.1';
  let forwardTo: URL | undefined;
  if (flags.forwardTo !== undefined) {
    forwardTo = new URL(checkWebhookUrl(String(flags.forwardTo), '--forward-to'));
  }
  let registerUrl: string | undefined;
  if (flags.register !== undefined) {
    // The same rule as `webhooks add --url`: what add refuses is never registered.
    registerUrl = checkWebhookUrl(String(flags.register), '--register');
  }
  const eventFlags = Array.isArray(flags.event) ? (flags.event as string[]) : [];
  if (eventFlags.length > 0 && !registerUrl) {
    throw new UsageError('--event only applies with --register (it chooses what to subscribe to)');
  }
  const events: EventName[] = parseEventList(eventFlags);

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
  const c = io.color;

  // Stops on Ctrl-C/SIGTERM, and when stdout goes away.
  const stop = new AbortController();
  let stdoutClosed = false;
  const onSignal = () => stop.abort();
  if (ctx.signal.aborted) stop.abort();
  ctx.signal.addEventListener('abort', onSignal, { once: true });
  ctx.defer(() => ctx.signal.removeEventListener('abort', onSignal));

  const write = async (text: string) => {
    if (stdoutClosed) return;
    try {
      await io.out(text);
    } catch (e) {
      if (e instanceof QuietExit) {
        stdoutClosed = true;
        stop.abort();
        return;
      }
      throw e;
    }
  };

  const seen = new Map<string, string>();
  let count = 0;
  let warnedUnchecked = false;
  const inFlight = new Set<Promise<void>>();

  async function handleDelivery(req: IncomingMessage, body: Buffer): Promise<void> {
    const received = new Date();
    const s = summarizeDelivery(body);
    const header = first(req.headers[SIGNATURE_HEADER]);
    const verdict: Verdict = !secret
      ? 'unchecked'
      : header === undefined
        ? 'missing'
        : verifySignature(secret, body, header)
          ? 'valid'
          : 'invalid';
    let duplicate = false;
    let firstAt: string | undefined;
    if (s.uuid !== undefined) {
      firstAt = seen.get(s.uuid);
      duplicate = firstAt !== undefined;
      if (!duplicate) {
        if (seen.size >= SEEN_LIMIT) seen.delete(seen.keys().next().value as string);
        seen.set(s.uuid, received.toISOString());
      }
    }
    count += 1;

    const record: DeliveryRecord = {
      receivedAt: received.toISOString(),
      method: req.method ?? 'POST',
      path: req.url ?? '/',
      event: s.event ?? null,
      uuid: s.uuid ?? null,
      meeting: s.meetingUuid ?? null,
      invitee:
        s.inviteeName !== undefined || s.inviteeEmail !== undefined
          ? { name: s.inviteeName ?? null, email: s.inviteeEmail ?? null }
          : null,
      start: s.start ?? null,
      signature: verdict,
      duplicate,
      userAgent: first(req.headers['user-agent']) ?? null,
      contentType: first(req.headers['content-type']) ?? null,
      bytes: body.length,
      json: s.json,
      payload: s.json ? s.payload : null,
      ...(s.json ? {} : { body: body.toString('utf8') }),
    };

    if (!json) await write(humanLine(record, received, firstAt) + '\n');
    if (verdict === 'invalid' && secret && header !== undefined) {
      for (const d of diagnoseSignature({ secret, received: header, payload: body })) {
        io.err(`  ${d.confirmed ? 'cause' : 'check'}: ${d.reason}`);
      }
    }
    if (verdict === 'unchecked' && header !== undefined && !warnedUnchecked) {
      warnedUnchecked = true;
      io.err('note: deliveries are signed; give --secret (or SCHED_WEBHOOK_SECRET) to check them');
    }

    if (forwardTo) {
      const r = await postRaw({
        url: forwardTo,
        body,
        headers: forwardHeaders(req.headers),
        timeoutMs: ctx.globals.timeoutMs,
        signal: stop.signal,
      });
      record.forward = forwardReport(forwardTo, r);
      if (!json) await write(forwardLine(record.forward) + '\n');
    }
    if (json) await write(JSON.stringify(record) + '\n');
  }

  function humanLine(r: DeliveryRecord, at: Date, firstAt: string | undefined): string {
    const verdictText = {
      valid: c.green('signature valid'),
      invalid: c.red('signature INVALID'),
      missing: c.yellow('signature missing'),
      unchecked: c.dim('signature unchecked'),
    }[r.signature];
    const parts = [c.dim(timeOfDay(at))];
    if (!r.json) {
      parts.push(
        c.yellow(
          `not JSON: ${r.bytes} bytes${r.contentType ? `, ${sanitizeCell(r.contentType)}` : ''}`,
        ),
      );
    } else {
      parts.push(c.bold(sanitizeCell(r.event ?? '(no event)')));
      parts.push(sanitizeCell(r.meeting ?? '(no meeting uuid)'));
      const who = r.invitee
        ? [r.invitee.name, r.invitee.email ? `<${r.invitee.email}>` : null]
            .filter(Boolean)
            .join(' ')
        : '(no invitee)';
      parts.push(sanitizeCell(who));
      parts.push(r.start ? `starts ${sanitizeCell(r.start)}` : '(no start)');
    }
    parts.push(verdictText);
    let line = parts.join('  ');
    if (r.duplicate && r.uuid) {
      line += '  ' + c.magenta(`DUPLICATE of notification ${sanitizeCell(r.uuid)}`);
      if (firstAt) line += c.magenta(` (first ${timeOfDay(new Date(firstAt))})`);
    }
    return line;
  }

  function forwardLine(f: ForwardReport): string {
    if (f.error !== undefined) return `  ↳ ${c.red(`forward to ${f.url} failed: ${f.error}`)}`;
    const st = f.status ?? 0;
    const text = `forwarded to ${f.url}: ${st} in ${f.ms} ms`;
    return `  ↳ ${st >= 200 && st < 300 ? c.green(text) : c.red(text)}`;
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    if (method === 'GET' || method === 'HEAD') {
      // Health checks and a curious browser: say what this is, and do not count it.
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(method === 'HEAD' ? undefined : 'sched webhooks listen: POST deliveries here\n');
      return;
    }
    if (method !== 'POST') {
      res.writeHead(405, { allow: 'POST, GET, HEAD', 'content-type': 'text/plain' });
      res.end('POST deliveries here\n');
      io.err(`note: ${sanitizeCell(method)} ${sanitizeCell(req.url ?? '/')} answered 405`);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('error', () => {});
    req.on('end', () => {
      if (size > MAX_BODY) {
        res.writeHead(413, { 'content-type': 'text/plain' });
        res.end('payload too large\n');
        io.err(`note: refused a ${size}-byte body (over ${MAX_BODY} bytes) with 413`);
        return;
      }
      // Answer first: the sender should never wait for our printing or forwarding.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"received":true}');
      const p = handleDelivery(req, Buffer.concat(chunks)).catch((e: unknown) => {
        io.err(`error: could not handle a delivery: ${e instanceof Error ? e.message : String(e)}`);
      });
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    });
  };

  const { createServer } = await import('node:http');
  const server: Server = createServer(onRequest);
  let closed = false;
  const closeServer = async () => {
    if (closed) return;
    closed = true;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  };
  ctx.defer(closeServer);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((e: NodeJS.ErrnoException) => {
    closed = true;
    if (e.code === 'EADDRINUSE') {
      throw new Failure(`port ${port} on ${host} is already in use`, {
        hint: 'choose another with --port <n>, or --port 0 for any free port',
      });
    }
    if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') {
      throw new UsageError(`cannot listen on host ${quote(host)}: not an address of this machine`);
    }
    if (e.code === 'EACCES') {
      throw new Failure(`not allowed to listen on port ${port}`, {
        hint: 'ports below 1024 need privileges; use e.g. --port 4020',
      });
    }
    throw new Failure(`cannot listen on ${host}:${port}: ${e.message}`);
  });
  const addr = server.address();
  const actualPort = addr !== null && typeof addr === 'object' ? addr.port : port;
  const localUrl = displayUrl(host, actualPort);
  io.err(`listening on ${localUrl} (any path); ${secretNote}`);
  if (forwardTo) io.err(`forwarding each delivery to ${forwardTo.toString()}`);

  // --register: the webhook exists exactly as long as this listener.
  let registered: Webhook | undefined;
  let deleteOutcome: string | undefined;
  let deleteFailed = false;
  const unregister = async () => {
    if (!registered || deleteOutcome !== undefined) return;
    const uuid = registered.uuid;
    try {
      const { deleteWebhook } = await import('../../api/endpoints.js');
      const client = await ctx.api();
      const r = await deleteWebhook(client, uuid);
      deleteOutcome = r.alreadyGone
        ? `webhook ${uuid} was already gone`
        : `deleted webhook ${uuid}`;
    } catch (e) {
      deleteFailed = true;
      const why = isSchedError(e) || e instanceof Error ? e.message : String(e);
      deleteOutcome = `could not delete webhook ${uuid}: ${why}`;
    }
  };
  ctx.defer(unregister);

  if (registerUrl && !stop.signal.aborted) {
    const { createWebhook, webhooks } = await import('../../api/endpoints.js');
    const { adaptivePageLimiter } = await import('../../bulk/page-walk.js');
    const client = await ctx.api();
    try {
      // Best effort: a webhook left by an earlier, killed run would deliver here too, with
      // another secret, and show up as "invalid" — say so up front.
      for await (const w of webhooks(client, {
        all: true,
        signal: stop.signal,
        limiter: adaptivePageLimiter,
      })) {
        if (w.url === registerUrl) {
          io.err(
            `note: webhook ${w.uuid} already points at ${registerUrl}; its deliveries will arrive too (remove it with \`sched webhooks rm ${w.uuid}\`)`,
          );
        }
      }
    } catch {
      // Listing is only a courtesy; the creation below reports real problems.
    }
    // Not cut short by Ctrl-C: the service may already have created the webhook, and only
    // its answer says which one to delete. Once it is known, a stop requested meanwhile ends
    // the listener at once, through the deletion below.
    const onStopDuringRegistration = () =>
      io.err('stopping once the webhook is registered, to delete it (Ctrl-C again quits now)');
    ctx.signal.addEventListener('abort', onStopDuringRegistration, { once: true });
    try {
      registered = await createWebhook(client, { url: registerUrl, events, secret });
    } finally {
      ctx.signal.removeEventListener('abort', onStopDuringRegistration);
    }
    if (typeof registered.secret === 'string' && registered.secret !== '') {
      secret = registered.secret;
    }
    io.err(`registered webhook ${registered.uuid} for ${registerUrl} (${events.join(', ')})`);
    if (generatedSecret && forwardTo) {
      // The app behind --forward-to must verify with this secret; it is shown once, like
      // `sched webhooks add` shows a generated one.
      io.err(`signing secret (shown once, give --secret to choose it): ${secret}`);
    }
  }
  if (!stop.signal.aborted) io.err(io.colorErr.dim('ready; Ctrl-C to stop'));

  await new Promise<void>((resolve) => {
    if (stop.signal.aborted) resolve();
    else stop.signal.addEventListener('abort', () => resolve(), { once: true });
  });

  await closeServer();
  await Promise.allSettled([...inFlight]);
  await unregister();
  const summary = `stopped listening on ${localUrl} after ${count} ${count === 1 ? 'delivery' : 'deliveries'}`;
  io.err(summary + (deleteOutcome ? `; ${deleteOutcome}` : ''));
  if (deleteFailed && registered) {
    throw new Failure(`the webhook ${registered.uuid} for ${registerUrl} was left behind`, {
      hint: `remove it with \`sched webhooks rm ${registered.uuid}\``,
    });
  }
  throw new QuietExit(stdoutClosed && !ctx.signal.aborted ? ExitCode.ok : signalExit(ctx));
}

function forwardReport(url: URL, r: PostResult): ForwardReport {
  return r.ok
    ? { url: url.toString(), status: r.status, ms: r.ms }
    : { url: url.toString(), ms: r.ms, error: r.message };
}
