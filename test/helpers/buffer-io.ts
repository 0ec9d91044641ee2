// An IO over memory buffers: the fake terminal of in-process command tests.
import { PassThrough } from 'node:stream';
import { Chalk } from 'chalk';
import { createStreamIO, type IO } from '../../src/io.js';

export interface BufferIO extends IO {
  stdoutText(): string;
  stderrText(): string;
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
  } = {},
): BufferIO {
  const out: Buffer[] = [];
  const errChunks: Buffer[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (c: Buffer) => out.push(c));
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
