// How `sched webhooks listen` shows a delivery on a terminal: one line per delivery (time,
// event, meeting, invitee, start, verdict, duplicate), one per forward. Every value that came
// from the sender is sanitised: a delivery must not be able to move the cursor.
import type { ChalkInstance } from 'chalk';
import { sanitizeCell } from '../../../text/sanitize.js';
import { shellCommand } from '../../../text/quote.js';
import type { ForwardReport } from './forward.js';
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

/**
 * What to run once the app is fixed, after a delivery no forward took: the recording, the
 * delivery's uuid (the sender chose it) and the app's URL, each one shell word.
 */
export function replayOneHint(file: string, uuid: string, to: string): string {
  return shellCommand`sched events replay ${file} --uuid ${uuid} --to ${to}`;
}

/** The stop summary's suggestion when some deliveries reached no app. */
export function replayAllHint(file: string): string {
  return shellCommand`sched events replay ${file} --to <url>`;
}

/** How to remove a webhook by hand (one `--register` could not delete, or an older one). */
export function removeWebhookHint(uuid: string): string {
  return shellCommand`sched webhooks rm ${uuid}`;
}
