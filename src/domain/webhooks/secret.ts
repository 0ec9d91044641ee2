// A signing secret for a new webhook, made when none is given (`webhooks add`,
// `webhooks listen --register`): one home for its strength and form.
import { randomBytes } from 'node:crypto';

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
