// The config store: one JSON file managed with conf, `{ "profiles": { "<name>": { "baseUrl",
// "apiKey" } } }`, in SCHED_CONFIG_DIR or the platform config directory for "sched".
//
// What conf does not do for us, done here:
// - modes: conf writes files 0666 (minus umask) and creates the directory with default modes;
//   we create the directory 0700, ask conf for 0600 (`configFileMode`), and tighten an existing
//   file or directory that is wider, with a warning.
// - a file that cannot be parsed is reported with its path and how to fix it, never wiped
//   (`clearInvalidConfig: false`, which is conf 15's default; set explicitly all the same).
// - concurrent writers: conf writes atomically (temp file + rename), so the file is always
//   valid; a lock file around read-modify-write also keeps two `auth login` runs from losing
//   each other's profile.
// This module is cheap to import; conf itself is loaded by openConfig().
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Failure, UsageError } from '../errors.js';
import { jsonErrorPlace } from '../text/json-error.js';
import { quote } from '../text/quote.js';
import { DEFAULT_SANDBOX_BASE_URL } from '../sandbox/constants.js';

export interface Profile {
  baseUrl?: string;
  apiKey?: string;
}

export interface ConfigStore {
  /** Absolute path of the config file. */
  readonly path: string;
  getProfile(name: string): Profile | undefined;
  /** Stores the profile (replacing the stored one of that name). */
  setProfile(name: string, profile: Profile): void;
  /** Removes the stored key of a profile; returns false when there was none. */
  deleteKey(name: string): boolean;
  listProfiles(): Record<string, Profile>;
}

export const DEFAULT_BASE_URL = 'https://secure.simplymeet.me/api';

/** The base URLs `auth login` offers, default first. */
export const KNOWN_BASE_URLS: ReadonlyArray<{ name: string; url: string; description: string }> = [
  { name: 'SimplyMeet.me', url: DEFAULT_BASE_URL, description: 'the hosted service (default)' },
  {
    name: 'Harmonizely',
    url: 'https://harmonizely.com/api',
    description: 'the older hosted address',
  },
  {
    name: 'Local sandbox',
    url: DEFAULT_SANDBOX_BASE_URL,
    description: 'started with `sched sandbox`',
  },
];

/** Masks a secret for display: "****" plus at most the last 4 characters, fewer for short keys. */
export function maskKey(key: string | undefined): string {
  if (!key) return '';
  // Showing 4 of a 6-character key would reveal most of it: short keys show less or nothing.
  const visible = key.length >= 16 ? 4 : key.length >= 10 ? 2 : 0;
  return '****' + (visible > 0 ? key.slice(-visible) : '');
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkProfileName(name: string): void {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`invalid profile name ${quote(name)}`, {
      hint: 'use letters, digits, ".", "_" or "-" (at most 64 characters), e.g. --profile staging',
    });
  }
}

/** The platform config directory for "sched" (like env-paths, without conf's "-nodejs"). */
export function configDir(env: Record<string, string | undefined>): string {
  if (env.SCHED_CONFIG_DIR) return path.resolve(env.SCHED_CONFIG_DIR);
  const home = env.HOME || env.USERPROFILE || os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Preferences', 'sched');
  if (process.platform === 'win32') {
    return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'sched', 'Config');
  }
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'sched');
}

export interface OpenConfigOptions {
  /** Receives warnings (permissions tightened, shared directory). Default: dropped. */
  warn?: (line: string) => void;
}

type Profiles = Record<string, Profile>;

const octal = (mode: number) => '0' + (mode & 0o7777).toString(8);
const POSIX = process.platform !== 'win32';

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function describeFsError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code ? `${err.code}: ${err.message.replace(/^\w+: /, '')}` : String(e);
}

