// A short-lived cache of the completion candidates that need the server (meeting-type slugs,
// webhook UUIDs), so that a TAB pressed again answers from a file instead of an HTTPS request.
// One file per profile, base URL and kind in `<schedDir('cache')>/completion/` (0700, files
// 0600): what the file holds is the candidates, the profile and base URL they came from, and
// when they expire (`expires`, an ISO time a user can read); never the API key. The file's
// name is a hash that includes the key, so a list is reused only with the key that read it
// (another key, which the server may refuse, asks again).
// SCHED_COMPLETION_TTL sets the seconds a list is kept (default 60); 0 turns the cache off (no
// file is read or written). A cache only saves time: nothing here may fail a completion.
import { makePrivateDir, ownedDir, schedDir } from '../platform-dirs.js';

type Env = Record<string, string | undefined>;
export type Cached = Array<[value: string, description?: string]>;

/** Seconds a list is kept when SCHED_COMPLETION_TTL does not say. */
export const DEFAULT_COMPLETION_TTL = 60;

/** Whose list it is: a file per profile, base URL and kind (and key, in the name only). */
export interface CacheKey {
  profile: string;
  baseUrl: string;
  kind: string;
  apiKey: string;
}

interface CacheFile extends Omit<CacheKey, 'apiKey'> {
  expires: string;
  candidates: Cached;
}

export interface CompletionCache {
  dir: string;
  ttlMs: number;
}

/**
 * Where and for how long, or undefined when the cache is off (SCHED_COMPLETION_TTL=0) or there
 * is no home directory in the environment to keep it in.
 */
export function completionCache(env: Env): CompletionCache | undefined {
  const raw = env.SCHED_COMPLETION_TTL?.trim();
  const ttl = raw && /^\d+$/.test(raw) ? Number(raw) : DEFAULT_COMPLETION_TTL;
  const home = env.HOME || env.USERPROFILE;
  if (ttl === 0 || !home) return undefined;
  const dir = process
    .getBuiltinModule('node:path')
    .join(schedDir('cache', env, process.platform, home), 'completion');
  return { dir, ttlMs: ttl * 1000 };
}

function fileOf(cache: CompletionCache, key: CacheKey): string {
  const hash = process
    .getBuiltinModule('node:crypto')
    .createHash('sha256')
    .update(JSON.stringify([key.profile, key.baseUrl, key.kind, key.apiKey]))
    .digest('hex')
    .slice(0, 32);
  return process.getBuiltinModule('node:path').join(cache.dir, `${key.kind}-${hash}.json`);
}

const isCandidate = (c: unknown): c is [string, string?] =>
  Array.isArray(c) && c.length >= 1 && c.length <= 2 && c.every((s) => typeof s === 'string');

/**
 * The list kept for `key`, if a file of this user's holds one for exactly that profile, base
 * URL and kind that has not expired; else undefined (any problem reads as a miss).
 */
export function readCached(
  cache: CompletionCache,
  key: CacheKey,
  now = Date.now(),
): Cached | undefined {
  try {
    const fs = process.getBuiltinModule('node:fs');
    const file = fileOf(cache, key);
    const st = fs.statSync(file);
    if (typeof process.getuid === 'function') {
      if (st.uid !== process.getuid() || (st.mode & 0o077) !== 0) return undefined;
    }
    if (!st.isFile() || !ownedDir(cache.dir)) return undefined;
    const f = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<CacheFile>;
    if (f.profile !== key.profile || f.baseUrl !== key.baseUrl || f.kind !== key.kind) return;
    const expires = Date.parse(f.expires ?? '');
    // A file from the future (a clock set back) is not trusted for longer than the TTL.
    if (!(expires > now) || expires - now > cache.ttlMs) return undefined;
    return Array.isArray(f.candidates) && f.candidates.every(isCandidate)
      ? f.candidates
      : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `candidates` for `key` until now + TTL: written whole (a temporary file renamed). */
export function writeCached(
  cache: CompletionCache,
  key: CacheKey,
  candidates: Cached,
  now = Date.now(),
): void {
  try {
    const fs = process.getBuiltinModule('node:fs');
    makePrivateDir(cache.dir, 3);
    if (!ownedDir(cache.dir)) return;
    const file = fileOf(cache, key);
    const body: CacheFile = {
      profile: key.profile,
      baseUrl: key.baseUrl,
      kind: key.kind,
      expires: new Date(now + cache.ttlMs).toISOString(),
      candidates,
    };
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(body) + '\n', { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch {
    // No cache this time.
  }
}
