// Issue 16, point 8: a config file or directory that another user owns, or that others may
// write, can hold a planted profile whose base URL would receive the key from SCHED_API_KEY.
// It is refused (exit 2, naming the path and the fix) before any request; a config.json that
// is a symlink is never followed for writing. Through the built binary.
// The suite may run as root: "another user" is simulated with chown to uid 65534 (nobody).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSched } from '../helpers/run.js';
import { envelope, f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runsElsewhere } from '../helpers/skip.js';

const POSIX = process.platform !== 'win32';
const IS_ROOT = POSIX && process.getuid?.() === 0;
const OTHER_UID = 65534;
const KEY = 'trust-test-key-0123456789';
const MT_PATH = '/api/users/me/meeting-types';

let srv: FaultServer;
let root: string;
let dir: string;
let file: string;

beforeEach(async () => {
  srv = await startFaultServer();
  srv.on('GET', MT_PATH, f.json(200, envelope([], { path: MT_PATH })));
  root = await mkdtemp(path.join(tmpdir(), 'sched-sec-trust-'));
  dir = path.join(root, 'sched');
  fs.mkdirSync(dir, { mode: 0o700 });
  file = path.join(dir, 'config.json');
});
afterEach(async () => {
  await srv.close();
  await rm(root, { recursive: true, force: true });
});

/** A planted profile: its base URL is the attacker's server. */
function plant(target: string, mode = 0o600): void {
  fs.writeFileSync(
    target,
    JSON.stringify({ profiles: { default: { baseUrl: srv.baseUrl } } }, null, 2),
    { mode },
  );
  fs.chmodSync(target, mode);
}

/** The key comes from the environment; the base URL from the (planted) profile. */
const run = (argv: string[] = ['types', 'list'], input?: string) =>
  spawnSched(argv, {
    env: { SCHED_CONFIG_DIR: dir, SCHED_API_KEY: KEY, SCHED_BASE_URL: undefined },
    input,
  });

function expectRefused(
  r: { code: number; stdout: string; stderr: string },
  what: RegExp,
  code = 2,
): void {
  expect(r.code, r.stderr).toBe(code);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(what);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  // Nothing was sent anywhere, least of all the key.
  expect(srv.requests).toHaveLength(0);
}

describe.skipIf(
  runsElsewhere(!IS_ROOT && 'not root: chown to another user needs root (CI runs as root)'),
)('8. config trust (as root, another user simulated by chown)', () => {
  it('a config.json owned by another user is refused before any request', async () => {
    plant(file);
    fs.chownSync(file, OTHER_UID, OTHER_UID);
    const r = await run();
    expectRefused(r, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(r.stderr).toMatch(/belongs to another user/);
    expect(r.stderr).toMatch(/hint: /);
  });

  it('a config directory owned by another user is refused before any request', async () => {
    plant(file);
    fs.chownSync(dir, OTHER_UID, OTHER_UID);
    const r = await run();
    expectRefused(r, new RegExp(dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 1);
  });
});

describe.skipIf(runsElsewhere(!POSIX && 'Windows: no POSIX file modes'))(
  '8. config trust: writable by others, symlinks',
  () => {
    it('a config.json writable by others is refused before any request', async () => {
      plant(file, 0o602);
      const r = await run();
      expectRefused(r, /writable by others/);
      expect(r.stderr).toContain(file);
    });

    it('a config directory writable by others (not sticky) is refused before any request', async () => {
      plant(file);
      fs.chmodSync(dir, 0o777);
      const r = await run();
      expectRefused(r, /writable by others/);
      expect(r.stderr).toContain(dir);
    });

    it('a config directory reached through a symlink is judged by where it points', async () => {
      plant(file);
      const link = path.join(root, 'linked');
      fs.symlinkSync(dir, link);
      // Private where it points: used.
      const ok = await spawnSched(['types', 'list'], {
        env: { SCHED_CONFIG_DIR: link, SCHED_API_KEY: KEY, SCHED_BASE_URL: undefined },
      });
      expect(ok.code, ok.stderr).toBe(0);
      expect(srv.requests).toHaveLength(1);
      srv.clear();
      srv.on('GET', MT_PATH, f.json(200, envelope([], { path: MT_PATH })));
      // Writable by others where it points: refused, though the link itself is 0777.
      fs.chmodSync(dir, 0o777);
      const r = await spawnSched(['types', 'list'], {
        env: { SCHED_CONFIG_DIR: link, SCHED_API_KEY: KEY, SCHED_BASE_URL: undefined },
      });
      expectRefused(r, /writable by others/);
    });

    it('a config.json that is a symlink is not followed for writing', async () => {
      const elsewhere = path.join(root, 'elsewhere.json');
      fs.writeFileSync(elsewhere, '{"untouched":true}\n', { mode: 0o600 });
      fs.symlinkSync(elsewhere, file);
      const r = await spawnSched(['auth', 'login', '--with-key'], {
        env: { SCHED_CONFIG_DIR: dir, SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: undefined },
        input: KEY,
      });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/symlink|symbolic link/);
      expect(r.stderr).toContain(file);
      expect(fs.readFileSync(elsewhere, 'utf8')).toBe('{"untouched":true}\n');
    });
  },
);
