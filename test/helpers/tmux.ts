// Real-terminal tests: runs a program in a detached tmux session (its own server and socket,
// so it never touches a user's tmux), types into it with send-keys and reads the screen with
// capture-pane, as a person at a terminal would. Tests using it skip when tmux is absent.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './run.js';
import { unavailable } from './skip.js';

function commandExists(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const HAS_TMUX = commandExists('tmux');

/** For `describe.skipIf(noTmux())`: skip without tmux (a failure under CI=true, see skip.ts). */
export function noTmux(): boolean {
  return unavailable(!HAS_TMUX && 'tmux is not installed (apt-get install tmux)');
}

/** A describe/it title that says why it was skipped when tmux is missing. */
export function tmuxTitle(title: string): string {
  return HAS_TMUX
    ? title
    : `${title} — SKIPPED: tmux is not installed (apt-get install tmux; CI installs it)`;
}

export interface TerminalOptions {
  /** Environment of the program, added to a minimal one (PATH, HOME, LANG, TERM). */
  env?: Record<string, string>;
  cwd?: string;
  width?: number;
  height?: number;
}

export interface Terminal {
  /** Types text literally (no key names). */
  type(text: string): Promise<void>;
  /** Sends tmux key names: "Enter", "Tab", "Up", "Down", "Space", "BSpace", "C-c", "Escape". */
  sendKeys(...keys: string[]): Promise<void>;
  /**
   * What the terminal shows, with the lines scrolled above it (the session is new, so that is
   * all the program wrote), trailing blank lines removed. tmux can scroll a line away at start
   * (a program that prints at once lost its first line), so the visible part alone is not enough.
   */
  screen(): Promise<string>;
  /** Polls the screen until it matches; throws with the last screen when time runs out. */
  waitForScreen(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Waits for the program to end and returns its exit status (128 + n if signal n ended it). */
  waitForExit(timeoutMs?: number): Promise<number>;
  /** Ends the session and its tmux server. Safe to call twice. */
  kill(): Promise<void>;
}

const SESSION = 'sched-test';
const POLL_MS = 50;

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Starts `argv` in a fresh terminal of width x height (default 120 x 40). */
export async function startTerminal(argv: string[], opts: TerminalOptions = {}): Promise<Terminal> {
  if (!HAS_TMUX) throw new Error('tmux is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'sched-tmux-'));
  const socket = join(dir, 'tmux.sock');
  const conf = join(dir, 'tmux.conf');
  const statusFile = join(dir, 'exit-status');
  // remain-on-exit keeps the last screen and the exit status readable after the program ends.
  writeFileSync(conf, 'set -g remain-on-exit on\nset -g status off\nset -g history-limit 5000\n');

  const tmux = (...args: string[]): Promise<string> =>
    new Promise((resolve, reject) => {
      execFile('tmux', ['-S', socket, '-f', conf, ...args], (err, stdout, stderr) => {
        if (err) reject(new Error(`tmux ${args[0]} failed: ${stderr || err.message}`));
        else resolve(stdout);
      });
    });

  // `env -i` gives the program exactly this environment, not the tmux server's.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: process.env.HOME ?? dir,
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    // Under `npm run coverage` the program's coverage is counted too (test/helpers/child-coverage.ts).
    ...(process.env.NODE_V8_COVERAGE ? { NODE_V8_COVERAGE: process.env.NODE_V8_COVERAGE } : {}),
    ...opts.env,
  };
  await tmux(
    'new-session',
    '-d',
    '-s',
    SESSION,
    '-x',
    String(opts.width ?? 120),
    '-y',
    String(opts.height ?? 40),
    ...(opts.cwd ? ['-c', opts.cwd] : []),
    // A small sh records the exit status in a file: tmux can report a pane dead before it
    // has reaped the process, and under load that status came late or never. The trap keeps
    // sh alive through Ctrl-C (the program, whose handlers exec resets, gets it as usual).
    'sh',
    '-c',
    'trap : INT TERM; "$@"; echo $? > "$0"',
    statusFile,
    'env',
    '-i',
    ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
    ...argv,
  );

  let killed = false;
  const term: Terminal = {
    async type(text) {
      await tmux('send-keys', '-t', SESSION, '-l', text);
    },
    async sendKeys(...keys) {
      await tmux('send-keys', '-t', SESSION, ...keys);
    },
    async screen() {
      const out = await tmux('capture-pane', '-p', '-S', '-', '-t', SESSION);
      return out.replace(/\s+$/, '');
    },
    async waitForScreen(pattern, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      let last = '';
      for (;;) {
        last = await term.screen();
        if (pattern.test(last)) return last;
        if (Date.now() > until) {
          throw new Error(
            `the screen never matched ${pattern} in ${timeoutMs} ms; it shows:\n${last}`,
          );
        }
        await sleep(POLL_MS);
      }
    },
    async waitForExit(timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        let status = '';
        try {
          status = readFileSync(statusFile, 'utf8').trim();
        } catch {
          // not yet
        }
        if (/^\d+$/.test(status)) return Number(status);
        if (Date.now() > until) {
          throw new Error(
            `the program was still running after ${timeoutMs} ms; the screen shows:\n${await term.screen()}`,
          );
        }
        await sleep(POLL_MS);
      }
    },
    async kill() {
      if (killed) return;
      killed = true;
      await tmux('kill-server').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return term;
}

/** Runs the built `sched` (bin/sched.js) in a fresh terminal. */
export function startSched(args: string[], opts: TerminalOptions = {}): Promise<Terminal> {
  return startTerminal([process.execPath, BIN, ...args], opts);
}
