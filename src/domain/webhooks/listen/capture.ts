// The recording of `sched webhooks listen --record <file>` and what `sched events replay` reads
// back: one NDJSON line per delivery received — when, method, path, every header as it came
// (names, values and order), the body byte-exact, and the signature verdict. The file is mode
// 0600 and the user's own: it holds signatures and personal data. A line is bounded by the
// receiver's own caps (a body of at most 5 MiB, headers of at most 16 KiB), so the file never
// holds more per delivery than the listener itself would.
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { openAppendFile } from '../../../user-file.js';
import { exposureStat, octal, readableBy, type Exposure } from '../../../config/ownership.js';
import { UsageError } from '../../../errors.js';
import { fileProblem } from '../../../text/file-problem.js';
import { quote } from '../../../text/quote.js';
import type { Verdict } from './record.js';

/** What marks a line as a recorded delivery (and its format's version). */
export const CAPTURE_KIND = 'sched.webhook-delivery/1';

export interface CapturedDelivery {
  kind: typeof CAPTURE_KIND;
  receivedAt: string;
  method: string;
  path: string;
  /** Every header as it came on the wire: [name, value] pairs in order. */
  headers: Array<[string, string]>;
  /** The body as UTF-8 text when it is exactly that, else undefined (see bodyBase64). */
  body?: string;
  /** The body in base64 when its bytes are not UTF-8 text. */
  bodyBase64?: string;
  /**
   * Why the body is not in the recording (neither body nor bodyBase64): with a secret, an
   * unverified delivery leaves only its headers and verdict (`--record-unverified` keeps it).
   */
  bodyOmitted?: string;
  /**
   * What became of its forwards (`listen --forward-to`), when it was forwarded: each target's
   * status, or why there was none. Absent: not forwarded.
   */
  forwards?: Array<{ url: string; status?: number; error?: string; attempts: number }>;
  bytes: number;
  event: string | null;
  uuid: string | null;
  signature: Verdict;
  signatureReason: string | null;
}

/** A captured delivery from what the receiver got. */
export function captureOf(
  raw: { method: string; path: string; rawHeaders: readonly string[]; body: Buffer },
  seen: {
    receivedAt: Date;
    event: string | null;
    uuid: string | null;
    signature: Verdict;
    signatureReason: string | null;
    /** Set to leave the body out, saying why. */
    omitBody?: string;
    forwards?: ReadonlyArray<{ url: string; status?: number; error?: string; attempts: number }>;
  },
): CapturedDelivery {
  const headers: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.rawHeaders.length; i += 2) {
    headers.push([raw.rawHeaders[i]!, raw.rawHeaders[i + 1]!]);
  }
  const text = seen.omitBody === undefined ? raw.body.toString('utf8') : '';
  const exact = Buffer.from(text, 'utf8').equals(raw.body);
  const body =
    seen.omitBody !== undefined
      ? { bodyOmitted: seen.omitBody }
      : exact
        ? { body: text }
        : { bodyBase64: raw.body.toString('base64') };
  return {
    kind: CAPTURE_KIND,
    receivedAt: seen.receivedAt.toISOString(),
    method: raw.method,
    path: raw.path,
    headers,
    ...body,
    bytes: raw.body.length,
    event: seen.event,
    uuid: seen.uuid,
    signature: seen.signature,
    signatureReason: seen.signatureReason,
    ...(seen.forwards
      ? {
          forwards: seen.forwards.map((f) =>
            f.error !== undefined
              ? { url: f.url, error: f.error, attempts: f.attempts }
              : { url: f.url, status: f.status, attempts: f.attempts },
          ),
        }
      : {}),
  };
}

/** True when a recorded delivery was forwarded and no forward got a 2xx answer. */
export function forwardsFailed(c: CapturedDelivery): boolean {
  return (
    Array.isArray(c.forwards) &&
    !c.forwards.some((f) => typeof f.status === 'number' && f.status >= 200 && f.status < 300)
  );
}

/** The exact bytes of a captured body. */
export function capturedBody(c: CapturedDelivery): Buffer {
  return c.bodyBase64 !== undefined
    ? Buffer.from(c.bodyBase64, 'base64')
    : Buffer.from(c.body ?? '', 'utf8');
}

/** A captured delivery's headers as one object (a repeated name keeps its values in order). */
export function capturedHeaders(c: CapturedDelivery): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of c.headers) {
    const k = name.toLowerCase();
    const had = out[k];
    out[k] = had === undefined ? value : [had, value].flat();
  }
  return out;
}

/**
 * The most a recording file may hold, what was in it before included: past it, recording stops
 * (with one note) rather than fill the disk for whoever can reach the listener.
 */
export const MAX_RECORDING_BYTES = 256 * 1024 * 1024;

/** Appends captured deliveries to a file, one line each, in the order given; never throws. */
export class CaptureFile {
  private chain: Promise<void> = Promise.resolve();
  /** Why writing stopped, once it did (nothing more is written). */
  failed: string | undefined;
  /** The write's own error, when one failed (not when the file only reached its size cap). */
  error: unknown;
  /** True when writing stopped because the file reached MAX_RECORDING_BYTES (not an error). */
  full = false;

  private constructor(
    readonly file: string,
    private readonly fh: FileHandle,
    /** The file's size: what it held when opened, plus what was appended. */
    private size: number,
    private readonly maxBytes: number,
  ) {}

