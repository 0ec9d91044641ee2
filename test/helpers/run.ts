// Runs `sched` in-process with a buffer IO: the way most command tests run.
import { runCli } from '../../src/cli.js';
import { createBufferIO, type StdoutFault } from './buffer-io.js';
import type { Prompter } from '../../src/prompt.js';
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  stdin?: string | Buffer;
  /** Pretend stdin, stdout and stderr are terminals. */
  tty?: boolean;
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  prompter?: Prompter;
  signal?: AbortSignal;
  columns?: number;
  /** The name the program is invoked as (src/names.ts): `sched` when not given. */
  name?: string;
  /** stdout fails after some writes (a full disk, a reader that left). */
  stdoutFails?: StdoutFault;
  stderrIsTTY?: boolean;
}

export async function runSched(argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  const env = { ...opts.env };
  const io = (g: { color: boolean; noInput: boolean }) =>
    createBufferIO({
      stdin: opts.stdin,
      tty: opts.tty,
      stdinIsTTY: opts.stdinIsTTY,
      stdoutIsTTY: opts.stdoutIsTTY,
      stderrIsTTY: opts.stderrIsTTY,
      stdoutFails: opts.stdoutFails,
      env,
      color: g.color,
      noInput: g.noInput,
      columns: opts.columns,
    });
  let made: ReturnType<typeof createBufferIO> | undefined;
  const code = await runCli(argv, {
    io: (g) => (made ??= io(g)),
    env,
    signal: opts.signal,
    prompter: opts.prompter,
    name: opts.name,
  });
  return { code, stdout: made?.stdoutText() ?? '', stderr: made?.stderrText() ?? '' };
}

export const BIN = fileURLToPath(new URL('../../bin/sched.js', import.meta.url));

/**
 * The standalone executable under test, when SCHED_TEST_BINARY names one (CI sets it to
 * dist/bin/sched-linux-x64 for the smoke and core end-to-end tests): then spawnSched runs it
 * instead of `node bin/sched.js`.
 */
export const STANDALONE = process.env.SCHED_TEST_BINARY || undefined;

/** The command line that runs the `sched` under test: `node bin/sched.js`, or the executable. */
export const SCHED_COMMAND: readonly string[] = STANDALONE ? [STANDALONE] : [process.execPath, BIN];

/** Spawns the built binary (end-to-end tests), or the standalone executable (STANDALONE). */
export async function spawnSched(
  argv: string[],
  opts: {
    env?: Record<string, string | undefined>;
    input?: string | Buffer;
    timeout?: number;
  } = {},
): Promise<RunResult> {
  const [command, ...pre] = SCHED_COMMAND;
  const r = await execa(command!, [...pre, ...argv], {
    env: { NO_COLOR: undefined, FORCE_COLOR: undefined, ...opts.env },
    extendEnv: true,
    input: opts.input ?? '',
    reject: false,
    timeout: opts.timeout ?? 20_000,
    stripFinalNewline: false,
  });
  return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/**
 * Makes `dir` the home of a shell a reader would use: `sched` (the built binary) on the PATH in
 * `dir/bin`, the config in `dir/config`, no colour. Returns the env for execa (extendEnv: false).
 */
export async function shellHome(dir: string): Promise<Record<string, string>> {
  const { chmod, mkdir, writeFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  await mkdir(join(dir, 'bin'), { recursive: true });
  const wrapper = join(dir, 'bin', 'sched');
  await writeFile(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  await chmod(wrapper, 0o755);
  return {
    PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`,
    HOME: dir,
    SCHED_CONFIG_DIR: join(dir, 'config'),
    NO_COLOR: '1',
  };
}
