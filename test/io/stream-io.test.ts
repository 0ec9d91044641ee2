// The terminal IO every command writes through (src/io.ts): which colour level the flags and
// the environment choose, and what a reader that went away means.
import { describe, expect, it } from 'vitest';
import { OutputFailed } from '../../src/errors.js';
import { Chalk, type ChalkInstance } from 'chalk';
import { PassThrough, Writable } from 'node:stream';
import { colorLevel, createStreamIO, PLAIN_STYLES } from '../../src/io.js';
import { createBufferIO } from '../helpers/buffer-io.js';

describe('colorLevel: --no-color, then NO_COLOR, then FORCE_COLOR, then the terminal', () => {
  it.each([
    [true, {}, true, 1],
    [false, {}, true, 0],
    [true, {}, false, 0],
    [true, { NO_COLOR: '' }, true, 0],
    [true, { NO_COLOR: '1', FORCE_COLOR: '3' }, true, 0],
    [false, { FORCE_COLOR: '3' }, true, 0],
    [true, { FORCE_COLOR: '0' }, true, 0],
    [true, { FORCE_COLOR: 'false' }, true, 0],
    [true, { FORCE_COLOR: '' }, false, 1],
    [true, { FORCE_COLOR: '1' }, false, 1],
    [true, { FORCE_COLOR: 'true' }, false, 1],
    [true, { FORCE_COLOR: '2' }, false, 2],
    [true, { FORCE_COLOR: '3' }, false, 3],
  ] as const)('flag %s, env %j, tty %s -> %d', (flag, env, tty, level) => {
    expect(colorLevel(tty, { flag, env })).toBe(level);
  });
});

describe('stdout that goes away or fills up', () => {
  it.each(['EPIPE', 'ERR_STREAM_DESTROYED'])(
    '%s: the next write throws OutputFailed with readerLeft (a quiet stop)',
    async (code) => {
      const io = createBufferIO();
      io.stdout.emit('error', Object.assign(new Error(code), { code }));
      const e = await io.out('more\n').catch((x: unknown) => x);
      expect(e).toBeInstanceOf(OutputFailed);
      expect(e).toMatchObject({
        readerLeft: true,
        quiet: true,
        errno: code,
        code: 'output_failed',
      });
    },
  );

  it.each([
    ['ENOSPC', 'could not write to stdout (no space left on the device, ENOSPC)'],
    ['EIO', 'could not write to stdout (an input/output error, EIO)'],
    ['EWHATEVER', 'could not write to stdout (odd failure, EWHATEVER)'],
  ])('%s: never thrown from the stream; the next write throws it, not quiet', async (code, msg) => {
    const io = createBufferIO();
    expect(() =>
      io.stdout.emit('error', Object.assign(new Error('odd failure'), { code })),
    ).not.toThrow();
    const e = await io.out('more\n').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(OutputFailed);
    expect(e).toMatchObject({ readerLeft: false, quiet: false, errno: code, exitCode: 1 });
    expect((e as Error).message).toBe(msg);
  });

  /** A stdout whose writes fail with `code` (a full disk: the write's own callback says so). */
  function failingStdout(code: string, after = 0) {
    let writes = 0;
    return new Writable({
      write(_chunk, _enc, cb) {
        writes += 1;
        cb(writes > after ? Object.assign(new Error(code), { code }) : null);
      },
    });
  }

  it('the write that fails is the one that throws (not a later one)', async () => {
    const stdout = failingStdout('ENOSPC', 1);
    const io = createStreamIO({ ...plainOptions(), stdout });
    await io.out('first\n');
    await expect(io.out('second\n')).rejects.toMatchObject({ errno: 'ENOSPC' });
    await expect(io.out('third\n')).rejects.toMatchObject({ errno: 'ENOSPC' });
  });

  it('a write that throws at once (a closed descriptor) is the same typed failure', async () => {
    const stdout = new Writable({ write: (_c, _e, cb) => cb() });
    stdout.write = () => {
      throw Object.assign(new Error('bad fd'), { code: 'EBADF' });
    };
    const io = createStreamIO({ ...plainOptions(), stdout });
    await expect(io.out('x\n')).rejects.toMatchObject({ errno: 'EBADF', readerLeft: false });
  });

  it('stdout closed before the write is done: a reader that left', async () => {
    const stdout = new Writable({ write: () => {} }); // never calls back: a reader that stalls
    const io = createStreamIO({ ...plainOptions(), stdout });
    const written = io.out('x\n');
    stdout.destroy();
    await expect(written).rejects.toMatchObject({ readerLeft: true });
  });

  it('a stderr that fails is dropped: err() never throws, stdout goes on', async () => {
    const stderr = failingStdout('ENOSPC');
    const io = createStreamIO({ ...plainOptions(), stderr });
    io.err('a note');
    io.errRaw('a bar');
    await new Promise((r) => setImmediate(r));
    expect(() => io.err('another note')).not.toThrow();
    await expect(io.out('data\n')).resolves.toBeUndefined();
  });
});

function plainOptions() {
  return {
    stdin: new PassThrough(),
    stdout: new PassThrough().on('data', () => {}),
    stderr: new PassThrough().on('data', () => {}),
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    color: { flag: false, env: {} },
    noInput: false,
  };
}

describe('addSecrets: the gate masks what the command knows, in every stream and encoding', () => {
  it('out, err and errRaw, raw, JSON-escaped and percent-encoded; short values ignored', async () => {
    const io = createBufferIO();
    const secret = 'a"b\\c d/e';
    await io.out(`before ${secret}\n`);
    io.addSecrets([secret, 'abc', undefined]);
    await io.out(`raw ${secret} json ${JSON.stringify(secret)}\n`);
    io.err(`url ${encodeURIComponent(secret)} form ${new URLSearchParams({ s: secret })}`);
    io.errRaw(`\rlower ${encodeURIComponent(secret).toLowerCase()} abc`);
    expect(io.stdoutText()).toBe(`before ${secret}\nraw **** json "****"\n`);
    expect(io.stderrText()).toBe('url **** form s=****\n\rlower **** abc');
  });
});

describe('PLAIN_STYLES: no colour without loading chalk', () => {
  // What chalk gives at level 0, which the plain styles stand in for when colour is off.
  const chalk0 = new Chalk({ level: 0 });
  it.each([
    ['red', (c: ChalkInstance) => c.red('error:')],
    ['dim', (c: ChalkInstance) => c.dim('hint: x')],
    ['a chain', (c: ChalkInstance) => c.bold.yellow('warn')],
    ['several arguments', (c: ChalkInstance) => c.green('a', 'b', 3)],
    ['an empty string', (c: ChalkInstance) => c.cyan('')],
    ['by name', (c: ChalkInstance) => c['cyan']('https://x')],
  ])('%s', (_name, call) => {
    expect(call(PLAIN_STYLES)).toBe(call(chalk0));
    expect(PLAIN_STYLES.level).toBe(0);
  });

  it('an IO made without chalk has no colour even when colour is asked for', () => {
    const io = createStreamIO({
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      stdinIsTTY: false,
      stdoutIsTTY: true,
      stderrIsTTY: true,
      color: { flag: true, env: { FORCE_COLOR: '1' } },
      noInput: true,
    });
    expect(io.colorErr.red('error:')).toBe('error:');
    expect(io.color.level).toBe(0);
  });
});