/** Checks what we read; returns the problem, or undefined when the content is usable. */
function shapeProblem(store: unknown): string | undefined {
  if (!store || typeof store !== 'object' || Array.isArray(store))
    return 'the top level is not a JSON object';
  const profiles = (store as Record<string, unknown>).profiles;
  if (profiles === undefined) return undefined;
  if (!profiles || typeof profiles !== 'object' || Array.isArray(profiles))
    return '"profiles" is not an object';
  for (const [name, p] of Object.entries(profiles as Record<string, unknown>)) {
    if (!p || typeof p !== 'object' || Array.isArray(p))
      return `profile ${quote(name)} is not an object`;
    for (const k of ['baseUrl', 'apiKey']) {
      const v = (p as Record<string, unknown>)[k];
      if (v !== undefined && typeof v !== 'string')
        return `"${k}" of profile ${quote(name)} is not a string`;
    }
  }
  return undefined;
}

function cleanProfile(p: Profile): Profile {
  const out: Profile = {};
  if (p.baseUrl) out.baseUrl = p.baseUrl;
  if (p.apiKey) out.apiKey = p.apiKey;
  return out;
}

export async function openConfig(
  env: Record<string, string | undefined>,
  opts: OpenConfigOptions = {},
): Promise<ConfigStore> {
  const warn = opts.warn ?? (() => {});
  const dir = configDir(env);
  const file = path.join(dir, 'config.json');
  const fixHint = `fix it by hand, or move it away (mv "${file}" "${file}.bak") and run \`sched auth login\` again`;

  let dirReady = true;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    dirReady = false;
    if (fs.existsSync(file)) {
      throw new Failure(`cannot use the config directory ${dir}: ${describeFsError(e)}`);
    }
  }
  if (dirReady && POSIX) tighten(dir, 0o700, 'config directory', warn);
  if (POSIX && fs.existsSync(file)) tighten(file, 0o600, 'config file', warn);

  if (!dirReady) {
    // Nothing stored and nowhere to store: reading works (env keys), writing says why not.
    return readOnlyEmpty(file, dir);
  }

  const { default: Conf } = await import('conf');
  let conf: InstanceType<typeof Conf<{ profiles?: Profiles }>>;
  try {
    conf = new Conf<{ profiles?: Profiles }>({
      cwd: dir,
      configName: 'config',
      fileExtension: 'json',
      projectSuffix: '',
      configFileMode: 0o600,
      clearInvalidConfig: false,
      accessPropertiesByDotNotation: false,
      serialize: (v) => JSON.stringify(v, null, 2) + '\n',
      // conf copies what it parsed into a plain object (an array would pass as `{}`): check
      // the content as written.
      deserialize: (text) => {
        const value = JSON.parse(text) as unknown;
        const problem = shapeProblem(value);
        if (problem) throw new ShapeError(problem);
        return value as { profiles?: Profiles };
      },
    });
  } catch (e) {
    throw unreadable(file, e, fixHint);
  }

  const read = (): Profiles => {
    let store: unknown;
    try {
      store = conf.store;
    } catch (e) {
      throw unreadable(file, e, fixHint);
    }
    const problem = shapeProblem(store);
    if (problem)
      throw new Failure(`the config file ${file} has unexpected content: ${problem}`, {
        hint: fixHint,
      });
    const profiles = (store as { profiles?: Profiles }).profiles ?? {};
    const out: Profiles = Object.create(null) as Profiles;
    for (const [k, v] of Object.entries(profiles)) out[k] = cleanProfile(v);
    return out;
  };

  const update = (fn: (profiles: Profiles) => boolean): boolean => {
    return withLock(file, () => {
      const profiles = read();
      const changed = fn(profiles);
      if (changed) {
        try {
          conf.set('profiles', { ...profiles });
        } catch (e) {
          throw new Failure(`cannot write the config file ${file}: ${describeFsError(e)}`);
        }
        if (POSIX) tighten(file, 0o600, 'config file', warn);
      }
      return changed;
    });
  };

  read(); // Report a broken file now, not in the middle of a command.

  return {
    path: file,
    getProfile(name) {
      const profiles = read();
      return Object.hasOwn(profiles, name) ? profiles[name] : undefined;
    },
    setProfile(name, profile) {
      checkProfileName(name);
      update((profiles) => {
        profiles[name] = cleanProfile(profile);
        return true;
      });
    },
    deleteKey(name) {
      return update((profiles) => {
        const p = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
        if (!p?.apiKey) return false;
        delete p.apiKey;
        return true;
      });
    },
    listProfiles() {
      return read();
    },
  };
}

