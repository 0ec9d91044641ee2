// Node's compile cache (Node 22.1+): compiled code of the bundle kept across runs, so every
// command after the first starts faster (measured in BENCHMARKS.md). It lives in the user's
// own cache directory for sched, created private (0700): Node's default, a shared
// `<tmpdir>/node-compile-cache`, belongs to whichever user ran first, and every other user
// silently gets no cache. One that already exists is used only if this user owns it and others
// cannot write to it. A cache only saves time: nothing here may fail a command.
//
// Builtins come from process.getBuiltinModule (synchronous, no import): this runs on every
// start, before anything else is loaded.

import { makePrivateDir, ownedDir, schedDir } from './platform-dirs.js';

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
    makePrivateDir(dir, 3);
    // Node runs the compiled code it finds there: only a directory of this user's own.
    if (!ownedDir(dir)) return;
    nodeModule.enableCompileCache(dir);
  } catch {
    // No cache this time.
  }
}
