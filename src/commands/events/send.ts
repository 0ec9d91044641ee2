// `sched events send <event> --to <url>`: one delivery POSTed exactly as the service sends it
// (see src/domain/webhooks/delivery.ts): JSON body, user-agent = the service's name, webhook-signature when a secret is
// known. With --payload-file the file's bytes go out unchanged and are signed as they are.
import type { Context } from '../../context.js';
import type { EventsSendOptions } from './inputs.js';
import { Failure, Interrupted, signalOf } from '../../errors.js';
import {
  DEFAULT_SERVICE_NAME,
  deliveryHeaders,
  summarizeDelivery,
} from '../../domain/webhooks/delivery.js';
import { postRaw } from '../../domain/webhooks/http.js';
import { payloadSource, readPayload, resolveSecret } from '../../domain/webhooks/input.js';
import { sampleDelivery } from '../../domain/webhooks/sample.js';
import { checkEventName } from '../../domain/webhooks/event-names.js';
import { checkWebhookUrl } from '../../domain/webhooks/url.js';
import { quote } from '../../text/quote.js';
import { masker, type Mask } from '../../mask.js';
import { sanitizeCell } from '../../text/sanitize.js';
import { overridesOf } from '../../domain/webhooks/override.js';
import { editPayload, overridden, parsedPayload } from './payload.js';
import { printsData, renderJsonLine, renderText } from '../../output/render.js';

/**
 * Printable start of a receiver's answer: one line, control characters removed, and the
 * secret masked BEFORE the cut (a receiver may echo what it got; a cut secret would not match).
 */
function excerpt(body: Buffer, mask: Mask, max = 200): string {
  const text = sanitizeCell(mask(body.toString('utf8')))
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export async function run(ctx: Context, flags: EventsSendOptions): Promise<void> {
  const event = checkEventName(flags.event);
  const to = new URL(checkWebhookUrl(flags.to, '--to'));
  const serviceName =
    typeof flags.serviceName === 'string' && flags.serviceName.trim() !== ''
      ? flags.serviceName
      : DEFAULT_SERVICE_NAME;
  const src =
    flags.payloadFile !== undefined ? await payloadSource(ctx, flags.payloadFile) : undefined;
  // No prompt: an unsigned delivery is a legitimate thing to send (a webhook without secret).
  const secret = (await resolveSecret(ctx, flags.secret, { prompt: false, why: '' }))?.secret;

  const overrides = overridesOf(flags);
  let body: Buffer;
  let uuid: string | undefined;
  if (src) {
    body = await readPayload(ctx, src);
    if (overrides.length > 0 || flags.edit === true) {
      // Changed fields mean a new body: the file's JSON, changed, serialised as the service does.
      const why = overrides.length > 0 ? overrides[0]!.flag : '--edit';
      body = overridden(parsedPayload(body, src.label, why), overrides).body;
    }
    const summary = summarizeDelivery(body);
    uuid = summary.uuid;
    if (!summary.json) {
      ctx.io.err(`note: ${src.label} is not a JSON object; sending it unchanged anyway`);
    } else if (summary.event !== undefined && summary.event !== event) {
      ctx.io.err(
        `note: the payload says "event":${quote(summary.event)}, not ${event}; sending it unchanged`,
      );
    }
  } else {
    const d = sampleDelivery(event);
    body = overrides.length > 0 ? overridden(d.payload, overrides).body : d.body;
    uuid = summarizeDelivery(body).uuid;
  }
  if (flags.edit === true) {
    // Last, on what would be sent: the person sees and changes the real payload.
    body = (await editPayload(ctx, summarizeDelivery(body).payload)).body;
    uuid = summarizeDelivery(body).uuid;
  }
  const headers = deliveryHeaders(body, secret, serviceName);
  const signed = headers['webhook-signature'] !== undefined;

  const r = await postRaw({
    url: to,
    body,
    headers,
    timeoutMs: ctx.globals.timeoutMs,
    signal: ctx.signal,
    env: ctx.env,
  });
  const target = to.toString();
  // The JSON line of the outcome: the status (null: no answer) first, then what was sent.
  const jsonLine = (status: number | null, rest: Record<string, unknown>) =>
    renderJsonLine(ctx.io, { status, ms: r.ms, url: target, event, uuid, signed, ...rest });
  if (!r.ok) {
    if (r.kind === 'aborted') {
      throw new Interrupted(`interrupted before ${target} answered`, {
        signal: signalOf(ctx.signal.reason),
        details: ['the delivery may or may not have reached the receiver'],
      });
    }
    if (printsData(ctx.globals)) await jsonLine(null, { error: r.message });
    throw new Failure(`no answer from ${target}: ${r.message}`, {
      hint: r.kind === 'timeout' ? 'raise the limit with --timeout <seconds>' : undefined,
    });
  }

  const okStatus = r.status >= 200 && r.status < 300;
  const mask = masker([secret]);
  const statusText = sanitizeCell(mask(r.statusText)).trim();
  if (printsData(ctx.globals)) {
    await jsonLine(r.status, { bytes: body.length, response: mask(r.body.toString('utf8')) });
  } else {
    ctx.io.err(
      `sent ${event}${uuid ? ` ${uuid}` : ''} (${body.length} bytes, ${signed ? 'signed' : 'unsigned'}) to ${target}`,
    );
    const line = `${r.status} ${statusText}`.trim() + ` in ${r.ms} ms`;
    await renderText(ctx.io, (okStatus ? ctx.io.color.green(line) : ctx.io.color.red(line)) + '\n');
  }
  if (!okStatus) {
    const details: string[] = [];
    const text = excerpt(r.body, mask);
    if (text) details.push(`answer: ${text}`);
    if (r.status >= 300 && r.status < 400 && r.headers.location) {
      details.push(
        `redirected to ${sanitizeCell(mask(r.headers.location))} (a webhook sender does not follow redirects)`,
      );
    }
    throw new Failure(
      `the receiver answered ${r.status}${statusText ? ` ${statusText}` : ''}, not 2xx`,
      {
        details,
      },
    );
  }
}
