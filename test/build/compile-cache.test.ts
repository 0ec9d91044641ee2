// The compile cache: per user, in sched's platform cache directory, private, and never the
// reason a command fails. Spawned: the cache is enabled by the built entry (dist/main.js).
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { enableCompileCache } from '../../src/compile-cache.js';
import { spawnSched } from '../helpers/run.js';
import { runsElsewhere } from '../helpers/skip.js';

const HAS_CACHE = Number(process.versions.node.split('.')[0]) >= 22;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sched-compile-cache-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/**
 * enableCompileCache in-process, with a Node module that has the cache (whatever Node runs the
 * tests): which directory it hands to Node, what it makes on disk, and that it never throws.
 */
describe('enableCompileCache', () => {
  function enable(
    env: Record<string, string | undefined>,
    node: 'cache' | 'none' | 'throws' = 'cache',
  ) {
    const dirs: Array<string | undefined> = [];
    const nodeModule =
      node === 'none'
        ? {}
        : {
            enableCompileCache: (dir?: string) => {
              if (node === 'throws') throw new Error('cache refused');
              dirs.push(dir);
            },
          };
    expect(() => enableCompileCache(env, nodeModule)).not.toThrow();
    return dirs;
  }
  const base = { XDG_CACHE_HOME: undefined, USERPROFILE: undefined };

  it('makes <home>/.cache/sched/node-compile-cache private (0700) and hands it to Node', () => {
    const home = fs.mkdtempSync(path.join(tmp, 'home-'));
    const dir = path.join(home, '.cache', 'sched', 'node-compile-cache');
    expect(enable({ ...base, HOME: home })).toEqual([dir]);
    for (const d of [path.join(home, '.cache'), path.dirname(dir), dir]) {
      expect((fs.statSync(d).mode & 0o777).toString(8)).toBe('700');
    }
    // The second run finds it made (EEXIST) and uses it as it is.
    expect(enable({ ...base, HOME: home })).toEqual([dir]);
  });

  it('USERPROFILE serves when HOME is unset; with neither, the OS home', () => {
    const profile = fs.mkdtempSync(path.join(tmp, 'profile-'));
    expect(enable({ ...base, HOME: undefined, USERPROFILE: profile })).toEqual([
      path.join(profile, '.cache', 'sched', 'node-compile-cache'),
    ]);
    const xdg = fs.mkdtempSync(path.join(tmp, 'xdg-os-home-'));
    // XDG_CACHE_HOME decides the directory; the OS home is only asked for (and exists).
    expect(enable({ HOME: '', USERPROFILE: '', XDG_CACHE_HOME: xdg })).toEqual([
      path.join(xdg, 'sched', 'node-compile-cache'),
    ]);
  });

  it.each([
    ['NODE_COMPILE_CACHE chose a directory', { NODE_COMPILE_CACHE: '/elsewhere' }],
    ['NODE_DISABLE_COMPILE_CACHE is set', { NODE_DISABLE_COMPILE_CACHE: '1' }],
  ])('leaves Node alone when %s', (_why, env) => {
    const xdg = path.join(tmp, `untouched-${Object.keys(env)[0]}`);
    expect(enable({ ...env, XDG_CACHE_HOME: xdg })).toEqual([]);
    expect(fs.existsSync(xdg)).toBe(false);
  });

  it('does nothing on a Node without the cache', () => {
    const xdg = path.join(tmp, 'no-cache-node');
    expect(enable({ XDG_CACHE_HOME: xdg }, 'none')).toEqual([]);
    expect(fs.existsSync(xdg)).toBe(false);
  });

  // Issue 20: compiled code from a directory someone else can write would run as this user.
  it.skipIf(runsElsewhere(process.platform === 'win32' && 'Windows: no POSIX file modes'))(
    'a cache directory writable by others is not used (as the config directory)',
    () => {
      const xdg = fs.mkdtempSync(path.join(tmp, 'shared-'));
      const dir = path.join(xdg, 'sched', 'node-compile-cache');
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.chmodSync(dir, 0o777);
      expect(enable({ XDG_CACHE_HOME: xdg })).toEqual([]);
      fs.chmodSync(dir, 0o1777); // sticky does not help: others can still plant entries
      expect(enable({ XDG_CACHE_HOME: xdg })).toEqual([]);
      fs.chmodSync(dir, 0o700);
      expect(enable({ XDG_CACHE_HOME: xdg })).toEqual([dir]);
    },
  );

  // ssh's rule, as for the config: group-writable is as open as the group.
  it.skipIf(
    runsElsewhere(
      process.getuid?.() !== 0 && 'not root: chown to another user needs root (CI runs as root)',
    ),
  )(
    'a cache directory writable by a shared group, or under a parent others can write, is not used',
    () => {
      const xdg = fs.mkdtempSync(path.join(tmp, 'group-'));
      const dir = path.join(xdg, 'sched', 'node-compile-cache');
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      expect(enable({ XDG_CACHE_HOME: xdg })).toEqual([dir]);
      fs.chmodSync(dir, 0o770);
      fs.chownSync(dir, 0, 1); // daemon: a shared group, nobody's private one
      expect(enable({ XDG_CACHE_HOME: xdg })).toEqual([]);
      fs.chmodSync(dir, 0o700);
      expect(enable({ XDG_CACHE_HOME: xdg })).toEqual([dir]);
      // The parent: whoever can write there can rename the cache away and plant another.
      fs.chmodSync(path.dirname(dir), 0o777);
      expect(enable({ XDG_CACHE_HOME: xdg })).toEqual([]);
      fs.chmodSync(path.dirname(dir), 0o775);
      fs.chownSync(path.dirname(dir), 0, 1);
      expect(enable({ XDG_CACHE_HOME: xdg })).toEqual([]);
      fs.chmodSync(path.dirname(dir), 0o1777); // sticky, like /tmp: no one can rename it
      expect(enable({ XDG_CACHE_HOME: xdg })).toEqual([dir]);
      fs.chmodSync(path.dirname(dir), 0o700);
      fs.chownSync(path.dirname(dir), 65534, 65534); // a parent of another user
      expect(enable({ XDG_CACHE_HOME: xdg })).toEqual([]);
    },
  );

  it.skipIf(
    runsElsewhere(
      process.getuid?.() !== 0 && 'not root: chown to another user needs root (CI runs as root)',
    ),
  )('a cache directory owned by another user is not used', () => {
    const xdg = fs.mkdtempSync(path.join(tmp, 'owned-'));
    const dir = path.join(xdg, 'sched', 'node-compile-cache');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chownSync(dir, 65534, 65534);
    expect(enable({ XDG_CACHE_HOME: xdg })).toEqual([]);
    // Through a symbolic link: judged by what it points to.
    const other = fs.mkdtempSync(path.join(tmp, 'link-'));
    fs.mkdirSync(path.join(other, 'sched'));
    fs.symlinkSync(dir, path.join(other, 'sched', 'node-compile-cache'));
    expect(enable({ XDG_CACHE_HOME: other })).toEqual([]);
  });

  it('a directory it cannot make, or a Node that refuses it, costs nothing', () => {
    const file = path.join(tmp, 'in-process-file');
    fs.writeFileSync(file, '');
    // Under a file: ENOTDIR, not a missing parent; given up at once.
    expect(enable({ XDG_CACHE_HOME: path.join(file, 'below') })).toEqual([]);
    // More than three missing parents: not a whole invented tree.
    const deep = path.join(tmp, 'in-process-deep', 'a', 'b', 'c');
    expect(enable({ XDG_CACHE_HOME: deep })).toEqual([]);
    expect(fs.existsSync(path.join(tmp, 'in-process-deep'))).toBe(false);
    // A read-only file system (/proc): ENOENT under a parent that exists.
    if (process.platform !== 'win32') {
      expect(enable({ XDG_CACHE_HOME: '/proc/sched-in-process' })).toEqual([]);
    }
    const xdg = fs.mkdtempSync(path.join(tmp, 'refused-'));
    expect(enable({ XDG_CACHE_HOME: xdg }, 'throws')).toEqual([]);
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

  it.skipIf(runsElsewhere(process.platform !== 'linux' && 'not Linux: no /proc'))(
    'a read-only file system (/proc) costs nothing',
    async () => {
      // fs.mkdirSync's `recursive` spins forever here; the command must still just run.
      await helpWith({ XDG_CACHE_HOME: '/proc/sched-compile-cache-test' });
    },
  );

  it.skipIf(
    runsElsewhere(
      process.getuid?.() === 0 &&
        'root: a 0500 home stays writable for root (its twin runs as any other user)',
    ),
  )('an unwritable home costs nothing', async () => {
    const home = path.join(tmp, 'ro-home');
    fs.mkdirSync(home, { mode: 0o500 });
    await helpWith({ HOME: home, XDG_CACHE_HOME: undefined });
    expect(fs.readdirSync(home)).toEqual([]);
  });
});
