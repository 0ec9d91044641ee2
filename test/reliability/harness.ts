// What every reliability test shares: distinctive secrets, an in-process runner that can
// press Ctrl-C when the command reaches a point and that never waits forever, and the checks
// every run must pass (no stack trace, no leaked secret, one clear error line).
import { expect } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/cli.js';
import { createBufferIO, type BufferIO } from '../helpers/buffer-io.js';

/** If any part of these shows up in any output, a secret leaked. */
export const API_KEY = 'KEYzz9-distinctive-api-key-ABCD';
export const WEBHOOK_SECRET = 'whsecZZ9-distinctive-webhook-secret-QRST';
/** What `auth status` may show of API_KEY (the contract allows the last 4 characters). */
export const MASKED_KEY = '****ABCD';
/** Substrings that must never appear (each is inside one of the secrets, not in normal text). */
const LEAK_MARKERS = ['distinctive', 'KEYzz9', 'whsecZZ9', '-api-key-ABCD', 'secret-QRST'];

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** True when the watchdog had to interrupt the command (it would have hung). */
  hung: boolean;
  /** True when abortWhen fired. */
  aborted: boolean;
}

export interface RunOpts {
  env: Record<string, string | undefined>;
  stdin?: string | Buffer;
  /** Presses Ctrl-C (or sends SIGTERM) once this is true of the output so far. */
  abortWhen?: (stderr: string, stdout: string) => boolean;
  abortReason?: 'SIGINT' | 'SIGTERM';
  /** Interrupts a command still running after this long and reports it as hung. */
  watchdogMs?: number;
  /** Aborting it presses Ctrl-C (reason 'SIGINT' unless it says 'SIGTERM'). */
  signal?: AbortSignal;
  /** Receives the run's IO once it exists (to watch the output while it runs). */
  tap?: (io: BufferIO) => void;
}

/** Runs sched in-process (like test/helpers/run.ts) with a Ctrl-C trigger and a watchdog. */
export async function run(argv: string[], o: RunOpts): Promise<Run> {
  const ac = new AbortController();
  let io: BufferIO | undefined;
  let aborted = false;
  let hung = false;
  const poll = setInterval(() => {
    if (!aborted && io && o.abortWhen?.(io.stderrText(), io.stdoutText())) {
      aborted = true;
      ac.abort(o.abortReason ?? 'SIGINT');
    }
  }, 5);
  const watchdog = setTimeout(() => {
    hung = true;
    ac.abort('SIGINT');
  }, o.watchdogMs ?? 12_000);
  const onOuterAbort = () => ac.abort(o.signal?.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT');
  o.signal?.addEventListener('abort', onOuterAbort, { once: true });
  try {
    const code = await runCli(argv, {
      io: (g) => {
        if (!io) {
          io = createBufferIO({
            stdin: o.stdin ?? '',
            env: o.env,
            color: g.color,
            noInput: g.noInput,
          });
          o.tap?.(io);
        }
        return io;
      },
      env: o.env,
      signal: ac.signal,
    });
    return {
      code,
      stdout: io?.stdoutText() ?? '',
      stderr: io?.stderrText() ?? '',
      hung,
      aborted,
    };
  } finally {
    clearInterval(poll);
    clearTimeout(watchdog);
    o.signal?.removeEventListener('abort', onOuterAbort);
  }
}

export async function tempDir(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const p = await mkdtemp(path.join(tmpdir(), `sched-rel-${prefix}-`));
  return { path: p, remove: () => rm(p, { recursive: true, force: true }) };
}

/** What a person reading the output would call a crash. */
export function expectNoCrash(r: Run, label = ''): void {
  const all = r.stdout + '\n' + r.stderr;
  expect(r.hung, `${label}: the command hung (interrupted by the watchdog)`).toBe(false);
  expect(all, `${label}: stack trace in the output`).not.toContain('\n    at ');
  expect(all, `${label}: stack frame in the output`).not.toMatch(/\bat \S+ \(\S+:\d+:\d+\)/);
  expect(r.stderr, `${label}: unexpected failure`).not.toContain('unexpected failure');
  expect(all, `${label}: a JS value leaked into a message`).not.toMatch(
    /\[object Object\]|\bNaN\b|TypeError|ReferenceError|SyntaxError: /,
  );
}

/** Neither the API key nor the webhook secret appears, in whole or in part. */
export function expectNoSecrets(r: Pick<Run, 'stdout' | 'stderr'>, label = ''): void {
  for (const [name, text] of [
    ['stdout', r.stdout],
    ['stderr', r.stderr],
  ] as const) {
    for (const m of LEAK_MARKERS) {
      expect(
        text.includes(m),
        `${label}: ${name} contains "${m}" (a secret leaked):\n${text}`,
      ).toBe(false);
    }
  }
}

/** Lines of stderr that start an error report ("error: ..."). */
export function errorLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => /^error:/.test(l));
}

/** Exit `code` with exactly one "error:" line matching `re`, short enough to read. */
export function expectOneError(r: Run, code: number, re: RegExp, label = ''): void {
  const lines = errorLines(r.stderr);
  expect(r.code, `${label}: exit code (stderr:\n${r.stderr})`).toBe(code);
  expect(lines.length, `${label}: one error line in:\n${r.stderr}`).toBe(1);
  expect(lines[0], `${label}: the error line`).toMatch(re);
  expect(lines[0]!.length, `${label}: an error line that reads as one line`).toBeLessThan(400);
}
