// How `sched webhooks listen` shows a delivery on a terminal: one line per delivery (time,
// event, meeting, invitee, start, verdict, duplicate), one per forward. Every value that came
// from the sender is sanitised: a delivery must not be able to move the cursor.
import type { ChalkInstance } from 'chalk';
import { isLoopback } from '../../../api/url.js';
import { sanitizeCell } from '../../../text/sanitize.js';
import { removeWebhookHint, replayAllHint } from './hints.js';
import type { Invocation } from '../../../text/hints.js';
import { Failure } from '../../../errors.js';
import type { ForwardReport, ForwardTarget } from './forward.js';
import type { ListenerEvent, ListenerSummary } from './listener.js';
import { jsonText } from '../../../output/json-value.js';
import type { DeliveryRecord } from './record.js';

/** What a person types to reach a listener on host:port. */
export function displayUrl(host: string, port: number): string {
  const h =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${h}:${port}/`;
}

function timeOfDay(d: Date): string {
  return d.toTimeString().slice(0, 8);
}

export function deliveryLine(
  c: ChalkInstance,
  r: DeliveryRecord,
  at: Date,
  firstAt: string | undefined,
): string {
  const verdictText = {
    valid: c.green('signature valid'),
    invalid: c.red(
      `signature INVALID${r.signatureReason ? `: ${sanitizeCell(r.signatureReason)}` : ''}`,
    ),
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
      ? [r.invitee.name, r.invitee.email ? `<${r.invitee.email}>` : null].filter(Boolean).join(' ')
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

/** ", after 3 attempts" when a forward was tried more than once. */
function tries(f: ForwardReport): string {
  return f.attempts > 1 ? ` after ${f.attempts} attempts` : '';
}

export function forwardLine(c: ChalkInstance, f: ForwardReport): string {
  if (f.error !== undefined) {
    return `  ↳ ${c.red(`forward to ${f.url} failed${tries(f)}: ${f.error}`)}`;
  }
  const st = f.status;
  const text = `forwarded to ${f.url}: ${st} in ${f.ms} ms${tries(f)}`;
  return `  ↳ ${st >= 200 && st < 300 ? c.green(text) : c.red(text)}`;
}

/** Why a delivery was not forwarded: its signature did not verify (and no opt-in was given). */
export function notForwardedLine(c: ChalkInstance, verdict: 'invalid' | 'missing'): string {
  return `  ↳ ${c.yellow(`not forwarded: signature ${verdict} (--forward-unverified forwards it anyway)`)}`;
}

/** What the listener says on stderr once it listens: where, which secret, what it keeps. */
export function startLines(s: {
  localUrl: string;
  /** Where the secret came from; undefined: none. */
  secretFrom: '--secret' | 'SCHED_WEBHOOK_SECRET' | 'generated' | undefined;
  kept: readonly string[] | undefined;
  forwardTo: readonly ForwardTarget[];
  forwardAll: boolean;
  capture: string | undefined;
}): string[] {
  const secretNote =
    s.secretFrom === 'generated'
      ? 'verifying signatures with a generated secret, given to the webhook it registers'
      : s.secretFrom
        ? `verifying signatures with the secret from ${s.secretFrom}`
        : 'not checking signatures (no --secret or SCHED_WEBHOOK_SECRET)';
  const lines = [`listening on ${s.localUrl} (any path); ${secretNote}`];
  if (s.kept) {
    lines.push(`keeping only ${s.kept.join(', ')}; other events are answered 200 and skipped`);
  }
  for (const t of s.forwardTo) {
    lines.push(
      `forwarding ${t.events ? t.events.join(', ') : 'each delivery'} to ${t.url.toString()}`,
    );
  }
  if (s.forwardTo.length > 0 && s.secretFrom) {
    lines.push(
      s.forwardAll
        ? 'forwarding unverified deliveries too (--forward-unverified)'
        : 'forwarding only deliveries whose signature is valid',
    );
  }
  if (s.capture) lines.push(`recording every delivery to ${s.capture}`);
  return lines;
}

/** "ready; stopping after 2 deliveries or after 20 s at most, or on Ctrl-C" */
/**
 * A --register URL on this machine (loopback) at another port than the listener's: the
 * deliveries would go to whatever listens there, or nowhere. Said, not refused (a proxy of the
 * user's may pass them on).
 */
export function registerPortWarning(url: string, port: number): string | undefined {
  const u = new URL(url);
  if (!isLoopback(u.hostname)) return undefined;
  const at = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  if (at === port) return undefined;
  const here = new URL(u.href);
  here.port = String(port);
  return `--register ${u.href} is on this machine at port ${at}, but the listener is on port ${port}: deliveries will not reach it (use --port ${at}, or --register ${here.href})`;
}

export function readyLine(limit: number | undefined, maxTimeS: number | undefined): string {
  const until = [
    limit !== undefined ? `after ${limit} ${limit === 1 ? 'delivery' : 'deliveries'}` : '',
    maxTimeS !== undefined ? `after ${maxTimeS} s at most` : '',
  ].filter(Boolean);
  return `ready; ${until.length > 0 ? `stopping ${until.join(' or ')}, or on Ctrl-C` : 'Ctrl-C to stop'}`;
}

/** The stop summary: skipped events, deliveries no app took, and the deliveries and webhook. */
export function stopLines(
  s: ListenerSummary,
  o: { localUrl: string; kept: readonly string[] | undefined; capture: string | undefined },
): string[] {
  const lines: string[] = [];
  const n = (k: number) => `${k} ${k === 1 ? 'delivery' : 'deliveries'}`;
  if (o.kept) lines.push(`skipped ${n(s.skipped)} of other events than ${o.kept.join(', ')}`);
  const lost = s.unforwarded.length;
  if (lost > 0) {
    lines.push(
      `${lost} ${lost === 1 ? 'delivery was' : 'deliveries were'} not delivered to the app${o.capture ? `; replay with \`${replayAllHint(o.capture, s.unforwarded, s.unforwardedTo)}\`` : ''}`,
    );
  }
  const outcome = s.registration.outcome;
  lines.push(
    `stopped listening on ${o.localUrl} after ${n(s.count)}${outcome ? `; ${outcome}` : ''}`,
  );
  return lines;
}

/** Why a stop is a failure (exit 1): the --register webhook left behind, too few deliveries. */
export function stopFailure(
  s: ListenerSummary,
  o: {
    registerUrl: string | undefined;
    limit: number | undefined;
    maxTimeS: number | undefined;
    /** The flags the suggested `webhooks rm` keeps. */
    invocation?: Invocation;
  },
): Failure | undefined {
  const webhook = s.registration.webhook;
  if (s.registration.failed && webhook) {
    return new Failure(`the webhook ${webhook.uuid} for ${o.registerUrl} was left behind`, {
      hint: `remove it with \`${removeWebhookHint(webhook.uuid, o.invocation)}\``,
    });
  }
  if (s.reason === 'max-time' && o.limit !== undefined && s.counted < o.limit) {
    return new Failure(
      `only ${s.counted} of ${o.limit} ${o.limit === 1 ? 'delivery' : 'deliveries'} arrived within ${o.maxTimeS} s`,
    );
  }
  return undefined;
}

