// A config directory or file someone else can write is refused (exit 2, naming the path, the
// reason and the fix; a directory of another user exit 1: see test/config/foreign-dir.test.ts) before any request, so a planted profile never receives the key; what
// is only the user's own, or does not exist yet, is used. In-process (the same rules are run
// through the built binary in test/security/config-trust.test.ts). As root, "another user" is
// simulated with chown to uid 65534.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSched, type RunResult } from '../helpers/run.js';
import { isPrivateGroup } from '../../src/platform-dirs.js';
import { envelope, f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runsElsewhere } from '../helpers/skip.js';

const POSIX = process.platform !== 'win32';
const IS_ROOT = POSIX && process.getuid?.() === 0;
const OTHER_UID = 65534;
/** A group shared by system users (daemon on Debian): never anyone's private group. */
const SHARED_GID = 1;
const KEY = 'trust-refusal-key-0123456789';
const MT_PATH = '/api/users/me/meeting-types';

let srv: FaultServer;
let root: string;
let dir: string;
let file: string;

beforeEach(async () => {
  srv = await startFaultServer();
  srv.on('GET', MT_PATH, f.json(200, envelope([], { path: MT_PATH })));
  root = await mkdtemp(path.join(tmpdir(), 'sched-trust-'));
  dir = path.join(root, 'sched');
  fs.mkdirSync(dir, { mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  file = path.join(dir, 'config.json');
});
afterEach(async () => {
  await srv.close();
  await rm(root, { recursive: true, force: true });
});

/** A profile whose base URL is the test server, with the given mode. */
function plant(mode = 0o600): void {
  fs.writeFileSync(
    file,
    JSON.stringify({ profiles: { default: { baseUrl: srv.baseUrl } } }, null, 2),
    { mode },
  );
  fs.chmodSync(file, mode);
}

/** `types list`: the key from the environment, the base URL from the profile in `configDir`. */
const list = (configDir = dir) =>
  runSched(['types', 'list', '-o', 'json'], {
    env: { SCHED_CONFIG_DIR: configDir, SCHED_API_KEY: KEY },
  });

function expectRefused(r: RunResult, message: string, hint: RegExp, code = 2): void {
  expect(r.code, r.stderr).toBe(code);
  expect(r.stdout).toBe('');
  expect(r.stderr).toContain(message);
  expect(r.stderr).toMatch(hint);
  expect(r.stderr).not.toContain(KEY);
  expect(srv.requests).toHaveLength(0);
}

function expectUsed(r: RunResult): void {
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toEqual([]);
  expect(srv.requests).toHaveLength(1);
}

describe.skipIf(
  runsElsewhere(!IS_ROOT && 'not root: chown to another user needs root (CI runs as root)'),
)('config owned by another user (as root, by chown)', () => {
  it('a config file of another user is refused, with its owner and how to get rid of it', async () => {
    plant();
    fs.chownSync(file, OTHER_UID, OTHER_UID);
    expectRefused(
      await list(),
      `the config file ${file} belongs to another user (uid ${OTHER_UID}); sched will not send your key to a profile someone else wrote`,
      new RegExp(`hint: if you did not create it, delete it \\(rm ${esc(file)}\\)`),
    );
  });

  it('a config directory of another user is refused (exit 1), with a fix a non-root user can make', async () => {
    plant();
    fs.chownSync(dir, OTHER_UID, OTHER_UID);
    const r = await list();
    expectRefused(
      r,
      `the config directory ${dir} belongs to another user (uid ${OTHER_UID}); sched will not use a profile someone else can change`,
      /hint: use a directory of your own: export SCHED_CONFIG_DIR="\$HOME\/\.sched"; with SCHED_API_KEY and SCHED_BASE_URL set, no profile is needed/,
      1,
    );
    expect(r.stderr).not.toMatch(/chown|sudo/);
  });

  // Read from the descriptor that was checked: a config.json that is a FIFO (nobody writes)
  // is opened without blocking and refused as not a regular file, instead of hanging.
  it('a config.json that is a FIFO: refused at once, nothing sent', async () => {
    execFileSync('mkfifo', [file]);
    const r = await list();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`cannot read the config file ${file}`);
    expect(srv.requests).toHaveLength(0);
  });

  it('a symlinked config directory is judged by the owner of where it points', async () => {
    plant();
    fs.chownSync(dir, OTHER_UID, OTHER_UID);
    const link = path.join(root, 'linked');
    fs.symlinkSync(dir, link);
    // The link itself is root's; what it points to is not.
    expectRefused(
      await list(link),
      `the config directory ${link} belongs to another user`,
      /SCHED_CONFIG_DIR/,
      1,
    );
  });
});

describe.skipIf(runsElsewhere(!POSIX && 'Windows: no POSIX file modes'))(
  'config writable by others',
  () => {
    it('a config file writable by others is refused, with its mode and the chmod', async () => {
      plant(0o602);
      expectRefused(
        await list(),
        `the config file ${file} is writable by others (mode 0602); anyone could have changed its profiles`,
        new RegExp(
          `hint: check the base URLs in it \\(grep baseUrl ${esc(file)}\\), then chmod 600 ${esc(file)}`,
        ),
      );
    });

    it('a config directory writable by others is refused, with its mode and the chmod', async () => {
      plant();
      fs.chmodSync(dir, 0o777);
      expectRefused(
        await list(),
        `the config directory ${dir} is writable by others (mode 0777); anyone could replace its config.json`,
        new RegExp(`hint: check the base URLs in it .*, then chmod 700 ${esc(dir)}`),
      );
    });

    it('a directory writable by others but sticky (like /tmp) is used: no one can replace the file', async () => {
      plant();
      fs.chmodSync(dir, 0o1777);
      expectUsed(await list());
    });
    it.skipIf(
      runsElsewhere(!isPrivateGroup(process.getgid?.() ?? -1) && 'this user has no private group'),
    )(
      "a config file and directory writable by the user's own private group are used (and tightened)",
      async () => {
        plant(0o660);
        fs.chmodSync(dir, 0o770);
        expectUsed(await list());
        expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      },
    );

    // ssh's rule: a group-writable file is as open as its group. Root can give it any group.
    it.skipIf(runsElsewhere(!IS_ROOT && 'not root: only root can give a file another group'))(
      'a config file writable by a shared group is refused before any request; the hint works',
      async () => {
        plant(0o660);
        fs.chownSync(file, 0, SHARED_GID);
        expectRefused(
          await list(),
          `the config file ${file} is writable by its group (gid ${SHARED_GID}), which is not your own private group (mode 0660); its members could have changed its profiles`,
          new RegExp(`hint: check the base URLs in it .*, then chmod 600 ${esc(file)}`),
        );
        // Untouched: it is not silently "fixed" and trusted.
        expect(fs.statSync(file).mode & 0o777).toBe(0o660);
        // Following the hint is enough.
        fs.chmodSync(file, 0o600);
        expectUsed(await list());
      },
    );

    it.skipIf(runsElsewhere(!IS_ROOT && 'not root: only root can give a file another group'))(
      'a config directory writable by a shared group is refused',
      async () => {
        plant();
        fs.chmodSync(dir, 0o770);
        fs.chownSync(dir, 0, SHARED_GID);
        expectRefused(
          await list(),
          `the config directory ${dir} is writable by its group (gid ${SHARED_GID}), which is not your own private group (mode 0770)`,
          new RegExp(`chmod 700 ${esc(dir)}`),
        );
      },
    );

    it('a config file and directory writable by their group only are used (and tightened)', async () => {
      plant(0o660);
      fs.chmodSync(dir, 0o770);
      expectUsed(await list());
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    });

    it('a symlinked config directory is judged by where it points, not by the link', async () => {
      plant();
      const link = path.join(root, 'linked');
      fs.symlinkSync(dir, link);
      expectUsed(await list(link));
      srv.requests.length = 0;
      fs.chmodSync(dir, 0o777);
      expectRefused(
        await list(link),
        `the config directory ${link} is writable by others`,
        /chmod/,
      );
    });

    it('a config directory that does not exist yet is created private and used', async () => {
      const fresh = path.join(root, 'new', 'sched');
      const r = await runSched(['types', 'list', '-o', 'json'], {
        env: { SCHED_CONFIG_DIR: fresh, SCHED_API_KEY: KEY, SCHED_BASE_URL: srv.baseUrl },
      });
      expectUsed(r);
    });
  },
);

// Issue 38, finding 10: a config.json that is no regular file is refused before anything is
// changed: it used to be chmod-ed to 0600 first (a directory lost its x bit).
describe.skipIf(runsElsewhere(!POSIX && 'Windows: no POSIX file modes'))(
  'a config.json that is not a regular file',
  () => {
    it.each([
      ['a directory', 0o755, () => fs.mkdirSync(file)],
      ['a FIFO', 0o644, () => execFileSync('mkfifo', [file])],
    ])('%s: refused (exit 1), its mode unchanged, nothing sent', async (_what, mode, make) => {
      make();
      fs.chmodSync(file, mode);
      const r = await list();
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(
        `error: cannot read the config file ${file}: ENOTREG: it is not a regular file`,
      );
      expect(r.stderr).not.toMatch(/changed it to 0600/);
      expect(fs.statSync(file).mode & 0o7777).toBe(mode);
      expect(srv.requests).toHaveLength(0);
    });
  },
);

describe.skipIf(runsElsewhere(!POSIX && 'Windows: no POSIX file modes'))(
  'a config file that is a symbolic link',
  () => {
    it('(a regular config file is written as usual)', async () => {
      plant();
      const r = await runSched(['auth', 'login', '--with-key'], {
        env: { SCHED_CONFIG_DIR: dir, SCHED_BASE_URL: srv.baseUrl },
        stdin: KEY,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(fs.lstatSync(file).isSymbolicLink()).toBe(false);
      expect(fs.readFileSync(file, 'utf8')).toContain(KEY);
    });

    it('is not written through: login says where it points, and the target is untouched', async () => {
      const elsewhere = path.join(root, 'elsewhere.json');
      fs.writeFileSync(elsewhere, '{"untouched":true}\n', { mode: 0o600 });
      fs.symlinkSync(elsewhere, file);
      const r = await runSched(['auth', 'login', '--with-key'], {
        env: { SCHED_CONFIG_DIR: dir, SCHED_BASE_URL: srv.baseUrl },
        stdin: KEY,
      });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        `the config file ${file} is a symbolic link (to ${elsewhere}); sched does not write through links`,
      );
      expect(r.stderr).toContain('hint: replace the link with a regular file');
      expect(fs.readFileSync(elsewhere, 'utf8')).toBe('{"untouched":true}\n');
    });
  },
);

function esc(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
