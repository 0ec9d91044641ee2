// The commands `sched` suggests that must keep the flags of the invocation that matter, built
// in one place from the parsed invocation: the profile (--profile or SCHED_PROFILE), a base URL
// given with --base-url, and `mcp --sandbox`. A suggested command is one the user can paste
// and get what was meant: never one that moves them to another profile, service or account.
// Each command is in backquotes and starts with `sched`: the CLI's error report names the
// program as it was invoked (names.ts asInvoked), so a `schedcli` user reads `schedcli …`.
// Every value from outside is one shell word (shellCommand).
import { shellLine, shellWord } from './quote.js';

/** The parts of the parsed invocation a suggested command keeps. */
export interface Invocation {
  /** The profile in use; "default" (or undefined) adds no flag. */
  readonly profile?: string | undefined;
  /** The base URL given with --base-url (from the environment or a profile, it needs no flag). */
  readonly baseUrlFlag?: string | undefined;
  /** `sched mcp --sandbox`: the suggestion stays in the sandbox. */
  readonly sandbox?: boolean | undefined;
}

function command(words: readonly string[]): string {
  return `\`${words.join(' ')}\``;
}

function profileWords(inv: Invocation): string[] {
  return inv.profile && inv.profile !== 'default' ? ['--profile', shellWord(inv.profile)] : [];
}

function baseUrlWords(inv: Invocation): string[] {
  return inv.baseUrlFlag ? ['--base-url', shellWord(inv.baseUrlFlag)] : [];
}

/** `sched auth login`, for the profile (and --base-url) of the invocation. */
export function loginHint(inv: Invocation, ...extra: string[]): string {
  return command(['sched', 'auth', 'login', ...profileWords(inv), ...baseUrlWords(inv), ...extra]);
}

/**
 * `sched mcp` restarted at another access level (`--allow-write`, or the default), keeping
 * `--sandbox` and the profile: never a command that moves the assistant from the sandbox to
 * the real account.
 */
export function mcpRestartHint(inv: Invocation, level: 'default' | 'allow-write'): string {
  return command([
    'sched',
    'mcp',
    ...(inv.sandbox ? ['--sandbox'] : [...profileWords(inv), ...baseUrlWords(inv)]),
    ...(level === 'allow-write' ? ['--allow-write'] : []),
  ]);
}

/** The invocation a command's hints keep, from its parsed global options. */
export function invocationOf(g: {
  readonly profile?: string | undefined;
  readonly baseUrl?: string | undefined;
}): Invocation {
  return { profile: g.profile, baseUrlFlag: g.baseUrl };
}

/**
 * A command that reads or changes the account (or the sandbox a base URL names), for the user to
 * paste, as a template tag like shellCommand — each value one shell word, the template's text
 * (`<text>` placeholders, flags) as written — with the invocation's --profile and --base-url
 * after it, so it reaches what the command that suggests it reached:
 * accountCommand(inv)`sched webhooks rm ${uuid}`. Without backquotes (callers add them).
 */
export function accountCommand(
  inv: Invocation,
): (parts: TemplateStringsArray, ...values: ReadonlyArray<string | number>) => string {
  return (parts, ...values) =>
    [shellLine(parts, values), ...profileWords(inv), ...baseUrlWords(inv)].join(' ');
}

/**
 * `sched profiles ls`: it lists every profile of the config directory, whatever the profile or
 * base URL of the invocation, so it keeps no flag (SCHED_CONFIG_DIR, which chooses the
 * directory, is in the environment the user pastes into).
 */
export function profilesListHint(): string {
  return command(['sched', 'profiles', 'ls']);
}

/** How to delete a webhook by hand (one a command could not delete, or an older one). */
export function webhookRemoveHint(inv: Invocation, uuid: string): string {
  return accountCommand(inv)`sched webhooks rm ${uuid}`;
}

/** After a webhook creation whose outcome is unknown: how to check before trying again. */
export function webhookCreatedHint(inv: Invocation): string {
  const cmd = accountCommand(inv);
  return `check with \`${cmd`sched webhooks ls`}\` before trying again (or use \`${cmd`sched webhooks add --if-absent`}\`)`;
}
