// `sched events replay <file> --to <url>`: re-sends deliveries recorded by
// `sched webhooks listen --record <file>` — the body byte-exact with its recorded headers (the
// ones a delivery is made of: content type, user agent, signature), so the app's signature check
// passes as it did; or re-signed with --secret. The service has no resend API: a recording is
// the only way to send a real delivery again. Every line is checked before anything is sent.
import { plural } from '../../text/plural.js';
import type { Context } from '../../context.js';
import type { EventsReplayOptions } from './inputs.js';
import { Failure, Interrupted, OutputFailed, signalOf, UsageError } from '../../errors.js';
import { postRaw } from '../../domain/webhooks/http.js';
import { secretFlag } from '../../domain/webhooks/secret.js';
import { checkWebhookUrl } from '../../domain/webhooks/url.js';
import { SIGNATURE_HEADER, signPayload } from '../../domain/webhooks/signature.js';
import {
  CAPTURE_KIND,
  captureProblem,
  capturedBody,
  capturedHeaders,
  forwardsFailed,
  type CapturedDelivery,
} from '../../domain/webhooks/listen/capture.js';
import { forwardHeaders } from '../../domain/webhooks/listen/forward.js';
import {
  Journal,
  OUTCOME_KIND,
  outcomeOk,
  outcomeProblem,
  type ReplayOutcome,
} from '../../domain/webhooks/listen/journal.js';
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
  type FileLine,
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

type Parsed = { delivery: CapturedDelivery } | { outcome: ReplayOutcome };

/**
 * One line read: a recorded delivery or the outcome of a replay (checked as that), undefined
 * for a blank line; anything else refused, naming the line.
 */
function parse(file: string, line: number, bytes: Buffer): Parsed | undefined {
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
  if ((v as { kind?: unknown } | null)?.kind === OUTCOME_KIND) {
    const problem = outcomeProblem(v as Record<string, unknown>);
    if (problem !== undefined) throw notRecording(file, `line ${line} ${problem}`);
    return { outcome: v as ReplayOutcome };
  }
  const problem = v === undefined ? 'is not JSON' : captureProblem(v);
  if (problem !== undefined) throw notRecording(file, `line ${line} ${problem}`);
  return { delivery: v as CapturedDelivery };
}

/**
 * A recorded delivery made into the request it stands for, every header that would be sent
 * checked.
 */
