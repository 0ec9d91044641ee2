// A profile may store, instead of its API key, a command that prints it (`sched auth login
// --key-command 'secret-tool lookup service sched'`): the key then stays in the operating
// system's secret store (Secret Service, Keychain, a password manager's CLI), the way AWS's
// `credential_process` and Docker's credential helpers work.
//
// The command line is split into words as a POSIX shell would (quotes and backslashes), but
// it is never given to a shell: what a shell would do differently from taking the text
// literally (pipes, redirections, variables, globs, `~`, comments) is refused with a word of
// why, rather than passed on as a surprising argument. It runs with the environment of
// `sched`, without stdin (which `--secret-stdin` and `api --input -` read), within
// KEY_COMMAND_TIMEOUT_MS; its stdout, trimmed and at most MAX_KEY_OUTPUT_BYTES, is the key.
// Running it at most once per process is the context's job (src/context.ts); completion never
// runs it. Every failure is a KeyCommandError (exit 4: there is no key), with `problem` for code.
import { spawn } from 'node:child_process';
import { AuthError, Interrupted, signalOf } from '../errors.js';
import { loginHint } from '../text/hints.js';
import { quote, shellWord } from '../text/quote.js';

/** How long the command may take to print the key. */
export const KEY_COMMAND_TIMEOUT_MS = 10_000;
/** The most it may print: a key is far shorter. */
export const MAX_KEY_OUTPUT_BYTES = 4096;
/** How much of its stderr is kept, for the first line of a failure. */
const MAX_STDERR_BYTES = 4096;
/** After the command exits, how long a descendant holding its stdout open is waited for. */
const DRAIN_MS = 500;

export type KeyCommandProblem =
  | 'syntax'
  | 'not_found'
  | 'not_runnable'
  | 'exit'
  | 'signal'
  | 'timeout'
  | 'empty'
  | 'too_long'
  | 'not_a_key';

/** The key command did not give a key. Exit 4, like no key at all. */
export class KeyCommandError extends AuthError {
  readonly problem: KeyCommandProblem;
  constructor(problem: KeyCommandProblem, message: string, hint: string) {
    super(message, { hint });
    this.problem = problem;
  }
}

/** A command line that cannot be split into words the way it would run. */
export class CommandLineError extends Error {}

const OPERATORS = '|&;<>()';
const GLOBS = '*?[';

function refuse(what: string, at: number, why: string): never {
  throw new CommandLineError(
    `${what} at character ${at + 1} ${why}: the command is run without a shell; quote it to pass it on as it is, or put the command in a script`,
  );
}

/** An unquoted character the shell would not take literally: why, or undefined. */
function shellMeaning(ch: string, wordStart: boolean): string | undefined {
  if (OPERATORS.includes(ch)) return 'would be a pipe, list or redirection in a shell';
  if (ch === '$' || ch === '`') return 'would expand in a shell';
  if (GLOBS.includes(ch)) return 'would be a file name pattern in a shell';
  if (wordStart && ch === '~') return 'would be a home directory in a shell';
  if (wordStart && ch === '#') return 'would start a comment in a shell';
  return undefined;
}