/** What a listener's event puts on stdout: a line of text, or the delivery's --json line. */
export function eventText(e: ListenerEvent, json: boolean, c: ChalkInstance): string {
  if (json) {
    if (e.kind !== 'settled') return '';
    const extra = e.notForwarded
      ? { notForwarded: `signature ${e.notForwarded}` }
      : e.forwards
        ? { forwards: e.forwards }
        : {};
    return jsonText({ ...e.record, ...extra }) + '\n';
  }
  // A delivery that is forwarded is shown once its forwards are done, its heading and their
  // results in one write: deliveries that overlap never interleave their lines.
  const heading = deliveryLine(c, e.record, e.receivedAt, e.firstAt) + '\n';
  if (e.kind === 'delivery') return e.forwarding ? '' : heading;
  if (e.kind === 'forwarded')
    return heading + e.reports.map((f) => forwardLine(c, f) + '\n').join('');
  return e.notForwarded ? heading + notForwardedLine(c, e.notForwarded) + '\n' : '';
}

/** What --register says once the webhook exists (and that a generated secret is on stdout). */
export function registeredLines(
  webhook: { uuid: string } | undefined,
  o: { registerUrl?: string; events: readonly string[]; shown: boolean },
): string[] {
  if (!webhook) return [];
  const lines = [
    `registered webhook ${webhook.uuid} for ${o.registerUrl} (${o.events.join(', ')})`,
  ];
  if (o.shown) {
    lines.push(
      'the generated signing secret is on stdout (shown once; give --secret to choose it)',
    );
  }
  return lines;
}
