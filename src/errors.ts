// Typed errors: every failure a user can meet is one of these, and src/cli.ts (reportError)
// is the one place that turns them into a stderr message and an exit code; src/main.ts only
// exits with that code.
import { addAbortListener } from 'node:events';

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 4,
  notFound: 5,
  interrupted: 130,
  terminated: 143,
} as const;

/**
 * What went wrong, as a stable value for code to test (never test a message's wording):
 * - usage: bad flags or input found locally; invalid_request: the API answered 400 or 422
 * - auth: no key, or the API answered 401/403; not_found: 404
 * - rate_limited: 429; http_4xx / http_5xx: any other error status
 * - redirect: a redirect that is not followed (a POST, too many, a bad address)
 * - bad_response: an answer that cannot be used (empty, not JSON, wrong shape, too large)
 * - network: refused, reset, DNS, TLS, proxy, cut off; timeout: no answer within --timeout
 * - interrupted: Ctrl-C or SIGTERM; failure: anything else worth exit 1; quiet: output cut short
 * - config_untrusted: the config directory belongs to another user (not read; exit 1)
 * - output_failed: the command's data could not be written (stdout, or a file the user named)
 */
export type ErrorCode =
  | 'usage'
  | 'invalid_request'
  | 'auth'
  | 'not_found'
  | 'rate_limited'
  | 'http_4xx'
  | 'http_5xx'
  | 'redirect'
  | 'bad_response'
  | 'network'
  | 'timeout'
  | 'interrupted'
  | 'failure'
  | 'config_untrusted'
  | 'output_failed'
  | 'quiet';

/** The request an error is about (the URL without credentials; the key is never in it). */
export interface FailedRequest {
  method: string;
  url: string;
}

export interface ErrorOptions {
  /** Extra stderr lines shown under the message (field errors, what was already done). */
  details?: string[];
  /** A hint printed last, e.g. "run `sched auth login`". */
  hint?: string;
  /** Overrides the class's default code. */
  code?: ErrorCode;
  /** The HTTP status, when the API answered. */
  status?: number;
  /** A write was sent and its result is unknown (timeout, reset, Ctrl-C while waiting). */
  outcomeUnknown?: boolean;
  request?: FailedRequest;
}

export class SchedError extends Error {
  readonly exitCode: number;
  readonly code: ErrorCode;
  /** Extra stderr lines shown under the message (field errors, what was already done). */
  readonly details: string[];
  /** A hint printed last, e.g. "run `sched auth login`". */
  readonly hint: string | undefined;
  /** The HTTP status, when the API answered. */
  readonly status: number | undefined;
  /** True when a write (POST) was sent and nobody knows whether the service processed it. */
  readonly outcomeUnknown: boolean;
  readonly request: FailedRequest | undefined;

  constructor(message: string, exitCode: number, opts: ErrorOptions = {}) {
    super(message);
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.code = opts.code ?? 'failure';
    this.details = opts.details ?? [];
    this.hint = opts.hint;
    this.status = opts.status;
    this.outcomeUnknown = opts.outcomeUnknown ?? false;
    this.request = opts.request;
  }
}

function withCode(code: ErrorCode, opts: ErrorOptions): ErrorOptions {
  return { ...opts, code: opts.code ?? code };
}

/** Bad flags or input, found locally or answered 422 by the API. Exit 2. */
export class UsageError extends SchedError {
  constructor(message: string, opts: ErrorOptions = {}) {
    super(message, ExitCode.usage, withCode('usage', opts));
  }
}

/** No key, or the API rejected it (401/403). Exit 4. */
export class AuthError extends SchedError {
  constructor(message: string, opts: ErrorOptions = {}) {
    super(
      message,
      ExitCode.auth,
      withCode('auth', { hint: 'run `sched auth login` or set SCHED_API_KEY', ...opts }),
    );
  }
}

/** The API answered 404. Exit 5. */
export class NotFoundError extends SchedError {
  constructor(message: string, opts: ErrorOptions = {}) {
    super(message, ExitCode.notFound, withCode('not_found', opts));
  }
}

/** The API answered with an error status or a body we cannot use. Exit 1. */
export class ApiError extends SchedError {
  constructor(message: string, opts: ErrorOptions = {}) {
    super(message, ExitCode.failure, withCode('bad_response', opts));
  }
}

/** The request never got an answer: refused, reset, DNS, timeout, TLS. Exit 1. */
export class NetworkError extends SchedError {
  constructor(message: string, opts: ErrorOptions = {}) {
    super(message, ExitCode.failure, withCode('network', opts));
  }
}

/** Any other failure worth exit 1 (a receiver that did not answer 2xx, an invalid signature). */
export class Failure extends SchedError {
  constructor(message: string, opts: ErrorOptions = {}) {
    super(message, ExitCode.failure, withCode('failure', opts));
  }
}

/** Resolves once `signal` is aborted (at once when it is already): how servers wait to stop. */
export function whenAborted(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => addAbortListener(signal, () => resolve()));
}

