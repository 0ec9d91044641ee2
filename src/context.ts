// What every command receives: io, the global options, and lazy access to the config store,
// the API client and the prompter. Nothing heavy is loaded until a command asks for it.
import type { IO } from './io.js';
import type { ApiClient, ApiClientOptions } from './api/client.js';
import type { ConfigStore, Profile } from './config/profiles.js';
import type { Prompter } from './prompt.js';
import { AuthError, SchedError, UsageError } from './errors.js';
import { quote, quoteUrl } from './text/quote.js';
import { proxyCredentials } from './mask.js';
import {
  checkProfileKnown,
  chooseKey,
  type KeySource,
  noKeyHint,
  overrideNotes,
  rejectedKeyHint,
  type BaseUrlSource,
  type ProfileSource,
} from './config/sources.js';

import type { OutputSettings } from './output/render.js';

export { OUTPUT_FORMATS, type OutputFormat } from './output/formats.js';

export type Env = Record<string, string | undefined>;

/** The global options; those of the output (-o, -q, --csv-bom) as the renderer reads them. */
export interface GlobalOptions extends OutputSettings {
  profile: string;
  /** Where the profile name came from: --profile, SCHED_PROFILE, or the default. */
  profileSource?: ProfileSource;
  /** --base-url, when given. */
  baseUrl: string | undefined;
  color: boolean;
  /** false with --no-input. */
  input: boolean;
  timeoutMs: number;
  verbose: boolean;
  quiet: boolean;
}

export interface Credentials {
  profile: string;
  profileSource?: ProfileSource;
  baseUrl: string;
  baseUrlSource: BaseUrlSource;
  /** Undefined when there is none, or when the key command was not run (runKeyCommand: false). */
  apiKey: string | undefined;
  keySource: KeySource | undefined;
  /** The profile's key command, when it stores one (run only when keySource is 'command'). */
  keyCommand: string | undefined;
  /** The base URL the profile stores (normalised), when it stores one. */
  storedBaseUrl: string | undefined;
  /** True when SCHED_API_KEY is set and the profile also stores a (different) key or a key command. */
  envOverridesProfileKey: boolean;
}

export interface CredentialsOptions {
  /**
   * The profile may not exist yet (`auth login` creates it). Otherwise a profile that is not
   * stored is a usage error, except "default", which works from the environment alone.
   */
  mayCreate?: boolean;
  /**
   * false: a profile's key command is not run (apiKey stays undefined): TAB completion, and
   * `auth login`, which replaces it. Otherwise it runs at most once per context (per process).
   */
  runKeyCommand?: boolean;
}

export interface Context {
  readonly io: IO;
  readonly globals: GlobalOptions;
  readonly env: Env;
  /** Aborted on Ctrl-C (reason 'SIGINT') or SIGTERM (reason 'SIGTERM'). */
  readonly signal: AbortSignal;
  readonly version: string;
  config(): Promise<ConfigStore>;
  /** Profile, base URL and key with their sources; an unknown profile is a UsageError. */
  credentials(opts?: CredentialsOptions): Promise<Credentials>;
  /**
   * The API client for the resolved profile; AuthError when there is no key. Before its first
   * write (anything but GET) it says on stderr what the environment overrides, if anything.
   */
  api(): Promise<ApiClient>;
  /**
   * A client for an explicit base URL and key (auth login checks a key before storing it).
   * `sayOverrides`: the base URL is the resolved one, so, like api(), say before the first write
   * what the environment overrides.
   */
  apiFor(baseUrl: string, apiKey: string, opts?: { sayOverrides?: boolean }): Promise<ApiClient>;
  prompter(): Promise<Prompter>;
  /** Registers work to run when the command ends, however it ends (close pools, servers). */
  defer(fn: () => Promise<void> | void): void;
  /** Runs the deferred work, newest first. Called by the CLI runner. */
  runDeferred(): Promise<void>;
}

export interface ContextDeps {
  io: IO;
  globals: GlobalOptions;
  env: Env;
  signal: AbortSignal;
  version: string;
  /** Injected in tests; otherwise the inquirer prompter on io. */
  prompter?: Prompter;
  /** The process ends with the command (process-main): its connections end with it, unclosed. */
  exits?: boolean;
}

