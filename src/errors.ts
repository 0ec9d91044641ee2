// Typed errors: every failure a user can meet is one of these, and src/main.ts is the one
// place that turns them into a stderr message and an exit code.

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 4,
  notFound: 5,
  interrupted: 130,
  terminated: 143,
} as const;

export class SchedError extends Error {
  readonly exitCode: number;
  /** Extra stderr lines shown under the message (field errors, what was already done). */
  readonly details: string[];
  /** A hint printed last, e.g. "run `sched auth login`". */
  readonly hint: string | undefined;

  constructor(message: string, exitCode: number, opts: { details?: string[]; hint?: string } = {}) {
    super(message);
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.details = opts.details ?? [];
    this.hint = opts.hint;
  }
}

/** Bad flags or input, found locally or answered 422 by the API. Exit 2. */
export class UsageError extends SchedError {
  constructor(message: string, opts: { details?: string[]; hint?: string } = {}) {
    super(message, ExitCode.usage, opts);
  }
}

/** No key, or the API rejected it (401/403). Exit 4. */
export class AuthError extends SchedError {
  constructor(message: string, opts: { details?: string[]; hint?: string } = {}) {
    super(message, ExitCode.auth, { hint: 'run `sched auth login` or set SCHED_API_KEY', ...opts });
  }
}

/** The API answered 404. Exit 5. */
export class NotFoundError extends SchedError {
  constructor(message: string, opts: { details?: string[]; hint?: string } = {}) {
    super(message, ExitCode.notFound, opts);
  }
}

/** The API answered with an error status or a body we cannot use. Exit 1. */
export class ApiError extends SchedError {
  readonly status: number | undefined;
  constructor(message: string, opts: { status?: number; details?: string[]; hint?: string } = {}) {
    super(message, ExitCode.failure, opts);
    this.status = opts.status;
  }
}

/** The request never got an answer: refused, reset, DNS, timeout, TLS. Exit 1. */
export class NetworkError extends SchedError {
  constructor(message: string, opts: { details?: string[]; hint?: string } = {}) {
    super(message, ExitCode.failure, opts);
  }
}

/** Any other failure worth exit 1 (a receiver that did not answer 2xx, an invalid signature). */
export class Failure extends SchedError {
  constructor(message: string, opts: { details?: string[]; hint?: string } = {}) {
    super(message, ExitCode.failure, opts);
  }
}

/** Ctrl-C (130) or SIGTERM (143); details say what was already done. */
export class Interrupted extends SchedError {
  constructor(
    message = 'interrupted',
    opts: { details?: string[]; hint?: string; signal?: 'SIGINT' | 'SIGTERM' } = {},
  ) {
    super(message, opts.signal === 'SIGTERM' ? ExitCode.terminated : ExitCode.interrupted, opts);
  }
}

/**
 * Thrown when output was cut short on purpose, e.g. stdout closed by `| head -1`.
 * main exits quietly with the given code.
 */
export class QuietExit extends SchedError {
  constructor(exitCode: number = ExitCode.ok) {
    super('', exitCode);
  }
}

export function isSchedError(e: unknown): e is SchedError {
  return e instanceof SchedError;
}
