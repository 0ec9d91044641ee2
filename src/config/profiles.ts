// The config store: one JSON file managed with conf, `{ "profiles": { "<name>": { "baseUrl",
// "apiKey" or "keyCommand" } } }`, in SCHED_CONFIG_DIR or the platform config directory for "sched".
//
// What conf does not do for us, done here:
// - modes: conf writes files 0666 (minus umask) and creates the directory with default modes;
//   we create the directory 0700, ask conf for 0600 (`configFileMode`), and tighten an existing
//   file or directory that is wider, with a warning.
// - trust: a directory or file owned by another user, or writable by others, is refused before
//   anything in it is used, and a config.json that is a symbolic link is never written through
//   (src/config/trust.ts).
// - a file that cannot be parsed is reported with its path and how to fix it, never wiped
//   (`clearInvalidConfig: false`, which is conf 15's default; set explicitly all the same).
// - concurrent writers: conf writes atomically (temp file + rename), so the file is always
//   valid; a lock file around read-modify-write also keeps two `auth login` runs from losing
//   each other's profile.
// This module is cheap to import; conf itself is loaded by openConfig().
import { Failure, UsageError } from '../errors.js';
import { schedDir } from '../platform-dirs.js';
import { quote, shellCommand } from '../text/quote.js';
import { DEFAULT_SANDBOX_BASE_URL } from '../defaults.js';
import { describeFsError, POSIX, tighten, withLock } from './files.js';
import {
  checkConfigRegular,
  checkConfigTrust,
  checkConfigWritable,
  readTrustedConfig,
} from './trust.js';
import { ShapeError, shapeProblem, unreadable } from './problems.js';

const fs = process.getBuiltinModule('node:fs');
const os = process.getBuiltinModule('node:os');
const path = process.getBuiltinModule('node:path');

export interface Profile {
  baseUrl?: string;
  apiKey?: string;
  /** A command that prints the key (src/config/key-command.ts), stored instead of the key. */
  keyCommand?: string;
}

export interface ConfigStore {
  /** Absolute path of the config file. */
  readonly path: string;
  getProfile(name: string): Profile | undefined;
  /** Stores the profile (replacing the stored one of that name). */
  setProfile(name: string, profile: Profile): Promise<void>;
  /** Removes the stored key (or key command) of a profile; resolves to false when there was none. */
  deleteKey(name: string): Promise<boolean>;
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

/** SCHED_CONFIG_DIR, else the platform config directory for sched (src/platform-dirs.ts). */
export function configDir(env: Record<string, string | undefined>): string {
  if (env.SCHED_CONFIG_DIR) return path.resolve(env.SCHED_CONFIG_DIR);
  return schedDir('config', env, process.platform, env.HOME || env.USERPROFILE || os.homedir());
}

export interface OpenConfigOptions {
  /** Receives warnings (permissions tightened, shared directory). Default: dropped. */
  warn?: (line: string) => void;
}

type Profiles = Record<string, Profile>;

function cleanProfile(p: Profile): Profile {
  const out: Profile = {};
  if (p.baseUrl) out.baseUrl = p.baseUrl;
  if (p.apiKey) out.apiKey = p.apiKey;
  if (p.keyCommand) out.keyCommand = p.keyCommand;
  return out;
}

export async function openConfig(
  env: Record<string, string | undefined>,
  opts: OpenConfigOptions = {},
): Promise<ConfigStore> {
  const warn = opts.warn ?? (() => {});
  const dir = configDir(env);
  const file = path.join(dir, 'config.json');
  const fixHint = `fix it by hand, or move it away (${shellCommand`mv ${file} ${`${file}.bak`}`}) and run \`sched auth login\` again`;

  let dirReady = true;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    dirReady = false;
    if (fs.existsSync(file)) {
      throw new Failure(`cannot use the config directory ${dir}: ${describeFsError(e)}`);
    }
  }
  // Trust before use: a directory or file someone else can write is refused (src/config/trust.ts).
  checkConfigTrust(dir, file);
  // Nothing is changed before a config.json that is no regular file is refused.
  try {
    checkConfigRegular(file);
  } catch (e) {
    throw unreadable(file, e, fixHint);
  }
  if (dirReady && POSIX) tighten(dir, 0o700, 'config directory', warn);
  // A symbolic link is not chmod-ed (that would change the file it points to).
  if (POSIX && fs.existsSync(file) && !fs.lstatSync(file).isSymbolicLink()) {
    tighten(file, 0o600, 'config file', warn);
  }

  if (!dirReady) {
    // Nothing stored and nowhere to store: reading works (env keys), writing says why not.
    return readOnlyEmpty(file, dir);
  }

  // Reading is one readFileSync and the shape checks; conf (with its atomic writer) is loaded
  // only to write: every API command reads the profile, few write it (~10-25 ms of start-up).
  const parse = (text: string): { profiles?: Profiles } => {
    const value = JSON.parse(text) as unknown;
    const problem = shapeProblem(value);
    if (problem) throw new ShapeError(problem);
    return value as { profiles?: Profiles };
  };
  const read = (): Profiles => {
    let store: unknown;
    try {
      const text = readTrustedConfig(file);
      store = text === undefined ? {} : parse(text);
    } catch (e) {
      if (e instanceof UsageError) throw e;
      throw unreadable(file, e, fixHint);
    }
    const profiles = (store as { profiles?: Profiles }).profiles ?? {};
    const out: Profiles = Object.create(null) as Profiles;
    for (const [k, v] of Object.entries(profiles)) out[k] = cleanProfile(v);
    return out;
  };

  type Writer = { set(key: 'profiles', value: Profiles): void };
  let writer: Writer | undefined;
  const openWriter = async (): Promise<Writer> => {
    if (writer) return writer;
    const { default: Conf } = await import('conf');
    try {
      writer = new Conf<{ profiles?: Profiles }>({
        cwd: dir,
        configName: 'config',
        fileExtension: 'json',
        projectSuffix: '',
        configFileMode: 0o600,
        clearInvalidConfig: false,
        accessPropertiesByDotNotation: false,
        serialize: (v) => JSON.stringify(v, null, 2) + '\n',
        deserialize: parse,
      });
    } catch (e) {
      throw unreadable(file, e, fixHint);
    }
    return writer;
  };

  const update = async (fn: (profiles: Profiles) => boolean): Promise<boolean> => {
    checkConfigWritable(file);
    const conf = await openWriter();
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
    async setProfile(name, profile) {
      checkProfileName(name);
      await update((profiles) => {
        profiles[name] = cleanProfile(profile);
        return true;
      });
    },
    deleteKey(name) {
      return update((profiles) => {
        const p = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
        if (!p?.apiKey && !p?.keyCommand) return false;
        delete p.apiKey;
        delete p.keyCommand;
        return true;
      });
    },
    listProfiles() {
      return read();
    },
  };
}

function readOnlyEmpty(file: string, dir: string): ConfigStore {
  const cannot = () =>
    new Failure(`cannot create the config directory ${dir}`, {
      hint: 'set SCHED_CONFIG_DIR to a writable directory, or use SCHED_API_KEY and SCHED_BASE_URL',
    });
  return {
    path: file,
    getProfile: () => undefined,
    setProfile: () => Promise.reject(cannot()),
    deleteKey: () => Promise.resolve(false),
    listProfiles: () => ({}),
  };
}