/**
 * The words of `line` as a POSIX shell splits them: blanks separate words; '…' is literal; in
 * "…" a backslash escapes only $ ` " \ and a line break, and $ or ` would expand (refused);
 * outside quotes a backslash escapes the next character (a line break: the line continues).
 * Throws CommandLineError for an open quote, a trailing backslash, no command, or a character
 * a shell would act on (shellMeaning).
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  const end = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n') {
      end();
    } else if (ch === "'") {
      const close = line.indexOf("'", i + 1);
      if (close < 0) throw new CommandLineError(`the ' at character ${i + 1} is never closed`);
      word += line.slice(i + 1, close);
      inWord = true;
      i = close;
    } else if (ch === '"') {
      i = doubleQuoted(line, i, (s) => (word += s));
      inWord = true;
    } else if (ch === '\\') {
      if (i + 1 >= line.length) throw new CommandLineError('the line ends with a backslash');
      const next = line[++i]!;
      if (next !== '\n') {
        word += next;
        inWord = true;
      }
    } else {
      const why = shellMeaning(ch, !inWord);
      if (why) refuse(`"${ch}"`, i, why);
      word += ch;
      inWord = true;
    }
  }
  end();
  if (words.length === 0) throw new CommandLineError('it holds no command');
  return words;
}

/** Reads the "…" opened at `open`, passing its text to `add`; returns the closing quote's index. */
function doubleQuoted(line: string, open: number, add: (s: string) => void): number {
  for (let i = open + 1; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"') return i;
    if (ch === '$' || ch === '`')
      refuse(`"${ch}" inside double quotes`, i, 'would expand in a shell');
    if (ch === '\\' && i + 1 < line.length && '$`"\\\n'.includes(line[i + 1]!)) {
      if (line[i + 1] !== '\n') add(line[i + 1]!);
      i++;
    } else {
      add(ch);
    }
  }
  throw new CommandLineError(`the " at character ${open + 1} is never closed`);
}

/** The words shown back to the user as one command line they could paste. */
export function commandLineText(words: readonly string[]): string {
  return words.map(shellWord).join(' ');
}

export interface RunKeyCommandOptions {
  /** The environment the command runs with (`sched`'s own). */
  env: Record<string, string | undefined>;
  /** The profile that stores it, for the wording. */
  profile: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxBytes?: number;
}

function loginAgain(profile: string): string {
  return loginHint({ profile }, '--key-command', "'<command>'");
}

