// Where the profile, base URL and key of a command come from, said to the user: the note when
// the environment overrides what a profile stores (requests never go somewhere unexpected), the
// hint when a key is rejected (naming the key's actual source), and the error for a profile
// that does not exist; and the key's precedence (chooseKey). Pure, no I/O: the context decides
// when to say it, and runs a key command (./key-command.ts) only when chooseKey picks it.
import { UsageError } from '../errors.js';
import { loginHint, profilesListHint } from '../text/hints.js';
import { quote } from '../text/quote.js';
import { didYouMeanInline } from '../text/suggest.js';

export type BaseUrlSource = 'flag' | 'env' | 'profile' | 'default';
export type ProfileSource = 'flag' | 'env' | 'default';

/** What the sources need to know of the resolved credentials. */
export interface Sources {
  profile: string;
  /** Where the profile name came from: --profile, SCHED_PROFILE, or the default. */
  profileSource?: ProfileSource;
  baseUrl: string;
  baseUrlSource: BaseUrlSource;
  keySource: KeySource | undefined;
  /** The profile's key command, when it stores one. */
  keyCommand?: string | undefined;
  /** The base URL the profile stores, when it stores one. */
  storedBaseUrl: string | undefined;
  /** True when SCHED_API_KEY is set and the profile also stores a (different) key or a key command. */
  envOverridesProfileKey: boolean;
}

/** Where the key comes from: SCHED_API_KEY, the profile's stored key, or its key command. */
export type KeySource = 'env' | 'profile' | 'command';

export interface KeyChoice {
  /** The key, when it is known without running anything (env, or stored in the profile). */
  apiKey: string | undefined;
  keySource: KeySource | undefined;
  /** The profile's key command, when it stores one (run only when keySource is 'command'). */
  keyCommand: string | undefined;
  /** SCHED_API_KEY is set and the profile stores another key, or a key command (never run). */
  envOverridesProfileKey: boolean;
}

/** The key's precedence, env > profile (a stored key, or a key command); nothing is run. */
export function chooseKey(
  envKey: string | undefined,
  profile: { apiKey?: string; keyCommand?: string } | undefined,
): KeyChoice {
  const stored = profile?.apiKey || undefined;
  const command = profile?.keyCommand || undefined;
  if (envKey) {
    return {
      apiKey: envKey,
      keySource: 'env',
      keyCommand: command,
      envOverridesProfileKey: command !== undefined || (stored !== undefined && stored !== envKey),
    };
  }
  if (command !== undefined) {
    return {
      apiKey: undefined,
      keySource: 'command',
      keyCommand: command,
      envOverridesProfileKey: false,
    };
  }
  return {
    apiKey: stored,
    keySource: stored ? 'profile' : undefined,
    keyCommand: undefined,
    envOverridesProfileKey: false,
  };
}

function profileName(name: string): string {
  return quote(name);
}

/** SCHED_BASE_URL is in use and the profile stores another base URL. */
export function envOverridesProfileBaseUrl(s: Sources): boolean {
  return (
    s.baseUrlSource === 'env' && s.storedBaseUrl !== undefined && s.storedBaseUrl !== s.baseUrl
  );
}

/**
 * One stderr line per environment variable that overrides what the profile stores, naming the
 * variable and the URL requests actually go to. Empty when nothing is overridden.
 */
export function overrideNotes(s: Sources): string[] {
  const p = profileName(s.profile);
  const notes: string[] = [];
  if (envOverridesProfileBaseUrl(s)) {
    notes.push(
      `note: SCHED_BASE_URL is set in the environment and overrides profile ${p} (${s.storedBaseUrl}): requests go to ${s.baseUrl}`,
    );
  }
  if (s.envOverridesProfileKey) {
    notes.push(
      `note: SCHED_API_KEY is set in the environment and overrides the ${storedKey(s)} in profile ${p}: its key is sent to ${s.baseUrl}`,
    );
  }
  return notes;
}