/** Which signal an AbortSignal's reason stands for: main aborts with 'SIGTERM' or 'SIGINT'. */
export function signalOf(reason: unknown): 'SIGINT' | 'SIGTERM' {
  return reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
}

/** Ctrl-C (130) or SIGTERM (143); details say what was already done. */
export class Interrupted extends SchedError {
  constructor(
    message = 'interrupted',
    opts: ErrorOptions & { signal?: 'SIGINT' | 'SIGTERM' } = {},
  ) {
    super(
      message,
      opts.signal === 'SIGTERM' ? ExitCode.terminated : ExitCode.interrupted,
      withCode('interrupted', opts),
    );
  }
}

/**
 * Thrown when output was cut short on purpose, e.g. stdout closed by `| head -1`.
 * main exits quietly with the given code.
 */
export class QuietExit extends SchedError {
  constructor(exitCode: number = ExitCode.ok) {
    super('', exitCode, { code: 'quiet' });
  }
}

/** Where the command's data goes: stdout, or a file the user named (`--record`, `--secret-out`). */
export type OutputTarget = { kind: 'stdout' } | { kind: 'file'; flag: string; path: string };

/** The words of a write error's code: what the person at the terminal can act on. */
const WRITE_PROBLEMS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EIO: 'an input/output error',
  EPIPE: 'the reader closed it',
  ERR_STREAM_DESTROYED: 'the reader closed it',
  EFBIG: 'the file is too large',
  EBADF: 'it is not open for writing',
};

/**
 * A write of the command's data failed: stdout (ENOSPC on a full disk, EIO, EPIPE when the reader
 * left) or a file the user named. One line, exit 1 — except a reader that left (`| head -1`)
 * before a read-only command finished, which src/cli.ts ends quietly with 0, the Unix convention.
 * A command that changed the account says what it had done: `afterChange`.
 */
export class OutputFailed extends SchedError {
  readonly target: OutputTarget;
  /** The system's code (ENOSPC, EIO, EPIPE, ...), when there was one. */
  readonly errno: string | undefined;
  /** The reader went away (EPIPE, a closed stream): the quiet stop of read-only commands. */
  readonly readerLeft: boolean;
  /** What the command had already changed (set by afterChange): never a quiet stop. */
  readonly changed: boolean;

  constructor(
    target: OutputTarget,
    cause: unknown,
    opts: { changed?: string; details?: string[]; hint?: string } = {},
  ) {
    const errno = (cause as NodeJS.ErrnoException | undefined)?.code;
    const readerLeft = errno === 'EPIPE' || errno === 'ERR_STREAM_DESTROYED';
    const where =
      target.kind === 'stdout' ? 'stdout' : `${target.flag} ${JSON.stringify(target.path)}`;
    const why =
      (errno && WRITE_PROBLEMS[errno]) ??
      (cause instanceof Error ? cause.message : String(cause ?? 'it was closed'));
    const said = errno && !why.includes(errno) ? `${why}, ${errno}` : why;
    const message = `could not write to ${where} (${said})`;
    super(opts.changed ? `${message}: ${opts.changed}` : message, ExitCode.failure, {
      code: 'output_failed',
      details: opts.details,
      hint: opts.hint,
    });
    this.target = target;
    this.errno = errno;
    this.readerLeft = readerLeft;
    this.changed = opts.changed !== undefined;
    this.cause = cause;
  }

  /**
   * The same failure, said after work that changed the account: what was done (`changed`,
   * e.g. "8 links were minted; 1 was written to stdout"), lines under it (`details`: the links
   * not written), exit 1 even when the reader only left.
   */
  afterChange(changed: string, details: string[] = [], hint?: string): OutputFailed {
    return new OutputFailed(this.target, this.cause, { changed, details, hint });
  }

  /** Ends quietly (exit 0, nothing said): the reader left a command that changed nothing. */
  get quiet(): boolean {
    return this.readerLeft && !this.changed;
  }
}

/** The fields of `e` that code reads, to carry over when an error is re-worded. */
export function fieldsOf(e: SchedError): ErrorOptions {
  return { code: e.code, status: e.status, outcomeUnknown: e.outcomeUnknown, request: e.request };
}

/** The message of anything thrown: an Error's own, else the value as text. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * `e` as a SchedError, to re-word with its fields kept: itself, or (anything else thrown: a
 * bug) a failure with its message, exit 1.
 */
export function asSchedError(e: unknown): SchedError {
  return isSchedError(e) ? e : new SchedError(messageOf(e), ExitCode.failure);
}

/**
 * How an error is told (on stderr by the CLI, in a tool result by `sched mcp`): `error:` and the
 * message, the detail lines indented, then `hint:`. `paint` colours the two labels.
 */
export function errorLines(
  e: SchedError,
  paint: { error?: (s: string) => string; hint?: (s: string) => string } = {},
): string[] {
  const lines = [`${(paint.error ?? String)('error:')} ${e.message}`];
  for (const d of e.details) lines.push(`  ${d}`);
  if (e.hint) lines.push((paint.hint ?? String)(`hint: ${e.hint}`));
  return lines;
}

export function isSchedError(e: unknown): e is SchedError {
  return e instanceof SchedError;
}
