// The compile cache: per user, in sched's platform cache directory, private, and never the
// reason a command fails. Spawned: the cache is enabled by the built entry (dist/main.js).
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { schedCacheDir } from '../../src/compile-cache.js';
import { spawnSched } from '../helpers/run.js';

const HAS_CACHE = Number(process.versions.node.split('.')[0]) >= 22;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sched-compile-cache-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('schedCacheDir', () => {
  it.each([
    ['linux', {}, '/home/u/.cache/sched'],
    ['linux', { XDG_CACHE_HOME: '/xdg' }, '/xdg/sched'],
    ['linux', { XDG_CACHE_HOME: 'relative' }, '/home/u/.cache/sched'],
    ['freebsd', {}, '/home/u/.cache/sched'],
    ['darwin', { XDG_CACHE_HOME: '/xdg' }, '/home/u/Library/Caches/sched'],
  ] as const)('%s %j -> %s', (platform, env, dir) => {
    expect(schedCacheDir(env, platform, '/home/u')).toBe(dir);
  });
  it('Windows: %LOCALAPPDATA%\\sched\\Cache, else under the profile', () => {
    expect(schedCacheDir({ LOCALAPPDATA: 'C:\\L' }, 'win32', 'C:\\Users\\u')).toBe(
      'C:\\L\\sched\\Cache',
    );
    expect(schedCacheDir({}, 'win32', 'C:\\Users\\u')).toBe(
      'C:\\Users\\u\\AppData\\Local\\sched\\Cache',
    );
  });
});

/** `sched types list --help` with this environment: the command must behave as always. */
async function helpWith(env: Record<string, string | undefined>) {
  const r = await spawnSched(['types', 'list', '--help'], {
    env: { NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined, ...env },
  });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  expect(r.stdout).toContain('Usage: sched types list');
  return r;
}

describe('the built binary', () => {
  it(`keeps the cache in the user's cache dir, private (${HAS_CACHE ? 'Node 22+' : 'Node 20: none'})`, async () => {
    const home = path.join(tmp, 'home');
    fs.mkdirSync(home);
    await helpWith({ HOME: home, XDG_CACHE_HOME: undefined });
    const dir = path.join(home, '.cache', 'sched', 'node-compile-cache');
    if (!HAS_CACHE) {
      expect(fs.existsSync(path.join(home, '.cache'))).toBe(false);
      return;
    }
    for (const d of [path.dirname(dir), dir]) {
      expect((fs.statSync(d).mode & 0o777).toString(8)).toBe('700');
    }
    // Node writes one directory per Node version inside.
    expect(fs.readdirSync(dir).some((n) => n.startsWith(`v${process.versions.node}`))).toBe(true);
  });

  it('XDG_CACHE_HOME is honoured; NODE_DISABLE_COMPILE_CACHE turns the cache off', async () => {
    const xdg = path.join(tmp, 'xdg');
    await helpWith({ XDG_CACHE_HOME: xdg });
    expect(fs.existsSync(path.join(xdg, 'sched', 'node-compile-cache'))).toBe(HAS_CACHE);
    const off = path.join(tmp, 'off');
    await helpWith({ XDG_CACHE_HOME: off, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(fs.existsSync(off)).toBe(false);
  });

  it('a cache dir that cannot be made (under a file, a missing home) costs nothing', async () => {
    const file = path.join(tmp, 'a-file');
    fs.writeFileSync(file, '');
    await helpWith({ XDG_CACHE_HOME: file });
    await helpWith({ XDG_CACHE_HOME: path.join(file, 'below') });
    const missing = path.join(tmp, 'no', 'such', 'home', 'at', 'all');
    await helpWith({ HOME: missing, XDG_CACHE_HOME: undefined });
    // At most three missing parents are made: not a whole invented tree.
    expect(fs.existsSync(path.join(tmp, 'no'))).toBe(false);
  });

  it.runIf(process.platform === 'linux')(
    'a read-only file system (/proc) costs nothing',
    async () => {
      // fs.mkdirSync's `recursive` spins forever here; the command must still just run.
      await helpWith({ XDG_CACHE_HOME: '/proc/sched-compile-cache-test' });
    },
  );

  it.runIf(typeof process.getuid === 'function' && process.getuid() !== 0)(
    'an unwritable home costs nothing',
    async () => {
      const home = path.join(tmp, 'ro-home');
      fs.mkdirSync(home, { mode: 0o500 });
      await helpWith({ HOME: home, XDG_CACHE_HOME: undefined });
      expect(fs.readdirSync(home)).toEqual([]);
    },
  );
});
