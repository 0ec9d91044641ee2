// An IO over memory buffers: the fake terminal of in-process command tests.
import { PassThrough, Writable } from 'node:stream';
import { Chalk } from 'chalk';
import { createStreamIO, type IO } from '../../src/io.js';

export interface BufferIO extends IO {
  stdoutText(): string;
  stderrText(): string;
}

export interface StdoutFault {
  /** The error's code: ENOSPC (a full disk), EPIPE (the reader left), EIO. */
  code: string;
  /** Writes that succeed first. */
  writes: number;
}

/** A stdout whose writes after the first `writes` fail with `code`, as Node's streams fail. */
function failingWritable(fault: StdoutFault, out: Buffer[]): Writable {
  let n = 0;
  return new Writable({
    write(chunk: Buffer, _enc, cb) {
      n += 1;
      if (n > fault.writes) return cb(Object.assign(new Error(fault.code), { code: fault.code }));
      out.push(chunk);
      cb();
    },
  });
}

export function createBufferIO(
  opts: {
    stdin?: string | Buffer;
    tty?: boolean;
    stdinIsTTY?: boolean;
    stdoutIsTTY?: boolean;
    stderrIsTTY?: boolean;
    env?: Record<string, string | undefined>;
    color?: boolean;
    noInput?: boolean;
    columns?: number;
    /** stdout's writes fail with this code after `writes` of them succeeded (a full disk). */
    stdoutFails?: StdoutFault;
  } = {},
): BufferIO {
  const out: Buffer[] = [];
  const errChunks: Buffer[] = [];
  const stdout = opts.stdoutFails ? failingWritable(opts.stdoutFails, out) : new PassThrough();
  const stderr = new PassThrough();
  if (!opts.stdoutFails) stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => errChunks.push(c));
  const stdin = new PassThrough();
  if (opts.stdin !== undefined) stdin.end(opts.stdin);
  else stdin.end();
  const tty = opts.tty ?? false;
  const io = createStreamIO({
    stdin,
    stdout,
    stderr,
    stdinIsTTY: opts.stdinIsTTY ?? tty,
    stdoutIsTTY: opts.stdoutIsTTY ?? tty,
    stderrIsTTY: opts.stderrIsTTY ?? tty,
    columns: opts.columns ?? 120,
    color: { flag: opts.color ?? true, env: opts.env ?? {} },
    noInput: opts.noInput ?? false,
    Chalk,
  });
  return {
    ...io,
    stdoutText: () => Buffer.concat(out).toString('utf8'),
    stderrText: () => Buffer.concat(errChunks).toString('utf8'),
  };
}