interface Outcome {
  stdout: Buffer;
  stderr: Buffer;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The first line of what the command said on stderr, quoted for a message. */
function firstLine(stderr: Buffer): string | undefined {
  const line = stderr
    .toString('utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l !== '');
  return line === undefined ? undefined : quote(line, 120);
}

/**
 * Runs the key command stored in a profile and returns the key it prints; any failure is a
 * KeyCommandError naming the problem and the fix (Ctrl-C and SIGTERM: Interrupted).
 */
export async function runKeyCommand(line: string, opts: RunKeyCommandOptions): Promise<string> {
  const p = quote(opts.profile);
  const fail = (problem: KeyCommandProblem, what: string, hint: string): KeyCommandError =>
    new KeyCommandError(problem, `the key command of profile ${p} ${what}`, hint);
  let words: string[];
  try {
    words = splitCommandLine(line);
  } catch (e) {
    // splitCommandLine throws only CommandLineError.
    const why = (e as CommandLineError).message;
    throw fail(
      'syntax',
      `cannot be run: ${why}`,
      `store a corrected one: ${loginAgain(opts.profile)}`,
    );
  }
  const shown = `\`${commandLineText(words)}\``;
  const runIt = `run ${shown} yourself to see why`;
  const maxBytes = opts.maxBytes ?? MAX_KEY_OUTPUT_BYTES;
  const timeoutMs = opts.timeoutMs ?? KEY_COMMAND_TIMEOUT_MS;

  const outcome = await spawnBounded(words, opts.env, maxBytes, timeoutMs, opts.signal);
  switch (outcome.kind) {
    case 'interrupted':
      throw new Interrupted('interrupted while the key command ran', { signal: outcome.signal });
    case 'spawn-error': {
      const notFound = outcome.errno === 'ENOENT';
      throw fail(
        notFound ? 'not_found' : 'not_runnable',
        notFound
          ? `was not found: ${quote(words[0]!)} is not a program on PATH`
          : `cannot be run: ${quote(words[0]!)} (${outcome.errno ?? 'error'})`,
        `install it or give its full path, then ${loginAgain(opts.profile)}`,
      );
    }
    case 'timeout':
      throw fail(
        'timeout',
        `printed no key within ${timeoutMs / 1000} s and was stopped`,
        `a locked keyring or a password manager that is not signed in waits for you: unlock it, or ${runIt}`,
      );
    case 'too-long':
      throw fail(
        'too_long',
        `printed more than ${maxBytes} bytes: an API key is far shorter`,
        `it must print only the key; ${runIt}`,
      );
    case 'done':
      return keyOf(outcome.result, fail, runIt);
  }
}

function keyOf(
  r: Outcome,
  fail: (problem: KeyCommandProblem, what: string, hint: string) => KeyCommandError,
  runIt: string,
): string {
  if (r.code !== 0) {
    const said = firstLine(r.stderr);
    const how = r.signal ? `was ended by ${r.signal}` : `failed (exit ${r.code})`;
    throw fail(r.signal ? 'signal' : 'exit', `${how}${said ? `: ${said}` : ''}`, runIt);
  }
  const key = r.stdout.toString('utf8').trim();
  if (key === '') throw fail('empty', 'printed nothing', `is the secret stored? ${runIt}`);
  // eslint-disable-next-line no-control-regex
  if (/[\s\x00-\x1f\x7f]/.test(key)) {
    throw fail(
      'not_a_key',
      'printed more than a key (white space or control characters inside it)',
      `it must print only the key; ${runIt}`,
    );
  }
  return key;
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

type Spawned =
  | { kind: 'done'; result: Outcome }
  | { kind: 'spawn-error'; errno: string | undefined }
  | { kind: 'timeout' }
  | { kind: 'too-long' }
  | { kind: 'interrupted'; signal: 'SIGINT' | 'SIGTERM' };

/**
 * Runs `words` without a shell and without stdin, reading at most `maxBytes` of stdout; ends
 * it (SIGKILL) past the bound, at the deadline or on `signal`. Never rejects.
 */
/** Keeps about the first `cap` bytes a stream gives (whole chunks); the rest is read and dropped. */
function firstBytes(stream: NodeJS.ReadableStream, cap: number): () => Buffer {
  const parts: Buffer[] = [];
  let bytes = 0;
  stream.on('data', (b: Buffer) => {
    if (bytes < cap) parts.push(b);
    bytes += b.length;
  });
  return () => Buffer.concat(parts);
}

function spawnBounded(
  words: readonly string[],
  env: Record<string, string | undefined>,
  maxBytes: number,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<Spawned> {
  return new Promise((resolve) => {
    const child = spawn(words[0]!, words.slice(1), {
      env: definedOnly(env),
      stdio: ['ignore', 'pipe', 'pipe'], // spawn's default: no shell
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const stderr = firstBytes(child.stderr, MAX_STDERR_BYTES);
    let outBytes = 0;
    let exit: Pick<Outcome, 'code' | 'signal'> | undefined;
    let outEnded = false;
    let settled = false;
    let drain: NodeJS.Timeout | undefined;

    const finish = (s: Spawned) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      signal?.removeEventListener('abort', onAbort);
      if (exit === undefined) child.kill('SIGKILL');
      child.stdout.destroy();
      child.stderr.destroy();
      resolve(s);
    };
    const done = () => {
      if (exit !== undefined) {
        finish({
          kind: 'done',
          result: { stdout: Buffer.concat(out), stderr: stderr(), ...exit },
        });
      }
    };
    const onAbort = () => finish({ kind: 'interrupted', signal: signalOf(signal?.reason) });
    const timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (e: NodeJS.ErrnoException) => finish({ kind: 'spawn-error', errno: e.code }));
    child.stdout.on('data', (b: Buffer) => {
      outBytes += b.length;
      if (outBytes > maxBytes) return finish({ kind: 'too-long' });
      out.push(b);
    });
    child.stdout.on('end', () => {
      outEnded = true;
      done();
    });
    child.on('exit', (code, sig) => {
      exit = { code, signal: sig };
      // A descendant (a daemon it started) may hold stdout open: what the command itself
      // printed has arrived well within DRAIN_MS.
      if (outEnded) done();
      else drain = setTimeout(done, DRAIN_MS);
    });
  });
}
