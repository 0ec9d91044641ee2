// `sched events replay <file> --to <url>`: re-sends deliveries recorded by
// `sched webhooks listen --record <file>` — the body byte-exact with its recorded headers (the
// ones a delivery is made of: content type, user agent, signature), so the app's signature check
// passes as it did; or re-signed with --secret. The service has no resend API: a recording is
// the only way to send a real delivery again. Every line is checked before anything is sent.
import { plural } from '../../text/plural.js';
import type { Context } from '../../context.js';
import type { EventsReplayOptions } from './inputs.js';
import { Failure, Interrupted, signalOf, UsageError } from '../../errors.js';
import { postRaw } from '../../domain/webhooks/http.js';
import { secretFlag } from '../../domain/webhooks/secret.js';
import { checkWebhookUrl } from '../../domain/webhooks/url.js';
import { SIGNATURE_HEADER, signPayload } from '../../domain/webhooks/signature.js';
import {
  captureProblem,
  capturedBody,
  capturedHeaders,
  forwardsFailed,
  type CapturedDelivery,
} from '../../domain/webhooks/listen/capture.js';
import { forwardHeaders } from '../../domain/webhooks/listen/forward.js';
import { quote, shellCommand } from '../../text/quote.js';
import { fileProblem } from '../../text/file-problem.js';
import { sanitizeCell } from '../../text/sanitize.js';
import { printsData, renderJsonLine, renderText } from '../../output/render.js';
import { masker } from '../../mask.js';
import {
  boundedLines,
  fileLabel,
  LineTooLong,
  openUserFile,
  untilAborted,
  type OpenedFile,
} from '../../user-file.js';

/**
 * The longest line `webhooks listen --record` can write, rounded up: a body of at most 5 MiB
 * and headers of at most 16 KiB, each byte at worst six characters in JSON (`\u0000`), plus
 * the fields around them — 30.2 MiB. A longer line is not a recording, and is refused before
 * it is held whole.
 */
export const MAX_RECORDING_LINE_BYTES = 31 * 1024 * 1024;

/**
 * The most a recording that cannot be read twice (a pipe, a FIFO) may hold of chosen
 * deliveries: a regular file is read twice (checked, then sent a line at a time), a pipe's
 * chosen lines are kept between the two.
 */
export const MAX_PIPED_REPLAY_BYTES = 64 * 1024 * 1024;

/** What node:http sends as a header value (tab, printable ASCII, Latin-1); else it throws. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

interface Prepared {
  line: number;
  delivery: CapturedDelivery;
  body: Buffer;
  headers: Record<string, string | string[]>;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function notRecording(file: string, why: string): UsageError {
  return new UsageError(
    `${quote(file)} is not a recording of \`sched webhooks listen --record\`: ${why}`,
    { hint: 'record deliveries with `sched webhooks listen --record <file>`' },
  );
}

/**
 * One line checked completely — UTF-8, JSON, the recording's shape, and every header that
 * would be sent — and made into the request it stands for. Undefined for a blank line.
 */
function prepare(file: string, line: number, bytes: Buffer, secret: string | undefined) {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw notRecording(file, `line ${line} is not UTF-8 text`);
  }
  if (text.trim() === '') return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    v = undefined;
  }
  const problem = v === undefined ? 'is not JSON' : captureProblem(v);
  if (problem !== undefined) throw notRecording(file, `line ${line} ${problem}`);
  const delivery = v as CapturedDelivery;
  const body = capturedBody(delivery);
  const headers = forwardHeaders(capturedHeaders(delivery));
  if (secret) headers[SIGNATURE_HEADER] = signPayload(secret, body);
  for (const [name, value] of Object.entries(headers)) {
    for (const one of [value].flat()) {
      if (!HEADER_VALUE.test(one)) {
        throw notRecording(
          file,
          `line ${line} has a ${name} header that cannot be sent (${quote(one, 40)})`,
        );
      }
    }
  }
  return { line, delivery, body, headers } satisfies Prepared;
}

/** The lines of an opened recording, bounded; a line too long is a usage error naming it. */
async function* linesOf(ctx: Context, file: string, f: OpenedFile) {
  const label = fileLabel('recording', file);
  const source = f.bytes();
  const lines = boundedLines(source, MAX_RECORDING_LINE_BYTES);
  try {
    for (;;) {
      const next = await untilAborted(source, ctx.signal, label, () => lines.next());
      if (next.done) return;
      yield next.value;
    }
  } catch (e) {
    if (e instanceof LineTooLong) {
      throw notRecording(
        file,
        `line ${e.line} is longer than ${MAX_RECORDING_LINE_BYTES / 1024 / 1024} MiB, more than \`webhooks listen\` records for one delivery`,
      );
    }
    if (e instanceof UsageError || e instanceof Interrupted) throw e;
    throw new UsageError(`cannot read ${label}: ${fileProblem(e)}`);
  } finally {
    source.stop();
  }
}

