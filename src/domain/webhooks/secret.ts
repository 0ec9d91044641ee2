// A webhook's signing secret: where it comes from and where a generated one goes, the one
// policy of `webhooks add`, `webhooks listen`, `sig`/`events send` (input.ts) and `sched mcp`.
//
// Where from: --secret (never empty), else --secret-stdin, else unsigned on purpose
// (--no-secret, MCP's `unsigned`), else the variable (SCHED_WEBHOOK_SECRET when set; one the
// caller names, MCP's `secret_env`, must hold it), else generated where the caller makes one.
// Where a generated one goes: shown once on stdout (the service never shows it again), or the
// 0600 file of --secret-out; never stderr; refused before anything exists where stdout is a CI
// job's log and the user did not say where it goes (`--print-secret` does, as Stripe's).
import { randomBytes } from 'node:crypto';
import { UsageError } from '../../errors.js';
import { inCI } from '../../io.js';
import { didYouMeanInline } from '../../text/suggest.js';

/** A strong signing secret: 32 random bytes, base64url (43 characters, no padding). */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The shortest secret `sched mcp`'s create_webhook accepts for a new webhook (a model chooses
 * the variable; a short value is a guessable one). Verifying keeps accepting any secret, as the
 * service accepted it.
 */
export const MIN_NEW_SECRET = 16;

/** The form of an environment variable name (a sync file's `secretEnv`, `sched mcp`'s `secret_env`). */
export function isEnvName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}

/**
 * A signing secret named by an environment variable: its value, or why there is none. The one
 * rule for every caller that takes a secret by the name of a variable (sync's `secretEnv`, the
 * MCP server's `secret_env`), so a secret never has to be written where it would be kept.
 */
export type EnvSecret =
  { ok: true; secret: string } | { ok: false; problem: 'not-a-name' | 'unset' | 'empty' };

export function envSecret(name: string, env: Record<string, string | undefined>): EnvSecret {
  if (!isEnvName(name)) return { ok: false, problem: 'not-a-name' };
  const value = Object.hasOwn(env, name) ? env[name] : undefined;
  if (value === undefined) return { ok: false, problem: 'unset' };
  if (value === '') return { ok: false, problem: 'empty' };
  return { ok: true, secret: value };
}

/**
 * What the line about an unset or empty variable says of it (`not set (did you mean
 * "CHANGES_WEBHOOK_SECRET"?)`): a set variable spelled nearly the same is named, never its
 * value. The one wording of every caller of envSecret that names the variable.
 */
export function envSecretProblem(
  name: string,
  problem: (EnvSecret & { ok: false })['problem'],
  env: Record<string, string | undefined>,
): string {
  if (problem !== 'unset') return problem === 'empty' ? 'empty' : 'not a variable name';
  const set = Object.keys(env).filter((k) => k !== name && env[k]);
  return `not set${didYouMeanInline(name, set)}`;
}

/** --secret as given: an empty one is refused (it would sign with nothing). */
export function secretFlag(flag: string): string {
  if (flag === '') throw new UsageError('--secret is empty');
  return flag;
}

/** The variable every command reads a webhook secret from. */
export const SECRET_VARIABLE = 'SCHED_WEBHOOK_SECRET';

/** What a caller was given. */
export interface SecretAsk {
  /**
   * --secret <secret> (a string), or unsigned on purpose (false: --no-secret, MCP's `unsigned`);
   * true, as commander may leave a negatable option not given, says nothing.
   */
  readonly flag?: string | boolean;
  /** --secret-stdin: the caller reads it (`stdin` below). */
  readonly stdin?: boolean;
  /**
   * The variable that holds it: SCHED_WEBHOOK_SECRET, when set (undefined); one the caller
   * names, which must hold it (a string); or none (null: MCP's create_webhook without one).
   */
  readonly variable?: string | null;
  /** With nothing given, a secret is made (add, listen --register); else it is `absent`. */
  readonly generate?: boolean;
}

