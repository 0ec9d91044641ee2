// Where sched keeps its config and its cache on each platform: one rule for both
// (src/platform-dirs.ts), so the two can never disagree again about, say, a relative XDG path.
import { describe, expect, it } from 'vitest';
import { schedDir } from '../../src/platform-dirs.js';

describe('schedDir', () => {
  it.each([
    ['config', 'linux', {}, '/home/u', '/home/u/.config/sched'],
    ['cache', 'linux', {}, '/home/u', '/home/u/.cache/sched'],
    ['config', 'linux', { XDG_CONFIG_HOME: '/xdg/cfg' }, '/home/u', '/xdg/cfg/sched'],
    ['cache', 'linux', { XDG_CACHE_HOME: '/xdg/cache' }, '/home/u', '/xdg/cache/sched'],
    // A relative XDG path is invalid (the XDG spec): ignored by both.
    ['config', 'linux', { XDG_CONFIG_HOME: 'relative' }, '/home/u', '/home/u/.config/sched'],
    ['cache', 'linux', { XDG_CACHE_HOME: 'relative' }, '/home/u', '/home/u/.cache/sched'],
    // One kind's variable does not move the other.
    ['config', 'freebsd', { XDG_CACHE_HOME: '/xdg/cache' }, '/home/u', '/home/u/.config/sched'],
    [
      'config',
      'darwin',
      { XDG_CONFIG_HOME: '/xdg' },
      '/Users/u',
      '/Users/u/Library/Preferences/sched',
    ],
    ['cache', 'darwin', { XDG_CACHE_HOME: '/xdg' }, '/Users/u', '/Users/u/Library/Caches/sched'],
    ['config', 'win32', { APPDATA: 'C:\\R' }, 'C:\\Users\\u', 'C:\\R\\sched\\Config'],
    ['cache', 'win32', { LOCALAPPDATA: 'C:\\L' }, 'C:\\Users\\u', 'C:\\L\\sched\\Cache'],
    ['config', 'win32', {}, 'C:\\Users\\u', 'C:\\Users\\u\\AppData\\Roaming\\sched\\Config'],
    ['cache', 'win32', {}, 'C:\\Users\\u', 'C:\\Users\\u\\AppData\\Local\\sched\\Cache'],
  ] as const)('%s on %s with %j under %s: %s', (kind, platform, env, home, dir) => {
    expect(schedDir(kind, env, platform, home)).toBe(dir);
  });
});