/** What the profile stores for its key, in words. */
function storedKey(s: Sources): string {
  return s.keyCommand ? 'key command stored' : 'key stored';
}

/** Where the key comes from, for `auth status` on a terminal: "env SCHED_API_KEY", … */
export function keySourceText(s: Sources): string {
  const p = profileName(s.profile);
  switch (s.keySource) {
    case 'env':
      return s.envOverridesProfileKey
        ? `env SCHED_API_KEY (overrides the ${storedKey(s)} in profile ${p})`
        : 'env SCHED_API_KEY';
    case 'profile':
      return `profile ${p}`;
    case 'command':
      return `command \`${s.keyCommand}\` (profile ${p})`;
    default:
      return 'none';
  }
}

/** Where base URLs come from, for `auth status`: "env SCHED_BASE_URL", "profile \"x\"", … */
export function baseUrlSourceText(s: Sources): string {
  switch (s.baseUrlSource) {
    case 'flag':
      return '--base-url';
    case 'env':
      return envOverridesProfileBaseUrl(s)
        ? `env SCHED_BASE_URL (overrides ${s.storedBaseUrl} stored in profile ${profileName(s.profile)})`
        : 'env SCHED_BASE_URL';
    case 'profile':
      return `profile ${profileName(s.profile)}`;
    case 'default':
      return 'default';
  }
}

function loginCommand(profile: string): string {
  return loginHint({ profile });
}

/** The hint of a missing key: log in to the profile (and --base-url) of the invocation. */
export function noKeyHint(s: Pick<Sources, 'profile' | 'baseUrl' | 'baseUrlSource'>): string {
  const inv = {
    profile: s.profile,
    baseUrlFlag: s.baseUrlSource === 'flag' ? s.baseUrl : undefined,
  };
  return `run ${loginHint(inv)} or set SCHED_API_KEY`;
}

/** The hint of a rejected key (401/403): what to change, where the key actually came from. */
export function rejectedKeyHint(s: Sources): string {
  const p = profileName(s.profile);
  if (s.keySource === 'env') {
    return s.envOverridesProfileKey
      ? `SCHED_API_KEY is set in the environment and overrides profile ${p}: unset it to use the stored ${s.keyCommand ? 'key command' : 'key'}, or set it to a valid key`
      : `the key comes from SCHED_API_KEY in the environment: set it to a valid key (from your account's Integrations page), or unset it and run ${loginCommand(s.profile)}`;
  }
  if (s.keySource === 'command') {
    return `the key is printed by the key command of profile ${p} (\`${s.keyCommand}\`): store a valid key where it reads it, or run ${loginCommand(s.profile)} again`;
  }
  return `the key is stored in profile ${p}: run ${loginCommand(s.profile)} to store a valid one (from your account's Integrations page)`;
}

/** An unknown profile: a usage error naming it, where it came from, and the closest one. */
export function unknownProfileError(
  name: string,
  source: ProfileSource | undefined,
  known: readonly string[],
): UsageError {
  const from =
    source === 'env' ? ' (from SCHED_PROFILE)' : source === 'flag' ? ' (from --profile)' : '';
  const list = known.length > 0 ? `profiles: ${known.join(', ')}` : 'no profile is stored yet';
  return new UsageError(
    `unknown profile ${profileName(name)}${from}${didYouMeanInline(name, known)}; ${list}`,
    { hint: `only ${loginCommand(name)} creates a profile; ${profilesListHint()} lists them` },
  );
}

/**
 * Throws the unknown-profile error unless `name` is stored, or is "default" (which works from
 * the environment alone, with no config at all). Only `auth login` skips this: it creates.
 */
export function checkProfileKnown(
  name: string,
  source: ProfileSource | undefined,
  stored: readonly string[],
): void {
  if (name !== 'default' && !stored.includes(name)) {
    throw unknownProfileError(name, source, stored);
  }
}
