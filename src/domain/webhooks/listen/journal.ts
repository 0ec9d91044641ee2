// The recording as a journal: `sched events replay` appends one outcome line per delivery it
// sent (which line, where to, the answer), after the lines `webhooks listen --record` wrote, so
// `replay --failed` picks the deliveries whose LATEST outcome failed — a forward that failed
// and was since replayed with a 2xx answer is not sent again. The delivery lines are never
// touched; a recording without outcome lines reads as before.
import type { FileHandle } from 'node:fs/promises';
import { OutputFailed } from '../../../errors.js';
import type { OpenedFile } from '../../../user-file.js';
import { AppendRefused, appendLine, openPrivateAppend } from './capture.js';

/** What marks a line as the outcome of a replay (and its format's version). */
export const OUTCOME_KIND = 'sched.replay-outcome/1';

export interface ReplayOutcome {
  kind: typeof OUTCOME_KIND;
  /** When the delivery was sent. */
  at: string;
  /** The line of the recorded delivery that was sent (1-based; a recording is only appended to). */
  line: number;
  /** That delivery's uuid, as its line holds it: an outcome whose line holds another is ignored. */
  uuid: string | null;
  /** Where it was sent (--to). */
  to: string;
  /** The receiver's status, or null when it did not answer (then `error` says why). */
  status: number | null;
  error?: string;
}

/** Why `v` (an object whose kind is OUTCOME_KIND) is not an outcome line, or undefined. */
export function outcomeProblem(v: Record<string, unknown>): string | undefined {
  if (!Number.isSafeInteger(v.line) || (v.line as number) < 1) return 'has no delivery line';
  if (v.uuid !== null && typeof v.uuid !== 'string') return 'has a uuid that is not a string';
  if (v.status !== null && !Number.isSafeInteger(v.status)) return 'has no status';
  if (typeof v.at !== 'string' || typeof v.to !== 'string') return 'has no time or target';
  return undefined;
}

/** True when an outcome is a 2xx answer. */
export function outcomeOk(o: Pick<ReplayOutcome, 'status'>): boolean {
  return o.status !== null && o.status >= 200 && o.status < 300;
}

/** The word for the recording in a failed write: `could not write to recording "rec.ndjson"`. */
const TARGET = 'recording';

/** Appends a replay's outcomes to the recording it read, in the order sent. */
export class Journal {
  /** Outcomes appended. */
  written = 0;

  private constructor(
    readonly file: string,
    private readonly fh: FileHandle,
    /** The file does not end with a line break: the first outcome starts with one. */
    private newline: boolean,
  ) {}

  /**
   * Opens the recording `read` is reading for appending, under the rule of `--record`
   * (openPrivateAppend: never created, no symbolic link, no other hard link, the user's own and
   * readable by no one else) — and only the very file read (a file put in its place is not).
   * Returns why not, in words, when it is refused; the replay then records no outcome.
   */
  static async open(file: string, read: OpenedFile): Promise<Journal | { refused: string }> {
    if (!read.regular) return { refused: 'it is not a regular file' };
    const opened = await openPrivateAppend(file, { create: false });
    if (opened instanceof AppendRefused) return { refused: opened.why };
    const { fh, stat, size } = opened;
    if (stat.dev !== read.stat.dev || stat.ino !== read.stat.ino) {
      await fh.close().catch(() => undefined);
      return { refused: 'another file took its place while it was read' };
    }
    let newline = false;
    if (size > 0) {
      const last = Buffer.alloc(1);
      await read.read(last, 1, size - 1);
      newline = last[0] !== 0x0a;
    }
    return new Journal(file, fh, newline);
  }

  /**
   * Appends one outcome; a write that fails throws OutputFailed (the recording named), after
   * cutting off what part of the line was written, so the recording still reads.
   */
  async append(o: Omit<ReplayOutcome, 'kind'>): Promise<void> {
    const text = `${this.newline ? '\n' : ''}${JSON.stringify({ kind: OUTCOME_KIND, ...o })}\n`;
    const line = Buffer.from(text, 'utf8');
    try {
      // Cuts off only its own part of a line that failed: never what another writer appended.
      await appendLine(this.fh, line);
    } catch (e) {
      throw new OutputFailed({ kind: 'file', flag: TARGET, path: this.file }, e);
    }
    this.newline = false;
    this.written += 1;
  }

  async close(): Promise<void> {
    await this.fh.close().catch(() => undefined);
  }
}