interface Chosen {
  line: number;
  start: number;
  length: number;
  /** Kept only when the file cannot be read a second time. */
  bytes?: Buffer;
}

/**
 * First pass: every line checked completely, before anything is sent; what is chosen (by
 * uuid, then the last n) is kept as where it is in the file — or, for a pipe, its bytes.
 */
async function choose(
  ctx: Context,
  file: string,
  f: OpenedFile,
  opts: { uuids?: readonly string[]; last?: number; secret?: string; failed?: boolean },
): Promise<Chosen[]> {
  const wanted = opts.uuids ? new Set(opts.uuids) : undefined;
  const found = new Set<string>();
  let total = 0;
  let held = 0;
  const picked: Chosen[] = [];
  for await (const l of linesOf(ctx, file, f)) {
    const p = prepare(file, l.line, l.bytes, opts.secret);
    if (!p) continue;
    total += 1;
    // An unverified delivery recorded without its body (listen --record with a secret) has
    // nothing to replay.
    if (p.delivery.bodyOmitted !== undefined) continue;
    // --failed: only what `listen --forward-to` could not deliver.
    if (opts.failed && !forwardsFailed(p.delivery)) continue;
    const uuid = p.delivery.uuid ?? '';
    if (wanted && !wanted.has(uuid)) continue;
    found.add(uuid);
    const c: Chosen = { line: l.line, start: l.start, length: l.bytes.length };
    if (!f.regular) {
      c.bytes = l.bytes;
      held += l.bytes.length;
    }
    picked.push(c);
    if (opts.last !== undefined && picked.length > opts.last) {
      held -= picked.shift()!.bytes?.length ?? 0;
    }
    if (held > MAX_PIPED_REPLAY_BYTES) {
      throw new UsageError(
        `${quote(file)} is not a regular file, and the deliveries chosen from it pass ${MAX_PIPED_REPLAY_BYTES / 1024 / 1024} MiB`,
        { hint: 'save the recording to a file first, or choose fewer with --uuid or --last' },
      );
    }
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

/** Second pass: one chosen line at a time, read again from the same descriptor. */
async function* sendable(
  file: string,
  f: OpenedFile,
  chosen: readonly Chosen[],
  secret: string | undefined,
): AsyncGenerator<Prepared> {
  for (const c of chosen) {
    let bytes = c.bytes;
    if (!bytes) {
      bytes = Buffer.alloc(c.length);
      const bytesRead = await f.read(bytes, c.length, c.start);
      if (bytesRead !== c.length) {
        throw new Failure(`${quote(file)} changed while it was replayed (line ${c.line})`);
      }
    }
    const p = prepare(file, c.line, bytes, secret);
    if (!p) throw new Failure(`${quote(file)} changed while it was replayed (line ${c.line})`);
    yield p;
  }
}

export async function run(ctx: Context, flags: EventsReplayOptions): Promise<void> {
  const to = new URL(checkWebhookUrl(flags.to, '--to'));
  const secret = flags.secret !== undefined ? secretFlag(flags.secret) : undefined;
  let f: OpenedFile;
  try {
    f = await openUserFile(flags.file);
  } catch (e) {
    throw new UsageError(`cannot read recording ${quote(flags.file)}: ${fileProblem(e)}`);
  }
  try {
    await replay(ctx, flags, f, to, secret);
  } finally {
    await f.close();
  }
}

async function replay(
  ctx: Context,
  flags: EventsReplayOptions,
  f: OpenedFile,
  to: URL,
  secret: string | undefined,
): Promise<void> {
  const picked = await choose(ctx, flags.file, f, {
    uuids: flags.uuid,
    last: flags.last,
    secret,
    failed: flags.failed === true,
  });
  if (flags.failed === true && picked.length === 0) {
    // Nothing failed: a script that replays what failed has nothing to do.
    ctx.io.err(`nothing to replay: no delivery in ${quote(flags.file)} has a failed forward`);
    return;
  }
  const json = printsData(ctx.globals);
  const target = to.toString();
  const mask = masker([secret]);
  const n = picked.length;
  ctx.io.err(
    `replaying ${plural(n, 'delivery', 'deliveries')} to ${target} ${secret ? 're-signed with --secret' : n === 1 ? 'with its recorded signature' : 'with their recorded signatures'}`,
  );

  let failed = 0;
  let sent = 0;
  for await (const { line, delivery, body, headers } of sendable(flags.file, f, picked, secret)) {
    const r = await postRaw({
      url: to,
      body,
      headers,
      timeoutMs: ctx.globals.timeoutMs,
      signal: ctx.signal,
      env: ctx.env,
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
