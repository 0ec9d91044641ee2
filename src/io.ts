// The one terminal abstraction. Commands write through it, never to process.* directly, so
// every command runs in-process in tests with buffers and chosen TTY flags.
//
// It is also the one gate between text from outside and the terminal: everything written
// through out/err/errRaw passes sanitizeTerminal (src/text/sanitize.ts), whatever the
// format, once every secret the command knows (addSecrets) is masked. JSON stays exact (what
// cannot pass is written as \uXXXX inside its strings); human text loses escape sequences and
// control characters; each err() call stays one line.
import type { Chalk as ChalkClass, ChalkInstance } from 'chalk';
import type { Readable, Writable } from 'node:stream';
import { OutputFailed } from './errors.js';
import { masker, type Mask } from './mask.js';
import { sanitizeTerminal } from './text/sanitize.js';

export interface IO {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** Colours for stdout (off unless stdout is a terminal, or FORCE_COLOR). */
  readonly color: ChalkInstance;
  /** Colours for stderr. */
  readonly colorErr: ChalkInstance;
  /** Width for terminal output: COLUMNS when a positive integer, else the terminal's, else 80. */
  readonly columns: number;
  /**
   * True when a prompt may be shown: prompts draw on stderr and read stdin, so both must be
   * terminals (stdout may go to a file: `SIG=$(sched sig sign ...)` still asks), and neither
   * --no-input nor CI (inCI) was given. An editor also needs stdout (src/text/no-prompt.ts).
   */
  canPrompt(): boolean;
  /**
   * Writes to stdout, waiting until the write is done. Throws OutputFailed when stdout failed
   * (ENOSPC, EIO) or was closed by its reader (EPIPE: `readerLeft`), on this write or an earlier one.
   * Passes the gate: no escape sequence but our colours, no control character but tab and
   * line ends; JSON text keeps its data exactly.
   */
  out(text: string): Promise<void>;
  /** Writes ONE line to stderr (a newline is added; a line break inside becomes a space). */
  err(line: string): void;
  /** Writes to stderr without adding a newline (progress bars: CR and erase-line pass). */
  errRaw(text: string): void;
  /**
   * Secrets the gate masks from now on, in everything written to stdout and stderr, in every
   * encoding a server may echo (src/mask.ts): the API key, proxy passwords, webhook secrets
   * the user gave, secret headers. Undefined and short values are ignored.
   */
  addSecrets(secrets: readonly (string | undefined)[]): void;
  /** `text` with the secrets known so far masked: the renderer masks values with it. */
  mask(text: string): string;
}

/** A stdout closed before our write was done: as a reader that left. */
function closedEarly(): NodeJS.ErrnoException {
  return Object.assign(new Error('stdout was closed'), { code: 'EPIPE' });
}

export interface ColorSettings {
  /** false when --no-color was given. */
  flag: boolean;
  env: Record<string, string | undefined>;
}

/** --no-color, then NO_COLOR (any value), then FORCE_COLOR, then whether it is a terminal. */
export function colorLevel(isTTY: boolean, settings: ColorSettings): 0 | 1 | 2 | 3 {
  if (!settings.flag) return 0;
  if (settings.env.NO_COLOR !== undefined) return 0;
  const force = settings.env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    if (force === '2') return 2;
    if (force === '3') return 3;
    return 1;
  }
  return isTTY ? 1 : 0;
}

/**
 * The width terminal output is laid out for: env COLUMNS when it is a positive integer (to
 * try a width, or to fix one for a log), else the terminal's own width, else 80.
 */
export function terminalColumns(
  env: Record<string, string | undefined>,
  ttyColumns: number | undefined,
): number {
  const fromEnv = env.COLUMNS?.trim() ?? '';
  if (/^[0-9]{1,5}$/.test(fromEnv) && Number(fromEnv) > 0) return Number(fromEnv);
  return ttyColumns !== undefined && ttyColumns > 0 ? ttyColumns : 80;
}

/**
 * SCHED_FORCE_TTY (any value but empty, 0 or false): stdout is laid out as for a terminal even
 * when redirected — tables with headers and pretty JSON in a log, like gh's GH_FORCE_TTY.
 * The width then comes from COLUMNS, else 80. Colour is not layout: it still follows the
 * colour rules (a real terminal, NO_COLOR, --no-color, FORCE_COLOR), so a log gets no escapes.
 */