function prepare(
  file: string,
  line: number,
  delivery: CapturedDelivery,
  secret: string | undefined,
): Prepared {
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
  return { line, delivery, body, headers };
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

/** A delivery --failed may choose: whether its latest outcome failed, and whether one did. */
interface Candidate extends Chosen {
  uuid: string | null;
  failed: boolean;
  /** It failed once, and a replay since got a 2xx answer. */
  fixed: boolean;
}

/** A pipe's chosen line, kept for the second pass: at most MAX_PIPED_REPLAY_BYTES of them. */
function hold(c: Chosen, bytes: Buffer, held: { bytes: number }, file: string): void {
  c.bytes = bytes;
  held.bytes += bytes.length;
  if (held.bytes > MAX_PIPED_REPLAY_BYTES) {
    throw new UsageError(
      `${quote(file)} is not a regular file, and the deliveries chosen from it pass ${MAX_PIPED_REPLAY_BYTES / 1024 / 1024} MiB`,
      { hint: SAVE_FIRST },
    );
  }
}

/** The jq filter that lists a recording's uuids (its outcome lines left out). */
const UUIDS_JQ = `select(.kind == "${CAPTURE_KIND}") | .uuid`;

const SAVE_FIRST = 'save the recording to a file first, or choose fewer with --uuid or --last';

/**
 * A replay's outcome, over what its delivery's line said before: the latest one counts. An
 * outcome whose line holds another delivery (an edited file) is ignored.
 */
function applyOutcome(
  file: string,
  f: OpenedFile,
  candidates: Map<number, Candidate>,
  held: { bytes: number },
  o: ReplayOutcome,
): void {
  const c = candidates.get(o.line);
  if (!c || c.uuid !== o.uuid) return;
  const failed = !outcomeOk(o);
  if (failed === c.failed) return;
  c.failed = failed;
  c.fixed = !failed;
  if (f.regular) return;
  if (!failed) {
    held.bytes -= c.bytes?.length ?? 0;
    c.bytes = undefined;
    return;
  }
  // A pipe's delivery line has gone by: what a later outcome says failed cannot be sent.
  throw new UsageError(
    `${quote(file)} is not a regular file, and line ${c.line} failed only in a replay after it`,
    { hint: SAVE_FIRST },
  );
}

interface ChooseOptions {
  uuids?: readonly string[];
  last?: number;
  secret?: string;
  failed?: boolean;
}

/** What the first pass chose, and (--failed) how many that failed were replayed since. */
interface Choice {
  picked: Chosen[];
  fixed: number;
}

/**
 * What the first pass picks, line by line: by uuid, then (--failed) by each delivery's latest
 * outcome — its forwards' (`listen --forward-to`), then each replay's (the outcome lines after
 * it) — then the last n; kept as where each is in the file, or, for a pipe, its bytes.
 */
class Picks {
  private readonly wanted: Set<string> | undefined;
  private readonly found = new Set<string>();
  private readonly held = { bytes: 0 };
  private readonly picked: Chosen[] = [];
  /** --failed: every delivery it may pick, by line (an outcome names its line). */
  private readonly candidates = new Map<number, Candidate>();

  constructor(
    private readonly file: string,
    private readonly f: OpenedFile,
    private readonly opts: ChooseOptions,
  ) {
    this.wanted = opts.uuids ? new Set(opts.uuids) : undefined;
  }

  delivery(l: FileLine, d: CapturedDelivery): void {
    // An unverified delivery recorded without its body (listen --record with a secret) has
    // nothing to replay.
    if (d.bodyOmitted !== undefined) return;
    const uuid = d.uuid;
    if (this.wanted && !this.wanted.has(uuid ?? '')) return;
    const c: Chosen = { line: l.line, start: l.start, length: l.bytes.length };
    if (this.opts.failed) {
      const failed = forwardsFailed(d);
      if (failed && !this.f.regular) hold(c, l.bytes, this.held, this.file);
      this.candidates.set(l.line, { ...c, uuid, failed, fixed: false });
      return;
    }
    this.found.add(uuid ?? '');
    if (!this.f.regular) hold(c, l.bytes, this.held, this.file);
    this.picked.push(c);
    if (this.opts.last !== undefined && this.picked.length > this.opts.last) {
      this.held.bytes -= this.picked.shift()!.bytes?.length ?? 0;
    }
  }

  outcome(o: ReplayOutcome): void {
    if (this.opts.failed) applyOutcome(this.file, this.f, this.candidates, this.held, o);
  }

  /** What was picked; a --uuid that picked nothing is a usage error naming it. */
  result(): Choice {
    const all = [...this.candidates.values()];
    const failed = all.filter((c) => c.failed);
    for (const c of failed) this.found.add(c.uuid ?? '');
    const missing = [...(this.wanted ?? [])].filter((u) => !this.found.has(u));
    if (missing.length > 0) {
      throw new UsageError(
        `no delivery in ${quote(this.file)} has the uuid ${missing.map((u) => quote(u)).join(', ')}`,
        { hint: `list them with: ${shellCommand`jq -r ${UUIDS_JQ} ${this.file}`}` },
      );
    }
    return {
      picked: this.opts.failed ? failed.slice(-(this.opts.last ?? Infinity)) : this.picked,
      fixed: all.filter((c) => !c.failed && c.fixed).length,
    };
  }
}

/** First pass: every line checked completely, before anything is sent (Picks chooses). */
async function choose(
  ctx: Context,
  file: string,
  f: OpenedFile,
  opts: ChooseOptions,
): Promise<Choice> {
  const picks = new Picks(file, f, opts);
  let total = 0;
  for await (const l of linesOf(ctx, file, f)) {
    const p = parse(file, l.line, l.bytes);
    if (!p) continue;
    if ('outcome' in p) {
      picks.outcome(p.outcome);
      continue;
    }
    prepare(file, l.line, p.delivery, opts.secret);
    total += 1;
    picks.delivery(l, p.delivery);
  }
  if (total === 0) {
    throw new UsageError(`${quote(file)} holds no recorded delivery`, {
      hint: 'record deliveries with `sched webhooks listen --record <file>`',
    });
  }
  return picks.result();
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
    const p = parse(file, c.line, bytes);
    if (!p || !('delivery' in p)) {
      throw new Failure(`${quote(file)} changed while it was replayed (line ${c.line})`);
    }
    yield prepare(file, c.line, p.delivery, secret);
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
  const { picked, fixed } = await choose(ctx, flags.file, f, {
    uuids: flags.uuid,
    last: flags.last,
    secret,
    failed: flags.failed === true,
  });
  if (flags.failed === true && picked.length === 0) {
    // Nothing failed: a script that replays what failed has nothing to do.
    ctx.io.err(nothingFailed(flags.file, fixed));
    return;
  }
  const journal = await openJournal(ctx, flags.file, f);
  try {
    await send(ctx, { file: flags.file, f, picked, to, secret, journal });
  } finally {
    await journal?.close();
  }
}

/** Why --failed has nothing to send: no failed forward, or every one replayed since. */
function nothingFailed(file: string, fixed: number): string {
  return fixed === 0
    ? `nothing to replay: no delivery in ${quote(file)} has a failed forward`
    : `nothing to replay: no delivery in ${quote(file)} failed at its latest try (${plural(fixed, 'delivery', 'deliveries')} that failed ${fixed === 1 ? 'was' : 'were'} replayed since with a 2xx answer)`;
}

/**
 * The recording, open to append this replay's outcomes (the journal --failed reads); a file
 * the rule of `--record` refuses is said once, and the replay goes on without it.
 */
async function openJournal(ctx: Context, file: string, f: OpenedFile) {
  const j = await Journal.open(file, f);
  if (j instanceof Journal) return j;
  ctx.io.err(
    `${ctx.io.colorErr.yellow('warning:')} this replay's outcomes are not recorded in ${quote(file)}: ${j.refused}; a later --failed will not know of them`,
  );
  return undefined;
}

interface Sending {
  file: string;
  f: OpenedFile;
  picked: readonly Chosen[];
  to: URL;
  secret: string | undefined;
  journal: Journal | undefined;
}

async function send(ctx: Context, s: Sending): Promise<void> {
  const target = s.to.toString();
  const mask = masker([s.secret]);
  const n = s.picked.length;
  ctx.io.err(
    `replaying ${plural(n, 'delivery', 'deliveries')} to ${target} ${s.secret ? 're-signed with --secret' : n === 1 ? 'with its recorded signature' : 'with their recorded signatures'}`,
  );

  let failed = 0;
  let sent = 0;
  for await (const { line, delivery, body, headers } of sendable(s.file, s.f, s.picked, s.secret)) {
    const at = new Date();
    const r = await postRaw({
      url: s.to,
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
    const answer = r.ok ? { status: r.status } : { status: null, error: mask(r.message) };
    const ok = outcomeOk(answer);
    if (!ok) failed += 1;
    // The outcome first (what --failed reads later), then the line: a delivery sent is shown
    // even when its outcome could not be recorded, and nothing more is sent after that.
    const unrecorded = await record(s.journal, {
      at: at.toISOString(),
      line,
      uuid: delivery.uuid,
      to: target,
      ...answer,
    });
    await showSent(ctx, { line, delivery, headers, r, answer, target, secret: s.secret });
    if (unrecorded) throw notRecorded(unrecorded, { sent, n, line, status: answer.status });
  }
  if (failed > 0) {
    throw new Failure(
      `${failed} of ${n} replayed ${n === 1 ? 'delivery' : 'deliveries'} did not get a 2xx answer from ${target}`,
    );
  }
}

/** One replayed delivery on stdout: an NDJSON object (--json), or a line of text. */
async function showSent(
  ctx: Context,
  o: Pick<Prepared, 'line' | 'delivery' | 'headers'> & {
    r: Awaited<ReturnType<typeof postRaw>>;
    answer: { status: number | null; error?: string };
    target: string;
    secret: string | undefined;
  },
): Promise<void> {
  const { line, delivery, r } = o;
  if (printsData(ctx.globals)) {
    await renderJsonLine(ctx.io, {
      line,
      event: delivery.event,
      uuid: delivery.uuid,
      url: o.target,
      signed: o.headers[SIGNATURE_HEADER] !== undefined,
      resigned: o.secret !== undefined,
      ...o.answer,
      ms: r.ms,
    });
    return;
  }
  const mask = masker([o.secret]);
  const name = sanitizeCell(`${delivery.event ?? '(no event)'} ${delivery.uuid ?? '(no uuid)'}`);
  const said = r.ok
    ? `${r.status} ${sanitizeCell(mask(r.statusText)).trim()}`.trim() + ` in ${r.ms} ms`
    : `no answer: ${r.message}`;
  const c = ctx.io.color;
  const ok = outcomeOk(o.answer);
  await renderText(ctx.io, `line ${line}  ${name}  ${ok ? c.green(said) : c.red(said)}\n`);
}

/** Appends one outcome to the journal, if there is one; the failed write, if it failed. */
async function record(
  journal: Journal | undefined,
  o: Omit<ReplayOutcome, 'kind'>,
): Promise<OutputFailed | undefined> {
  try {
    await journal?.append(o);
    return undefined;
  } catch (e) {
    if (e instanceof OutputFailed) return e;
    throw e;
  }
}

/**
 * A replay stopped by an outcome it could not record: what was sent (it cannot be taken back),
 * whose outcome is missing, and that the rest was not sent.
 */
function notRecorded(
  e: OutputFailed,
  o: { sent: number; n: number; line: number; status: number | null },
): OutputFailed {
  const left = o.n - o.sent;
  return e.afterChange(
    `${o.sent} of ${plural(o.n, 'delivery', 'deliveries')} ${o.sent === 1 ? 'was' : 'were'} replayed; the outcome of line ${o.line} (${o.status ?? 'no answer'}) was not recorded`,
    left > 0 ? [`the other ${left} ${left === 1 ? 'was' : 'were'} not sent`] : [],
  );
}