export function normalizeBaseUrl(raw: string, source: string): string {
  const hint = 'use an absolute URL such as https://secure.simplymeet.me/api';
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new UsageError(`invalid base URL from ${source}: ${quoteUrl(raw.trim())}`, { hint });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new UsageError(
      `invalid base URL from ${source}: ${quoteUrl(raw.trim())} is not http(s)`,
      {
        hint,
      },
    );
  }
  if (u.username || u.password) {
    throw new UsageError(`the base URL from ${source} must not contain credentials`, {
      hint: 'store the API key with `sched auth login` or SCHED_API_KEY instead',
    });
  }
  // WHATWG URLs take any host; DNS does not (at most 253 characters, 63 per label). Caught
  // here it is a usage error, not a network failure retried 3 times.
  if (u.hostname.length > 253 || u.hostname.split('.').some((label) => label.length > 63)) {
    throw new UsageError(`invalid base URL from ${source}: the host name is too long`, { hint });
  }
  return u.toString().replace(/\/+$/, '');
}

/** A promise made on first call, the same one after (the lazy parts of a context). */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

// The key's path, from the config to a request, in the order it is walked:
// storedProfiles -> credentialsOf (base URL and key, their sources) -> keyCommand -> the client.

/**
 * The stored profiles. A config directory of another user is never read; when the command
 * needs no profile (the key and base URL from the environment or --base-url, the default
 * profile), it goes on without one after a note, else the refusal stands.
 */
async function storedProfiles(
  deps: ContextDeps,
  config: () => Promise<ConfigStore>,
): Promise<Record<string, Profile>> {
  const { globals, env, io } = deps;
  try {
    return (await config()).listProfiles();
  } catch (e) {
    const needsNoProfile =
      (globals.baseUrl !== undefined || Boolean(env.SCHED_BASE_URL)) &&
      Boolean(env.SCHED_API_KEY) &&
      globals.profile === 'default';
    if (!(e instanceof SchedError && e.code === 'config_untrusted' && needsNoProfile)) throw e;
    const url = globals.baseUrl !== undefined ? '--base-url' : 'SCHED_BASE_URL';
    io.err(io.colorErr.yellow(`note: ${e.message}; none is needed with SCHED_API_KEY and ${url}`));
    return {};
  }
}

/**
 * The profile's base URL and key with their sources: the base URL --base-url > SCHED_BASE_URL
 * > the profile's > the default, the key as chooseKey (config/sources.ts) says. A key command
 * is not run here (keyCommand below).
 */
function credentialsOf(
  { globals, env }: ContextDeps,
  profile: Profile | undefined,
  defaultBaseUrl: string,
): Credentials {
  const storedRaw = profile?.baseUrl;
  const fromProfile = () => normalizeBaseUrl(storedRaw ?? '', `profile ${quote(globals.profile)}`);
  const [baseUrl, baseUrlSource]: [string, BaseUrlSource] =
    globals.baseUrl !== undefined
      ? [normalizeBaseUrl(globals.baseUrl, '--base-url'), 'flag']
      : env.SCHED_BASE_URL
        ? [normalizeBaseUrl(env.SCHED_BASE_URL, 'SCHED_BASE_URL'), 'env']
        : storedRaw
          ? [fromProfile(), 'profile']
          : [defaultBaseUrl, 'default'];
  // Only for saying what is overridden: a stored URL that is not used may be broken.
  let storedBaseUrl: string | undefined;
  try {
    storedBaseUrl = storedRaw ? fromProfile() : undefined;
  } catch {
    storedBaseUrl = storedRaw?.trim();
  }
  return {
    profile: globals.profile,
    profileSource: globals.profileSource,
    baseUrl,
    baseUrlSource,
    ...chooseKey(env.SCHED_API_KEY || undefined, profile),
    storedBaseUrl,
  };
}

/** The last step: a client for the base URL and key, reporting what it learns to the gate. */
async function newClient(
  { io, globals, env, version }: ContextDeps,
  [baseUrl, apiKey, extra = {}]: [string, string, Pick<ApiClientOptions, 'authHint' | 'onWrite'>?],
): Promise<ApiClient> {
  const { createApiClient } = await import('./api/client.js');
  return createApiClient({
    ...extra,
    baseUrl,
    apiKey,
    onSecrets: (list) => io.addSecrets(list),
    timeoutMs: globals.timeoutMs,
    userAgent: `sched/${version}`,
    log: globals.verbose ? (line) => io.err(line) : undefined,
    // A person at a terminal is told when an answer is slow and when it is tried again.
    notify: io.stderrIsTTY && !globals.quiet ? (line) => io.err(line) : undefined,
    env,
  });
}