class ShapeError extends Error {}

function unreadable(file: string, e: unknown, hint: string): Failure {
  if (e instanceof ShapeError) {
    return new Failure(`the config file ${file} has unexpected content: ${e.message}`, { hint });
  }
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'EACCES' || err?.code === 'EPERM') {
    return new Failure(`cannot read the config file ${file}: permission denied`, {
      hint: `check its owner and mode (chmod 600 "${file}")`,
    });
  }
  const why = err?.name === 'SyntaxError' ? notJson(file) : describeFsError(e);
  return new Failure(`cannot read the config file ${file}: ${why}`, { hint });
}

/**
 * Why the file is not JSON, without V8's message: it quotes the text around the error
 * (`Unexpected token 'K', ..."{"apiKey":KEYzz9-dis"...`), which is an API key more often than
 * not. The place is found by the shared JSON scanner, which never quotes the text.
 */
function notJson(file: string): string {
  try {
    return `it is not valid JSON${jsonErrorPlace(fs.readFileSync(file, 'utf8'))}`;
  } catch {
    // Gone or unreadable meanwhile: say no more than that it is not JSON.
    return 'it is not valid JSON';
  }
}

/** Narrows the mode of a file or directory we own when it is wider than `want`. */
function tighten(p: string, want: number, what: string, warn: (line: string) => void): void {
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch {
    return;
  }
  const mode = st.mode & 0o7777;
  if ((mode & 0o777 & ~want) === 0) return;
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  // Never chmod a shared directory (sticky like /tmp, the home directory, someone else's):
  // say so instead.
  const shared =
    (st.isDirectory() && (mode & 0o1000 || path.resolve(p) === path.resolve(os.homedir()))) ||
    (uid !== undefined && st.uid !== uid);
  if (shared) {
    warn(
      `warning: the ${what} ${p} is shared (mode ${octal(mode)}); point SCHED_CONFIG_DIR at a private directory`,
    );
    return;
  }
  try {
    fs.chmodSync(p, want);
    warn(
      `warning: the ${what} ${p} had mode ${octal(mode)}; changed it to ${octal(want)} (it holds API keys)`,
    );
  } catch (e) {
    warn(
      `warning: the ${what} ${p} has mode ${octal(mode)} and could not be changed (${describeFsError(e)})`,
    );
  }
}

/** Runs fn holding an exclusive lock file beside the config file (waits up to 5 s). */
function withLock<T>(file: string, fn: () => T): T {
  const lock = `${file}.lock`;
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lock, 'wx', 0o600));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new Failure(`cannot lock the config file ${file}: ${describeFsError(e)}`);
      }
      // A lock older than 10 s belongs to a process that died mid-write.
      try {
        if (Date.now() - fs.statSync(lock).mtimeMs > 10_000) fs.rmSync(lock, { force: true });
      } catch {
        // It went away meanwhile: try again.
      }
      if (Date.now() > deadline) {
        throw new Failure(`the config file ${file} is locked by another sched process`, {
          hint: `if no other sched is running, delete "${lock}"`,
        });
      }
      sleepSync(15 + Math.random() * 20);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

function readOnlyEmpty(file: string, dir: string): ConfigStore {
  const cannot = () =>
    new Failure(`cannot create the config directory ${dir}`, {
      hint: 'set SCHED_CONFIG_DIR to a writable directory, or use SCHED_API_KEY and SCHED_BASE_URL',
    });
  return {
    path: file,
    getProfile: () => undefined,
    setProfile: () => {
      throw cannot();
    },
    deleteKey: () => false,
    listProfiles: () => ({}),
  };
}