  /**
   * Opens `file` for appending, created mode 0600, with the rule of openPrivateAppend (a
   * symbolic link, other hard links, another owner or other readers refused).
   */
  static async open(file: string, maxBytes = MAX_RECORDING_BYTES): Promise<CaptureFile> {
    const r = await openPrivateAppend(file, { create: true });
    if (r instanceof AppendRefused) {
      throw new UsageError(`cannot record to ${quote(file)}: ${r.why}${r.newFile ? NEW_FILE : ''}`);
    }
    return new CaptureFile(file, r.fh, r.size, maxBytes);
  }

  append(c: CapturedDelivery): Promise<void> {
    this.chain = this.chain.then(async () => {
      if (this.failed !== undefined) return;
      const line = Buffer.from(JSON.stringify(c) + '\n', 'utf8');
      if (this.size + line.length > this.maxBytes) {
        this.full = true;
        this.failed = `it reached ${this.maxBytes / 1024 / 1024} MiB, the most a recording holds`;
        return;
      }
      try {
        await appendLine(this.fh, line);
        this.size += line.length;
      } catch (e) {
        this.failed = fileProblem(e);
        this.error = e;
      }
    });
    return this.chain;
  }

  async close(): Promise<void> {
    await this.chain;
    await this.fh.close().catch(() => undefined);
  }
}

/**
 * Appends one line to a recording, which another process may be appending to at the same time
 * (`listen --record` still running while `events replay` appends its outcomes). The line goes
 * in one write() (looping only on a short one): a regular file's O_APPEND writes do not
 * interleave, where `appendFile` writes 512 KiB at a time and another writer's line could land
 * inside a long one. When a write fails part-way (a full disk), the part written is cut off so
 * the recording still reads — but only when the file grew by exactly that part since just
 * before the write: truncating to a size remembered earlier would cut off the lines another
 * writer appended meanwhile.
 */
export async function appendLine(fh: FileHandle, line: Buffer): Promise<void> {
  const before = (await fh.stat()).size;
  let done = 0;
  try {
    while (done < line.length) {
      const { bytesWritten } = await fh.write(line, done, line.length - done);
      done += bytesWritten;
    }
  } catch (e) {
    if (done > 0) {
      const after = await fh.stat().then(
        (st) => st.size,
        () => undefined,
      );
      if (after === before + done) await fh.truncate(before).catch(() => undefined);
    }
    throw e;
  }
}

/** The fix of a refusal whose file cannot be made private again (its readers keep it open). */
const NEW_FILE = '; record to a new file';

/**
 * Why a recording is not appended to: `why` in words; `newFile` when the fix is another file
 * (another owner, other readers, other names), not something done to this one.
 */
export class AppendRefused {
  constructor(
    readonly why: string,
    readonly newFile: boolean,
    /** The system's code, when the open failed (ELOOP, ENLINK, EACCES, ...). */
    readonly code?: string,
  ) {}
}

/**
 * The one rule of a file sched appends deliveries or their outcomes to (`listen --record`, the
 * outcomes `events replay` adds to a recording): opened for appending (created mode 0600 when
 * `create`), a symbolic link never followed (a link planted at the path must not redirect it),
 * only a regular file with no other hard link, the user's own and readable by no one else
 * (exposureStat, the config's group rule): one that was open to others may be open in another
 * process already, which a chmod would not close. It is then set to 0600. Else why not.
 */
export async function openPrivateAppend(
  file: string,
  opts: { create: boolean },
): Promise<{ fh: FileHandle; size: number; stat: Stats } | AppendRefused> {
  let fh: FileHandle | undefined;
  let st: Stats;
  let exposed: Exposure | undefined;
  try {
    fh = await openAppendFile(file, 0o600, opts);
    st = await fh.stat();
    exposed = exposureStat(st);
    if (!exposed) await fh.chmod(0o600);
  } catch (e) {
    await fh?.close().catch(() => undefined);
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return new AppendRefused('it is a symbolic link', false, code);
    if (code === 'ENLINK') {
      return new AppendRefused(
        'it has other hard links (another name for the same file)',
        true,
        code,
      );
    }
    return new AppendRefused(fileProblem(e), false, code);
  }
  if (exposed) {
    await fh.close().catch(() => undefined);
    const what =
      exposed.why === 'owner'
        ? `it belongs to another user (uid ${exposed.uid})`
        : `it is ${readableBy(exposed)} (mode ${octal(exposed.mode)}), and a reader may have it open already`;
    return new AppendRefused(what, true);
  }
  return { fh, size: st.size, stat: st };
}

const VERDICTS = new Set(['valid', 'invalid', 'missing', 'unchecked']);

/** Why `v` is not a captured delivery, or undefined when it is one. */
export function captureProblem(v: unknown): string | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'is not a JSON object';
  const o = v as Record<string, unknown>;
  if (o.kind !== CAPTURE_KIND) return `has no "kind":"${CAPTURE_KIND}"`;
  if (typeof o.method !== 'string' || typeof o.path !== 'string') return 'has no method or path';
  if (
    !Array.isArray(o.headers) ||
    !o.headers.every(
      (h) =>
        Array.isArray(h) && h.length === 2 && typeof h[0] === 'string' && typeof h[1] === 'string',
    )
  ) {
    return 'has headers that are not [name, value] pairs';
  }
  if (
    typeof o.body !== 'string' &&
    typeof o.bodyBase64 !== 'string' &&
    typeof o.bodyOmitted !== 'string'
  )
    return 'has no body';
  if (typeof o.signature !== 'string' || !VERDICTS.has(o.signature))
    return 'has no signature verdict';
  if (o.uuid !== null && typeof o.uuid !== 'string') return 'has a uuid that is not a string';
  if (o.event !== null && typeof o.event !== 'string') return 'has an event that is not a string';
  return undefined;
}