export function createContext(deps: ContextDeps): Context {
  const { io, globals, env } = deps;
  const deferred: Array<() => Promise<void> | void> = [];
  // Closed after all deferred work: cleanup (e.g. deleting a --register webhook) may still
  // need the API, whenever the client was first created.
  const clients: ApiClient[] = [];

  // The secrets the context knows reach the output gate here, each once: proxy passwords and
  // the environment's webhook secret now (whatever the command; a server may echo it), a key
  // when it is resolved (credentials(), a key command's, or the key apiFor() is given). A
  // client tells the gate only of the secret headers a request adds (`sched api -H`).
  io.addSecrets([...proxyCredentials(env), env.SCHED_WEBHOOK_SECRET]);
  const useKey = (apiKey: string | undefined) => io.addSecrets([apiKey?.trim()]);

  const config = once(() =>
    import('./config/profiles.js').then((m) => m.openConfig(env, { warn: (line) => io.err(line) })),
  );
  const stored = once(async () => {
    const { DEFAULT_BASE_URL } = await import('./config/profiles.js');
    const profiles = await storedProfiles(deps, config);
    const profile = Object.hasOwn(profiles, globals.profile)
      ? profiles[globals.profile]
      : undefined;
    const creds = credentialsOf(deps, profile, DEFAULT_BASE_URL);
    // From here on the gate masks the key in all output (auth status shows its last 4).
    useKey(creds.apiKey);
    return { creds, names: Object.keys(profiles) };
  });
  // Once per process, whoever asks: a failure is not retried either.
  let commandKey: Promise<string> | undefined;
  const keyCommand = (creds: Credentials) =>
    (commandKey ??= import('./config/key-command.js').then(async (m) => {
      const apiKey = await m.runKeyCommand(creds.keyCommand!, {
        env,
        profile: creds.profile,
        signal: deps.signal,
      });
      useKey(apiKey);
      return apiKey;
    }));

  const makeClient = async (...args: Parameters<typeof newClient>[1]) => {
    const client = await newClient(deps, args);
    clients.push(client);
    return client;
  };

  // The one place the override notes are said: once per command, before the first request that
  // creates or deletes (whichever client sends it), never for a command that only reads.
  let noted = false;
  const sayOverrides = (creds: Credentials) => () => {
    if (noted) return;
    noted = true;
    for (const line of overrideNotes(creds)) io.err(io.colorErr.yellow(line));
  };

  const ctx: Context = {
    io,
    globals,
    env,
    signal: deps.signal,
    version: deps.version,
    config,
    async credentials(opts = {}) {
      const { creds, names } = await stored();
      if (!opts.mayCreate) checkProfileKnown(creds.profile, creds.profileSource, names);
      if (creds.keySource !== 'command' || opts.runKeyCommand === false) return creds;
      return { ...creds, apiKey: await keyCommand(creds) };
    },
    api: once(async () => {
      const creds = await ctx.credentials();
      if (!creds.apiKey) {
        throw new AuthError(`no API key for profile ${quote(creds.profile)}`, {
          hint: noKeyHint(creds),
        });
      }
      return makeClient(creds.baseUrl, creds.apiKey, {
        authHint: rejectedKeyHint(creds),
        onWrite: sayOverrides(creds),
      });
    }),
    async apiFor(baseUrl, apiKey, opts = {}) {
      useKey(apiKey);
      if (!opts.sayOverrides) return makeClient(baseUrl, apiKey);
      return makeClient(baseUrl, apiKey, {
        onWrite: sayOverrides(await ctx.credentials({ runKeyCommand: false })),
      });
    },
    prompter: deps.prompter
      ? () => Promise.resolve(deps.prompter!)
      : once(() => import('./prompt.js').then((m) => m.createInquirerPrompter(io, deps.signal))),
    defer(fn) {
      deferred.push(fn);
    },
    async runDeferred() {
      while (deferred.length > 0) {
        const fn = deferred.pop();
        try {
          await fn?.();
        } catch {
          // Cleanup failures must not mask the command's own result.
        }
      }
      if (!deps.exits) await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
    },
  };
  return ctx;
}
