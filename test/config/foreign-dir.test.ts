// A config directory that belongs to another user (made by `sudo sched …`, a shared HOME in a
// container), met by a user who is not root, through the real process. It is never read. A
// command that needs no profile (SCHED_API_KEY with SCHED_BASE_URL or --base-url, the default
// profile) goes on after a note; one that needs the profile is refused with exit 1 (the command
// line is right: 2 would say it is not) and a fix that needs no root.
//
// Run as root (CI), the process is started as uid 65534 with setpriv, and the directory is one
// of root's: a real non-root user facing another user's directory. Run as another user, it
// faces a directory of root's as it is.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SCHED_COMMAND } from '../helpers/run.js';
import { runsElsewhere, unavailable } from '../helpers/skip.js';
import { envelope, f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';

const POSIX = process.platform !== 'win32';
const IS_ROOT = POSIX && process.getuid?.() === 0;
const SETPRIV = '/usr/bin/setpriv';
const CAN_DROP = IS_ROOT && fs.existsSync(SETPRIV);
const KEY = 'foreign-dir-key-0123456789';
const MT_PATH = '/api/users/me/meeting-types';

let srv: FaultServer;
let root: string;
/** A directory owned by root, which the user running sched is not. */
let dir: string;

beforeEach(async () => {
  srv = await startFaultServer();
  srv.on('GET', MT_PATH, f.json(200, envelope([], { path: MT_PATH })));
  root = await mkdtemp(path.join(tmpdir(), 'sched-foreign-'));
  fs.chmodSync(root, 0o755);
  dir = path.join(root, 'sched');
  fs.mkdirSync(dir, { mode: 0o755 });
  fs.chmodSync(dir, 0o755);
  // A planted profile: were it read, the key would go to its base URL.
  fs.writeFileSync(
    path.join(dir, 'config.json'),
    JSON.stringify({ profiles: { default: { baseUrl: 'http://127.0.0.1:9/api' } } }),
    { mode: 0o644 },
  );
});
afterEach(async () => {
  await srv.close();
  await rm(root, { recursive: true, force: true });
});

/**
 * The command, from where the other user can run it: a checkout inside a private directory
 * (a `mktemp -d` clone, mode 0700) cannot be reached by uid 65534, so the package's bin/,
 * dist/ and package.json (the bundle needs nothing else) are copied into the test's own
 * world-readable directory first.
 */
function reachable(command: readonly string[]): readonly string[] {
  const bin = command.find((a) => a.endsWith(path.join('bin', 'sched.js')));
  if (!CAN_DROP || !bin) return command;
  const pkg = path.dirname(path.dirname(bin));
  const copy = path.join(root, 'pkg');
  for (const part of ['bin', 'dist']) {
    fs.cpSync(path.join(pkg, part), path.join(copy, part), { recursive: true });
  }
  fs.copyFileSync(path.join(pkg, 'package.json'), path.join(copy, 'package.json'));
  fs.chmodSync(copy, 0o755);
  return command.map((a) => (a === bin ? path.join(copy, 'bin', 'sched.js') : a));
}

/** sched as a user who is not root (nobody, when the tests run as root). */
async function asOtherUser(argv: string[], env: Record<string, string>) {
  const [cmd, ...pre] = reachable(SCHED_COMMAND);
  const drop = CAN_DROP ? [SETPRIV, '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
  const [file, ...args] = [...drop, cmd!, ...pre, ...argv];
  // Under coverage (NODE_V8_COVERAGE, which Node passes to every child whatever its env), the
  // other user writes its coverage where it may, and the files are moved where they belong.
  const coverage = process.env.NODE_V8_COVERAGE;
  const theirs = coverage ? path.join(root, 'coverage') : undefined;
  if (theirs) fs.mkdirSync(theirs, { mode: 0o777 });
  if (theirs) fs.chmodSync(theirs, 0o777);
  const r = await execa(file!, args, {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: root,
      SCHED_CONFIG_DIR: dir,
      NO_COLOR: '1',
      ...(theirs ? { NODE_V8_COVERAGE: theirs } : {}),
      ...env,
    },
    extendEnv: false,
    reject: false,
    timeout: 20_000,
    stripFinalNewline: false,
  });
  if (theirs && coverage) {
    for (const f of fs.readdirSync(theirs))
      fs.copyFileSync(path.join(theirs, f), path.join(coverage, f));
    fs.rmSync(theirs, { recursive: true, force: true });
  }
  return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

describe.skipIf(
  runsElsewhere(!POSIX && 'config directory ownership is POSIX') ||
    unavailable(IS_ROOT && !CAN_DROP && `${SETPRIV} is missing: as root, no other user to run as`),
)('a config directory of another user', () => {
  it('the process really runs as someone who does not own it', async () => {
    const r = await asOtherUser(['--version'], {});
    expect(r.code, r.stderr).toBe(0);
    const uid = CAN_DROP ? 65534 : process.getuid!();
    expect(fs.statSync(dir).uid).not.toBe(uid);
  });

  it('env-only use (SCHED_API_KEY and SCHED_BASE_URL) goes on, with a note; the profile is not read', async () => {
    const r = await asOtherUser(['types', 'list', '-o', 'json'], {
      SCHED_API_KEY: KEY,
      SCHED_BASE_URL: srv.baseUrl,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(srv.requests).toHaveLength(1);
    expect(r.stderr).toBe(
      `note: the config directory ${dir} belongs to another user (uid ${fs.statSync(dir).uid}); ` +
        'sched will not use a profile someone else can change; none is needed with SCHED_API_KEY and SCHED_BASE_URL\n',
    );
  });

  it('--base-url instead of SCHED_BASE_URL: the same', async () => {
    const r = await asOtherUser(['--base-url', srv.baseUrl, 'types', 'list', '-q'], {
      SCHED_API_KEY: KEY,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/none is needed with SCHED_API_KEY and --base-url\n$/);
  });

  const refusals: Array<[string, string[], Record<string, string>]> = [
    ['the base URL from the profile', ['types', 'list'], { SCHED_API_KEY: KEY }],
    ['the key from the profile', ['types', 'list'], { SCHED_BASE_URL: 'http://127.0.0.1:9/api' }],
    [
      'a named profile',
      ['--profile', 'staging', 'types', 'list'],
      { SCHED_API_KEY: KEY, SCHED_BASE_URL: 'http://127.0.0.1:9/api' },
    ],
    ['profiles ls', ['profiles', 'ls'], {}],
  ];
  for (const [what, argv, env] of refusals) {
    it(`needing the profile (${what}): exit 1, a fix that needs no root, nothing sent`, async () => {
      const r = await asOtherUser(argv, env);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`error: the config directory ${dir} belongs to another user`);
      expect(r.stderr).toContain('hint: use a directory of your own: export SCHED_CONFIG_DIR=');
      expect(r.stderr).not.toMatch(/chown|sudo/);
      expect(r.stderr).not.toContain(KEY);
      expect(srv.requests).toHaveLength(0);
    });
  }

  it('following the hint works', async () => {
    const own = path.join(root, 'own');
    fs.mkdirSync(own, { mode: 0o700 });
    if (CAN_DROP) fs.chownSync(own, 65534, 65534);
    const r = await asOtherUser(['types', 'list', '-q'], {
      SCHED_CONFIG_DIR: own,
      SCHED_API_KEY: KEY,
      SCHED_BASE_URL: srv.baseUrl,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  });
});
