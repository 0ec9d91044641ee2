// `sched events replay <file> --to <url>`: re-sends deliveries recorded by
// `sched webhooks listen --record <file>` — the body byte-exact with its recorded headers (the
// ones a delivery is made of: content type, user agent, signature), so the app's signature check
// passes as it did; or re-signed with --secret. The service has no resend API: a recording is
// the only way to send a real delivery again. Every line is checked before anything is sent.
import type { Context } from '../../context.js';
import type { EventsReplayOptions } from './inputs.js';
import { Failure, Interrupted, signalOf, UsageError } from '../../errors.js';
import { postRaw } from '../../domain/webhooks/http.js';
import { secretFlag } from '../../domain/webhooks/input.js';
import { checkWebhookUrl } from '../../domain/webhooks/url.js';
import { SIGNATURE_HEADER, signPayload } from '../../domain/webhooks/signature.js';
import {
  capturedBody,
  capturedHeaders,
  forwardsFailed,
  readCapture,
  type CapturedDelivery,
} from '../../domain/webhooks/listen/capture.js';
import { forwardHeaders } from '../../domain/webhooks/listen/forward.js';
import { quote, shellCommand } from '../../text/quote.js';
import { sanitizeCell } from '../../text/sanitize.js';
import { renderJsonLine, renderText } from '../../output/render.js';
import { masker } from '../../mask.js';

interface Picked {
  line: number;
  delivery: CapturedDelivery;
}

/** The deliveries to replay: those with the given uuids, then the last n of them; in order. */
async function pick(
  file: string,
  uuids: readonly string[] | undefined,
  last: number | undefined,
  failed = false,
): Promise<Picked[]> {
  const wanted = uuids ? new Set(uuids) : undefined;
  const found = new Set<string>();
  let total = 0;
  const picked: Picked[] = [];
  for await (const e of readCapture(file)) {
    total += 1;
    // An unverified delivery recorded without its body (listen --record with a secret) has
    // nothing to replay.
    if (e.delivery.bodyOmitted !== undefined) continue;
    // --failed: only what `listen --forward-to` could not deliver.
    if (failed && !forwardsFailed(e.delivery)) continue;
    const uuid = e.delivery.uuid ?? '';
    if (wanted && !wanted.has(uuid)) continue;
    found.add(uuid);
    picked.push(e);
    if (last !== undefined && picked.length > last) picked.shift();
  }
  if (total === 0) {
    throw new UsageError(`${quote(file)} holds no recorded delivery`, {
      hint: 'record deliveries with `sched webhooks listen --record <file>`',
    });
  }
  const missing = [...(wanted ?? [])].filter((u) => !found.has(u));
  if (missing.length > 0) {
    throw new UsageError(
      `no delivery in ${quote(file)} has the uuid ${missing.map((u) => quote(u)).join(', ')}`,
      { hint: `list them with: ${shellCommand`jq -r .uuid ${file}`}` },
    );
  }
  return picked;
}

export async function run(ctx: Context, flags: EventsReplayOptions): Promise<void> {
  const to = new URL(checkWebhookUrl(flags.to, '--to'));
  const secret = flags.secret !== undefined ? secretFlag(flags.secret) : undefined;
  const picked = await pick(flags.file, flags.uuid, flags.last, flags.failed === true);
  if (flags.failed === true && picked.length === 0) {
    // Nothing failed: a script that replays what failed has nothing to do.
    ctx.io.err(`nothing to replay: no delivery in ${quote(flags.file)} has a failed forward`);
    return;
  }
  const json = ctx.globals.output === 'json' || ctx.globals.output === 'ndjson';
  const target = to.toString();
  const mask = masker([secret]);
  const n = picked.length;
  ctx.io.err(
    `replaying ${n} ${n === 1 ? 'delivery' : 'deliveries'} to ${target} ${secret ? 're-signed with --secret' : 'with their recorded signatures'}`,
  );

  let failed = 0;
  let sent = 0;
  for (const { line, delivery } of picked) {
    const body = capturedBody(delivery);
    const headers = forwardHeaders(capturedHeaders(delivery));
    if (secret) headers[SIGNATURE_HEADER] = signPayload(secret, body);
    const r = await postRaw({
      url: to,
      body,
      headers,
      timeoutMs: ctx.globals.timeoutMs,
      signal: ctx.signal,
    });
    if (!r.ok && r.kind === 'aborted') {
      throw new Interrupted(`interrupted while replaying line ${line}`, {
        signal: signalOf(ctx.signal.reason),
        details: [
          `${sent} of ${n} ${n === 1 ? 'delivery was' : 'deliveries were'} replayed before; line ${line}'s may or may not have arrived`,
        ],
      });
    }
    sent += 1;
    const ok = r.ok && r.status >= 200 && r.status < 300;
    if (!ok) failed += 1;
    const what = {
      line,
      event: delivery.event,
      uuid: delivery.uuid,
      url: target,
      signed: headers[SIGNATURE_HEADER] !== undefined,
      resigned: secret !== undefined,
      ...(r.ok ? { status: r.status } : { status: null, error: r.message }),
      ms: r.ms,
    };
    if (json) {
      await renderJsonLine(ctx.io, what);
      continue;
    }
    const name = sanitizeCell(`${delivery.event ?? '(no event)'} ${delivery.uuid ?? '(no uuid)'}`);
    const answer = r.ok
      ? `${r.status} ${sanitizeCell(mask(r.statusText)).trim()}`.trim() + ` in ${r.ms} ms`
      : `no answer: ${r.message}`;
    const c = ctx.io.color;
    await renderText(ctx.io, `line ${line}  ${name}  ${ok ? c.green(answer) : c.red(answer)}\n`);
  }
  if (failed > 0) {
    throw new Failure(
      `${failed} of ${n} replayed ${n === 1 ? 'delivery' : 'deliveries'} did not get a 2xx answer from ${target}`,
    );
  }
}
