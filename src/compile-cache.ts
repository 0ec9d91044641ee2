// Node's compile cache (Node 22.1+): compiled code of the bundle kept across runs, so every
// command after the first starts faster (measured in BENCHMARKS.md). It lives in the user's
// own cache directory for sched, created private (0700): Node's default, a shared
// `<tmpdir>/node-compile-cache`, belongs to whichever user ran first, and every other user
// silently gets no cache. One that already exists is used only if this user owns it and others
// cannot write to it. A cache only saves time: nothing here may fail a command.
//
// Builtins come from process.getBuiltinModule (synchronous, no import): this runs on every
// start, before anything else is loaded.

import { schedDir } from './platform-dirs.js';
import { isPrivateGroup } from './config/ownership.js';

type Env = Record<string, string | undefined>;

export interface NodeModuleWithCache {
  enableCompileCache?: (dir?: string) => unknown;
}

/**
 * Enables the compile cache in `<schedDir('cache')>/node-compile-cache`. Does nothing on Node
 * without the cache, when NODE_COMPILE_CACHE chose a directory already or
 * NODE_DISABLE_COMPILE_CACHE turned it off, and when the directory cannot be made (no home,
 * read-only file system): the command then runs without a cache. `nodeModule` is Node's own
 * (tests pass one with the cache to run this on a Node without it).
 */
export function enableCompileCache(
  env: Env = process.env,
  nodeModule = process.getBuiltinModule('node:module') as NodeModuleWithCache,
): void {
  try {
    if (typeof nodeModule.enableCompileCache !== 'function') return;
    if (env.NODE_COMPILE_CACHE || env.NODE_DISABLE_COMPILE_CACHE) return;
    const os = process.getBuiltinModule('node:os');
    const home = env.HOME || env.USERPROFILE || os.homedir();
    if (!home) return;
    const dir = process
      .getBuiltinModule('node:path')
      .join(schedDir('cache', env, process.platform, home), 'node-compile-cache');
    makeDir(dir, 3);
    if (!trusted(dir)) return;
    nodeModule.enableCompileCache(dir);
  } catch {
    // No cache this time.
  }
}

/**
 * Node runs the compiled code it finds in the cache: a directory another user owns, or one
 * others can write to (sticky or not: they could still add entries) — everyone, or a group that
 * is not the user's own private group (ssh's rule, src/config/ownership.ts) — is not used, as
 * the config directory is refused (src/config/trust.ts). Nor is one whose parents someone else
 * could rename it away in and plant another: each parent up to the root must be the user's or
 * root's, and writable by no one else unless sticky (like /tmp). Judged by the real path.
 * POSIX only (Windows has ACLs, and no uid).
 */
function trusted(dir: string): boolean {
  if (typeof process.getuid !== 'function') return true;
  const fs = process.getBuiltinModule('node:fs');
  const path = process.getBuiltinModule('node:path');
  const uid = process.getuid();
  const groupOpen = (st: { mode: number; gid: number }) =>
    (st.mode & 0o020) !== 0 && !isPrivateGroup(st.gid);
  const real = fs.realpathSync(dir);
  const st = fs.statSync(real);
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o002) !== 0 || groupOpen(st)) {
    return false;
  }
  for (let p = path.dirname(real); ; p = path.dirname(p)) {
    const parent = fs.statSync(p);
    if (parent.uid !== uid && parent.uid !== 0) return false;
    const sticky = (parent.mode & 0o1000) !== 0;
    if (!sticky && ((parent.mode & 0o002) !== 0 || groupOpen(parent))) return false;
    if (path.dirname(p) === p) return true;
  }
}

/**
 * mkdir -p, private, at most `parents` missing parents deep. Not fs.mkdirSync's `recursive`:
 * it spins forever where mkdir answers ENOENT under an existing parent (/proc, some FUSE).
 */
function makeDir(dir: string, parents: number): void {
  const fs = process.getBuiltinModule('node:fs');
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    const parent = process.getBuiltinModule('node:path').dirname(dir);
    // No `parent === dir` stop needed: the root always exists (EEXIST above).
    if (code !== 'ENOENT' || parents === 0) throw e;
    makeDir(parent, parents - 1);
    fs.mkdirSync(dir, { mode: 0o700 });
  }
}
