// The terminal IO every command writes through (src/io.ts): which colour level the flags and
// the environment choose, and what a reader that went away means.
import { describe, expect, it } from 'vitest';
import { QuietExit } from '../../src/errors.js';
import { Chalk, type ChalkInstance } from 'chalk';
import { PassThrough } from 'node:stream';
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

describe('stdout that goes away', () => {
  it.each(['EPIPE', 'ERR_STREAM_DESTROYED'])(
    '%s: the next write ends the command quietly (QuietExit)',
    async (code) => {
      const io = createBufferIO();
      io.stdout.emit('error', Object.assign(new Error(code), { code }));
      await expect(io.out('more\n')).rejects.toBeInstanceOf(QuietExit);
    },
  );

  it('any other stdout error is not swallowed', () => {
    const io = createBufferIO();
    expect(() =>
      io.stdout.emit('error', Object.assign(new Error('disk full'), { code: 'ENOSPC' })),
    ).toThrow('disk full');
  });
});

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