/** Where the secret comes from; `from` says which of the user's words chose it. */
export type SecretChoice =
  | { kind: 'given'; secret: string; from: 'flag' | 'stdin' | 'env' | 'prompt' }
  | { kind: 'stdin' }
  | { kind: 'none'; from: 'flag' | 'prompt' }
  | { kind: 'generate' }
  | { kind: 'absent' }
  | { kind: 'unusable'; variable: string; problem: 'not-a-name' | 'unset' | 'empty' };

export function chooseSecret(
  ask: SecretAsk,
  env: Record<string, string | undefined>,
): SecretChoice {
  if (typeof ask.flag === 'string')
    return { kind: 'given', secret: secretFlag(ask.flag), from: 'flag' };
  if (ask.stdin) return { kind: 'stdin' };
  if (ask.flag === false) return { kind: 'none', from: 'flag' };
  if (typeof ask.variable === 'string') {
    const found = envSecret(ask.variable, env);
    if (!found.ok) return { kind: 'unusable', variable: ask.variable, problem: found.problem };
    return { kind: 'given', secret: found.secret, from: 'env' };
  }
  const set = ask.variable === null ? undefined : env[SECRET_VARIABLE];
  if (set) return { kind: 'given', secret: set, from: 'env' };
  return ask.generate ? { kind: 'generate' } : { kind: 'absent' };
}

/** Where a generated secret is asked to go. */
export interface SecretOut {
  /** --secret-out <file>: written there (mode 0600) instead of stdout. */
  readonly file?: string;
  /** --print-secret: on stdout even in CI (and with --secret-out). */
  readonly print?: boolean;
  /**
   * Who needs a generated secret: the user (shown once, refused in CI without a destination),
   * an app behind listen's --forward-to (shown: forwarding asked for it), or nobody but this
   * process (listen --register alone verifies with it itself).
   */
  readonly needs?: 'user' | 'app' | 'nobody';
  /** stdout is a real terminal (not one SCHED_FORCE_TTY pretends). */
  readonly terminal: boolean;
  readonly env: Record<string, string | undefined>;
}

export interface SecretGoes {
  /** The file to write a generated secret to. */
  readonly file?: string;
  /** A generated secret is shown on stdout. */
  readonly stdout: boolean;
  /** A destination flag that has nothing to do (the secret came from the variable). */
  readonly unused?: '--secret-out' | '--print-secret';
}

/**
 * Where a generated secret goes, decided before any request (so a refusal creates nothing):
 * the destination flags with a secret the user gave by flag are refused, and so is a generated
 * secret bound for a CI job's log (stdout not a real terminal) that the user did not ask for.
 */
export function secretGoes(choice: SecretChoice, out: SecretOut): SecretGoes {
  const named = out.file !== undefined ? '--secret-out' : out.print ? '--print-secret' : undefined;
  const byFlag = 'from' in choice && choice.from !== 'prompt' && choice.from !== 'env';
  if (named && (byFlag || choice.kind === 'stdin')) {
    throw new UsageError(
      `${named} is for a generated secret; --secret, --secret-stdin and --no-secret generate none`,
      { hint: `drop ${named}, or drop the secret option to have one generated` },
    );
  }
  if (choice.kind !== 'generate') {
    return choice.kind === 'given' && choice.from === 'env' && named
      ? { stdout: false, unused: named }
      : { stdout: false };
  }
  // `named` without a file is --print-secret: printing is asked for whenever it was given.
  if (named) return { file: out.file, stdout: out.print === true };
  if (out.needs === 'nobody' || out.needs === 'app') return { stdout: out.needs === 'app' };
  if (inCI(out.env) && !out.terminal) {
    throw new UsageError(
      'in CI a generated signing secret would be printed into the job log; nothing was created',
      {
        hint:
          'say where it goes: --secret-out <file> (written 0600), or --print-secret; ' +
          `or give your own with ${SECRET_VARIABLE} or --secret-stdin`,
      },
    );
  }
  return { stdout: true };
}