export function forcedTTY(env: Record<string, string | undefined>): boolean {
  const v = env.SCHED_FORCE_TTY;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/**
 * CI set to anything but empty, `0` or `false`, as CI services and gh read it: no prompt is
 * ever shown (a job that gives stdin and stderr a terminal never waits on a question), and a
 * generated secret is not printed into the job's log (webhooks add).
 */
export function inCI(env: Record<string, string | undefined>): boolean {
  const v = env.CI;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

export interface StreamIOOptions {
  /** A function is called on first use (process.stdin is a stream built when first read). */
  stdin: Readable | (() => Readable);
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Whether stdout really is a terminal, for colour; stdoutIsTTY when not given. */
  stdoutColorTTY?: boolean;
  columns?: number;
  color: ColorSettings;
  noInput: boolean;
  /**
   * chalk's constructor, for colour. Without it every style returns its text unchanged (what
   * chalk does at level 0): loadProcessIO loads chalk only when colour is possible.
   */
  Chalk?: typeof ChalkClass;
}

/**
 * Styles without colour: every style, and every chain of styles (`bold.red`), returns its
 * text as given, the arguments joined by a space, as chalk does at level 0.
 */
export const PLAIN_STYLES: ChalkInstance = new Proxy((...text: unknown[]) => text.join(' '), {
  get: (_target, key) => (key === 'level' ? 0 : PLAIN_STYLES),
}) as unknown as ChalkInstance;

function styles(Chalk: typeof ChalkClass | undefined, level: 0 | 1 | 2 | 3): ChalkInstance {
  return Chalk && level > 0 ? new Chalk({ level }) : PLAIN_STYLES;
}

export function createStreamIO(o: StreamIOOptions): IO {
  // The first failure of stdout: every later write throws it (see `out`).
  let stdoutFailed: OutputFailed | undefined;
  const failStdout = (cause: unknown) => {
    stdoutFailed ??= new OutputFailed({ kind: 'stdout' }, cause);
  };
  // Never rethrown: a full disk or a reader that left is said once, by the command's error.
  o.stdout.on('error', failStdout);
  // A note that cannot be written is dropped: stderr alone never turns success into failure.
  o.stderr.on('error', () => {});
  const color = styles(o.Chalk, colorLevel(o.stdoutColorTTY ?? o.stdoutIsTTY, o.color));
  const colorErr = styles(o.Chalk, colorLevel(o.stderrIsTTY, o.color));
  const outPolicy = { color: color.level > 0 };
  const errLinePolicy = { color: colorErr.level > 0, oneLine: true };
  const errRawPolicy = { color: colorErr.level > 0, oneLine: true, redraw: true };

  const secrets = new Set<string>();
  let mask: Mask = (text) => text;

  let stdin = typeof o.stdin === 'function' ? undefined : o.stdin;
  const stdinOf = o.stdin;
  return {
    get stdin() {
      stdin ??= (stdinOf as () => Readable)();
      return stdin;
    },
    stdout: o.stdout,
    stderr: o.stderr,
    get stdinIsTTY() {
      return o.stdinIsTTY;
    },
    stdoutIsTTY: o.stdoutIsTTY,
    stderrIsTTY: o.stderrIsTTY,
    color,
    colorErr,
    columns: terminalColumns(o.color.env, o.columns),
    canPrompt: () => !o.noInput && !inCI(o.color.env) && o.stdinIsTTY && o.stderrIsTTY,
    async out(raw: string) {
      if (stdoutFailed) throw stdoutFailed;
      if (raw.length === 0) return;
      const text = sanitizeTerminal(mask(raw), outPolicy);
      // Waits for this write to be done (taken by the pipe, the file or the terminal), not only
      // for a full pipe to drain: a failed write is known before the command does anything more,
      // and a slow reader holds the work back instead of filling memory.
      await new Promise<void>((resolve) => {
        const done = (e?: Error | null) => {
          o.stdout.off('close', closed);
          if (e) failStdout(e);
          resolve();
        };
        const closed = () => done(o.stdout.writableFinished ? null : closedEarly());
        o.stdout.once('close', closed);
        try {
          o.stdout.write(text, done);
        } catch (e) {
          done(e as Error);
        }
      });
      if (stdoutFailed) throw stdoutFailed;
    },
    err(line: string) {
      o.stderr.write(sanitizeTerminal(mask(line), errLinePolicy) + '\n');
    },
    errRaw(text: string) {
      o.stderr.write(sanitizeTerminal(mask(text), errRawPolicy));
    },
    addSecrets(list) {
      const before = secrets.size;
      for (const s of list) if (s !== undefined) secrets.add(s);
      if (secrets.size !== before) mask = masker([...secrets]);
    },
    mask: (text) => mask(text),
  };
}

/**
 * The IO of the real process, once global flags are known. chalk is loaded only when colour is
 * possible at all (a terminal, or FORCE_COLOR, and no NO_COLOR; --no-color can only turn it
 * off): a script's pipe never loads it (its import of node:process alone builds process.stdin
 * and more; ~7 ms of every start, measured in BENCHMARKS.md).
 */
export async function loadProcessIO(): Promise<(opts: { color: boolean; noInput: boolean }) => IO> {
  const stdoutColorTTY = Boolean(process.stdout.isTTY);
  const stderrIsTTY = Boolean(process.stderr.isTTY);
  const possible = { flag: true, env: process.env };
  const Chalk =
    colorLevel(stdoutColorTTY, possible) > 0 || colorLevel(stderrIsTTY, possible) > 0
      ? (await import('chalk')).Chalk
      : undefined;
  return (opts) =>
    createStreamIO({
      // process.stdin builds a stream (a tty, pipe or file reader) when first read: most
      // commands never read stdin, so it is built only when one does (~10 ms of start-up).
      stdin: () => process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      // Asked only by a command that reads stdin or prompts: node:tty is ~2 ms of every start.
      get stdinIsTTY() {
        return process.getBuiltinModule('node:tty').isatty(0);
      },
      stdoutIsTTY: stdoutColorTTY || forcedTTY(process.env),
      stdoutColorTTY,
      stderrIsTTY,
      columns: process.stdout.columns,
      color: { flag: opts.color, env: process.env },
      noInput: opts.noInput,
      Chalk,
    });
}
