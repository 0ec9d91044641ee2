// The one opener and reader of files a user names on the command line: `events send
// --payload-file`, `sig sign|verify --payload-file`, `sched api --input`, `events replay <file>`,
// `webhooks sync --file`, `sandbox --faults`, `sandbox --state` (and the opener of `webhooks
// listen --record`). A leaf: node built-ins, errors.ts and text/ only.
//
// - The file is opened once, never blocking: O_NONBLOCK, so opening a FIFO nobody writes to
//   (or, for appending, nobody reads) returns at once instead of parking a thread of the pool
//   that Node would wait for on exit — SIGTERM could not end the process. What it is (a regular
//   file, a FIFO, a directory) and who owns it are read from the open descriptor (fstat), never
//   from the path again, so a file swapped between a check and the read is never the one read.
// - A FIFO (or a socket) is read as a pipe, through the event loop; a regular file through a
//   file reader. Either read stops as soon as the caller's signal aborts (Ctrl-C, SIGTERM:
//   `Interrupted`, exit 130/143) and as soon as it passes the caller's cap (/dev/zero never ends).
import { addAbortListener } from 'node:events';
import { close, constants, fstat, open as openFd, read, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { Interrupted, signalOf, UsageError } from './errors.js';
import { fileProblem } from './text/file-problem.js';
import { readAtMost } from './read-bytes.js';
import { quote } from './text/quote.js';

const openAsync = promisify(openFd);
const fstatAsync = promisify(fstat);
const closeAsync = promisify(close);

/** The bytes of an opened file, and how to stop reading them at once. */
export interface ByteSource extends AsyncIterable<Buffer> {
  stop(): void;
}

/** A stream (stdin) as a ByteSource: stopping it destroys it. */
export function streamSource(stream: Readable): ByteSource {
  return {
    [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>,
    stop: () => stream.destroy(new Error('aborted')),
  };
}

function fsError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/** A user file open for reading. Close it once done (the descriptor is never leaked). */
export class OpenedFile {
  private socket: Socket | undefined;
  private closed = false;

  constructor(
    readonly fd: number,
    /** fstat of the open descriptor. */
    readonly stat: Stats,
  ) {}

  /** A regular file (seekable, its size known). */
  get regular(): boolean {
    return this.stat.isFile();
  }

  /** Up to `length` bytes at `position` (a regular file); the number read. */
  read(buf: Buffer, length: number, position: number | null): Promise<number> {
    return new Promise((resolve, reject) =>
      read(this.fd, buf, 0, length, position, (e, n) => (e ? reject(e) : resolve(n))),
    );
  }

  /**
   * The bytes: a pipe (FIFO, socket) through the event loop — the pipe then owns the
   * descriptor; anything else by reads on the descriptor, which stays open for the caller (a
   * second pass, positioned reads). One source per file.
   */
  bytes(): ByteSource {
    if (this.stat.isFIFO() || this.stat.isSocket()) {
      const socket = new Socket({ fd: this.fd, readable: true, writable: false });
      this.socket = socket;
      return Object.assign(socket as AsyncIterable<Buffer>, {
        stop: () => socket.destroy(new Error('aborted')),
      });
    }
    let stopped = false;
    const readAt = (buf: Buffer, position: number) =>
      this.read(buf, buf.length, this.regular ? position : null);
    async function* chunks(): AsyncGenerator<Buffer> {
      let position = 0;
      for (;;) {
        if (stopped) throw new Error('aborted');
        const buf = Buffer.allocUnsafe(64 * 1024);
        const n = await readAt(buf, position);
        if (n === 0) return;
        position += n;
        yield buf.subarray(0, n);
      }
    }
    return Object.assign(chunks(), { stop: () => (stopped = true) });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.socket) this.socket.destroy();
    else await closeAsync(this.fd).catch(() => undefined);
  }
}

/**
 * Opens `file` for reading without ever blocking and checks the open descriptor. Throws what
 * fs threw (callers word it with fileProblem; a directory is EISDIR).
 */
export async function openUserFile(file: string): Promise<OpenedFile> {
  const fd = await openAsync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  const f = new OpenedFile(
    fd,
    await fstatAsync(fd).catch(async (e: unknown) => {
      await closeAsync(fd).catch(() => undefined);
      throw e;
    }),
  );
  if (f.stat.isDirectory()) {
    await f.close();
    throw fsError('EISDIR', 'it is a directory');
  }
  return f;
}

/**
 * Opens `file` for appending (`webhooks listen --record`, `events replay`'s outcomes): created
 * with `mode` (unless `create` is false), a symbolic
 * link never followed, never blocking (a FIFO nobody reads fails at once with ENXIO instead of
 * waiting), and only a regular file kept (ENOTREG otherwise).
 */
export async function openAppendFile(
  file: string,
  mode: number,
  opts: { create: boolean } = { create: true },
): Promise<FileHandle> {
  const fh = await open(
    file,
    constants.O_WRONLY |
      constants.O_APPEND |
      (opts.create ? constants.O_CREAT : 0) |
      constants.O_NOFOLLOW |
      constants.O_NONBLOCK,
    mode,
  );
  const st = await fh.stat().catch(() => undefined);
  if (!st?.isFile()) {
    await fh.close().catch(() => undefined);
    throw fsError('ENOTREG', 'it is not a regular file');
  }
  // Checked on the open descriptor, not the path: a hard link planted at the path would send
  // what is appended (signatures, personal data) into a file someone else can read.
  if (st.nlink > 1) {
    await fh.close().catch(() => undefined);
    throw fsError('ENLINK', 'it has other hard links (another name for the same file)');
  }
  return fh;
}

/** How a command names a file in its messages: `--input "body.json"`, `recording "rec.ndjson"`. */
export function fileLabel(what: string, file: string): string {
  return `${what} ${quote(file)}`;
}

/** Runs `work` on `source`; an abort of `signal` stops the source and throws Interrupted. */
export async function untilAborted<T>(
  source: ByteSource,
  signal: AbortSignal | undefined,
  label: string,
  work: (s: ByteSource) => Promise<T>,
): Promise<T> {
  if (!signal) return work(source);
  const listening = addAbortListener(signal, () => source.stop());
  try {
    return await work(source);
  } catch (e) {
    if (signal.aborted) {
      throw new Interrupted(`interrupted while reading ${label}`, {
        signal: signalOf(signal.reason),
      });
    }
    throw e;
  } finally {
    listening[Symbol.dispose]();
  }
}

export type ReadResult = { bytes: Buffer } | { tooLarge: true; size: number | undefined };

/**
 * The whole file, at most `max` bytes: a regular file larger than that is refused from its
 * size before a byte is read; any other source stops at the first byte past it. Throws
 * UsageError "cannot read <what> "<file>": <problem>", or Interrupted.
 */
export async function readUserFile(
  file: string,
  opts: { what: string; max: number; signal?: AbortSignal },
): Promise<ReadResult> {
  const label = fileLabel(opts.what, file);
  let f: OpenedFile;
  try {
    f = await openUserFile(file);
  } catch (e) {
    throw new UsageError(`cannot read ${label}: ${fileProblem(e)}`);
  }
  try {
    if (f.regular && f.stat.size > opts.max) return { tooLarge: true, size: f.stat.size };
    const source = f.bytes();
    try {
      const bytes = await untilAborted(source, opts.signal, label, (s) => readAtMost(s, opts.max));
      return bytes === undefined ? { tooLarge: true, size: undefined } : { bytes };
    } catch (e) {
      if (e instanceof Interrupted) throw e;
      throw new UsageError(`cannot read ${label}: ${fileProblem(e)}`);
    } finally {
      source.stop();
    }
  } finally {
    await f.close();
  }
}

export interface FileLine {
  /** 1-based. */
  line: number;
  /** The line's bytes, without its LF (nor a CR before it). */
  bytes: Buffer;
  /** Offset of the line's first byte in the file. */
  start: number;
}

/** A line past the reader's bound: `line` is its number. */
export class LineTooLong extends Error {
  constructor(readonly line: number) {
    super(`line ${line} is too long`);
  }
}

/**
 * The lines of a stream, one at a time, each at most `maxLine` bytes: a longer line throws
 * LineTooLong as soon as it passes the bound, so no more than that is ever held.
 */
export async function* boundedLines(
  stream: AsyncIterable<unknown>,
  maxLine: number,
): AsyncGenerator<FileLine> {
  let pending: Buffer[] = [];
  let pendingSize = 0;
  let line = 1;
  let start = 0;
  let offset = 0;
  const take = (tail: Buffer): FileLine => {
    let bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, -1);
    const out = { line, bytes, start };
    pending = [];
    pendingSize = 0;
    return out;
  };
  for await (const c of stream) {
    const chunk = c as Buffer;
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, from);
      if (nl === -1) break;
      if (pendingSize + nl - from > maxLine) throw new LineTooLong(line);
      const l = take(chunk.subarray(from, nl));
      yield l;
      line += 1;
      start = offset + nl + 1;
      from = nl + 1;
    }
    const rest = chunk.subarray(from);
    if (pendingSize + rest.length > maxLine) throw new LineTooLong(line);
    if (rest.length > 0) {
      // A copy: the stream may reuse its buffers.
      pending.push(Buffer.from(rest));
      pendingSize += rest.length;
    }
    offset += chunk.length;
  }
  if (pendingSize > 0) yield take(Buffer.alloc(0));
}
