// `sched auth login --key-command` and a profile whose key a command prints: what is stored
// (the command, never the key), what reaches the server (the key), what never reaches stdout,
// stderr or the config file (the key), when the command runs (at most once per process, never
// under TAB, not when SCHED_API_KEY is set), and how each source is said.
// The real Secret Service (secret-tool) is test/e2e/secret-service.test.ts.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSched, spawnSched } from '../../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { f, startFaultServer, type FaultServer } from '../../helpers/fault-server.js';

/** The sandbox's "Intro call" meeting type. */
const INTRO = '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c';

let sb: TestSandbox;
let srv: FaultServer;
let dir: string;

beforeAll(async () => {
  sb = await startTestSandbox();
  srv = await startFaultServer();
});
afterAll(async () => {
  await sb.close();
  await srv.close();
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sched-keycmd-auth-'));
  srv.clear();
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const configFile = () => path.join(dir, 'config.json');
const env = (extra: Record<string, string | undefined> = {}) => ({
  SCHED_CONFIG_DIR: dir,
  PATH: process.env.PATH,
  ...extra,
});
const runs = () => {
  try {
    return fs.readFileSync(path.join(dir, 'runs'), 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};

/**
 * A key command (`sh <script>`; sh is the program, no shell reads the line) that prints `key`,
 * counts its runs in <dir>/runs and keeps what it read on stdin in <dir>/stdin.
 */
function keyCommand(key: string): string {
  const file = path.join(dir, 'get-key.sh');
  fs.writeFileSync(
    file,
    `echo run >> '${dir}/runs'\ncat > '${dir}/stdin'\nprintf '%s\\n' '${key}'\n`,
  );
  return `sh '${file}'`;
}

/** A profile stored by hand: its key printed by keyCommand(key). */
function storeProfile(name: string, baseUrl: string, key: string): string {
  const cmd = keyCommand(key);
  fs.writeFileSync(
    configFile(),
    JSON.stringify({ profiles: { [name]: { baseUrl, keyCommand: cmd } } }),
    { mode: 0o600 },
  );
  return cmd;
}

describe('sched auth login --key-command', () => {
  it('checks the key it prints, stores only the command (0600), never the key', async () => {
    const cmd = keyCommand(sb.apiKey);
    const before = sb.requests.length;
    const r = await runSched(
      ['auth', 'login', '--key-command', cmd, '--base-url', sb.baseUrl, '--profile', 'vault'],
      { env: env() },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`Logged in to ${sb.baseUrl} as profile "vault" (key ****_key from`);
    expect(r.stderr).toContain('the key itself is not stored');
    // The key was checked against the API: it reached the server.
    const sent = sb.requests.slice(before).map((q) => q.headers['x-api-key']);
    expect(sent).toEqual([sb.apiKey]);
    const text = fs.readFileSync(configFile(), 'utf8');
    expect(JSON.parse(text)).toEqual({
      profiles: { vault: { baseUrl: sb.baseUrl, keyCommand: cmd } },
    });
    expect(text).not.toContain(sb.apiKey);
    expect(r.stderr).not.toContain(sb.apiKey);
    expect(fs.statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(runs()).toBe(1);
  });

  it('replaces a stored key (and a stored key command is replaced, never run)', async () => {
    fs.writeFileSync(
      configFile(),
      JSON.stringify({ profiles: { default: { baseUrl: sb.baseUrl, keyCommand: 'false' } } }),
      { mode: 0o600 },
    );
    const cmd = keyCommand(sb.apiKey);
    const r = await runSched(['auth', 'login', '--key-command', cmd], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(configFile(), 'utf8')).profiles.default).toEqual({
      baseUrl: sb.baseUrl,
      keyCommand: cmd,
    });
    // And back to a stored key: the command goes.
    const r2 = await runSched(['auth', 'login', '--with-key'], { env: env(), stdin: sb.apiKey });
    expect(r2.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(configFile(), 'utf8')).profiles.default).toEqual({
      baseUrl: sb.baseUrl,
      apiKey: sb.apiKey,
    });
  });

  const refusals: Array<[string, () => string, number, RegExp]> = [
    [
      'a rejected key',
      () => keyCommand('not_the_key'),
      4,
      /the API rejected the key \(401\).*nothing was stored/,
    ],
    [
      'a failing command',
      () => 'sh -c "echo locked >&2; exit 1"',
      4,
      /key command of profile "default" failed \(exit 1\): "locked"/,
    ],
    [
      'a command not found',
      () => 'no-such-secret-tool lookup',
      4,
      /was not found: "no-such-secret-tool"/,
    ],
    [
      'a pipeline',
      () => 'pass show sched | head -1',
      2,
      /^error: invalid --key-command: "\|" at character 17 would be a pipe/,
    ],
    ['an empty command', () => '  ', 2, /invalid --key-command: it holds no command/],
    [
      'a command that holds the key',
      () => `printf %s ${sb.apiKey}`,
      2,
      /holds the key it prints.*nothing was stored/,
    ],
  ];
  it.each(refusals)('%s: exit %s, nothing stored', async (_, cmd, code, message) => {
    const r = await runSched(['auth', 'login', '--key-command', cmd(), '--base-url', sb.baseUrl], {
      env: env(),
    });
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toHaveLength(1);
    if (code === 4 && !/rejected/.test(r.stderr)) expect(r.stderr).toContain('nothing was stored');
    expect(fs.existsSync(configFile())).toBe(false);
    expect(r.stdout + r.stderr).not.toContain(sb.apiKey);
  });

  it('--with-key and --key-command together: a usage error', async () => {
    const r = await runSched(['auth', 'login', '--with-key', '--key-command', 'true'], {
      env: env(),
      stdin: 'k',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/give only one of --with-key and --key-command/);
  });
});

describe('a profile whose key a command prints', () => {
  it('the key reaches the server and never stdout or stderr, --verbose included', async () => {
    storeProfile('default', sb.baseUrl, sb.apiKey);
    const before = sb.requests.length;
    const r = await runSched(['types', 'list', '--json', '--verbose'], { env: env() });
    expect(r.code).toBe(0);
    expect(sb.requests.slice(before).map((q) => q.headers['x-api-key'])).toEqual([sb.apiKey]);
    expect(r.stdout + r.stderr).not.toContain(sb.apiKey);
  });

  it('is masked in what a server echoes, like a stored key', async () => {
    const key = 'sk_live_Q7xP2mWn8Rt4Yb6';
    storeProfile('default', srv.baseUrl, key);
    srv.on('GET', '/api/echo', (req) =>
      f.json(200, { youSent: req.headers['x-api-key'], again: `key=${key};` }),
    );
    const r = await runSched(['api', '/echo'], { env: env() });
    expect(r.code).toBe(0);
    expect(srv.requests[0]!.headers['x-api-key']).toBe(key);
    expect(r.stdout).not.toContain(key);
    expect(r.stdout).not.toContain(key.slice(0, 10));
    expect(JSON.parse(r.stdout)).toEqual({ youSent: '****', again: 'key=****;' });
  });

  it('runs at most once per process, however many times the key is needed', async () => {
    storeProfile('default', sb.baseUrl, sb.apiKey);
    // auth status asks for the credentials three times (where the key comes from, the key,
    // the client); link create resolves a slug and then mints two links.
    const status = await spawnSched(['auth', 'status', '--json'], { env: env() });
    expect(status.code).toBe(0);
    expect(runs()).toBe(1);
    const link = await spawnSched(['link', 'create', 'intro-call', '--count', '2', '--json'], {
      env: env(),
    });
    expect(link.stderr).toBe('');
    expect(link.code).toBe(0);
    expect(runs()).toBe(2);
  });

  it('a failure is not retried in the same process (one run, one error)', async () => {
    fs.writeFileSync(path.join(dir, 'fail.sh'), `echo run >> '${dir}/runs'\nexit 1\n`);
    fs.writeFileSync(
      configFile(),
      JSON.stringify({
        profiles: { default: { baseUrl: sb.baseUrl, keyCommand: `sh '${dir}/fail.sh'` } },
      }),
      { mode: 0o600 },
    );
    const r = await spawnSched(['auth', 'status'], { env: env() });
    expect(r.code).toBe(4);
    expect(runs()).toBe(1);
  });

  it('runs only when the key is needed: not for a sandbox elsewhere, nor with --api-key', async () => {
    storeProfile('default', srv.baseUrl, 'account_key_123');
    const link = (await (
      await sb.api('/single-use-link', {
        method: 'POST',
        body: JSON.stringify({ meeting_type_uuid: INTRO }),
      })
    ).json()) as { url: string };
    // The link's sandbox is not the configured origin: it gets the sandbox key.
    const r = await runSched(['sandbox', 'book', link.url, '-q'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(sb.requests.at(-1)!.headers['x-api-key']).toBe(sb.apiKey);
    expect(runs()).toBe(0);
    // On the configured origin the account's key is the one sent: the command runs.
    const mine = await runSched(['sandbox', 'meetings', '--json'], { env: env() });
    expect(mine.code).toBe(5); // srv is no sandbox: 404
    expect(srv.requests.at(-1)!.headers['x-api-key']).toBe('account_key_123');
    expect(runs()).toBe(1);
    // --api-key given: that key, and the command is not run.
    const given = await runSched(['sandbox', 'meetings', '--api-key', 'given_key_1'], {
      env: env(),
    });
    expect(given.code).toBe(5);
    expect(srv.requests.at(-1)!.headers['x-api-key']).toBe('given_key_1');
    expect(runs()).toBe(1);
    // ...also with --base-url, whose override notes need no key.
    const flagged = await runSched(
      ['sandbox', 'meetings', '--api-key', 'given_key_2', '--base-url', srv.baseUrl],
      { env: env() },
    );
    expect(flagged.code).toBe(5);
    expect(srv.requests.at(-1)!.headers['x-api-key']).toBe('given_key_2');
    expect(runs()).toBe(1);
  });

  it('never gets stdin: api --input - sends the body it was piped', async () => {
    storeProfile('default', srv.baseUrl, 'k_stdin_test_123');
    srv.on('POST', '/api/things', f.json(200, { ok: true }));
    // Spawned: the process's own stdin is what a child could inherit.
    const r = await spawnSched(['api', '/things', '--input', '-'], {
      env: env(),
      input: '{"name":"from stdin"}',
    });
    expect(r.code).toBe(0);
    expect(srv.requests[0]!.body).toBe('{"name":"from stdin"}');
    expect(srv.requests[0]!.headers['x-api-key']).toBe('k_stdin_test_123');
    expect(fs.readFileSync(path.join(dir, 'stdin'), 'utf8')).toBe('');
    // A command that reads no stdin itself: the key command still gets none of it.
    const list = await spawnSched(['types', 'list', '--json'], {
      env: env({ SCHED_BASE_URL: sb.baseUrl }),
      input: 'what the pipe holds',
    });
    expect(list.code).toBe(4); // the key is for srv, not the sandbox
    expect(fs.readFileSync(path.join(dir, 'stdin'), 'utf8')).toBe('');
  });

  it('SCHED_API_KEY wins: the command is not run, and the override is said', async () => {
    storeProfile('default', sb.baseUrl, 'unused');
    const r = await runSched(['auth', 'status', '--json'], {
      env: env({ SCHED_API_KEY: sb.apiKey }),
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ keySource: 'env', valid: true });
    expect(r.stderr).toContain(
      'note: SCHED_API_KEY is set in the environment and overrides the key command stored in profile "default"',
    );
    expect(runs()).toBe(0);
  });

  it('auth status says the key comes from the command, the key masked', async () => {
    const cmd = storeProfile('default', sb.baseUrl, sb.apiKey);
    const json = await runSched(['auth', 'status', '--json'], { env: env() });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      profile: 'default',
      baseUrl: sb.baseUrl,
      keySource: 'command',
      key: '****_key',
      valid: true,
      baseUrlSource: 'profile',
    });
    const tty = await runSched(['auth', 'status', '-o', 'json'], { env: env(), tty: true });
    expect(tty.stdout).toContain('"keySource": "command"');
    const table = await runSched(['auth', 'status'], { env: env(), tty: true, columns: 200 });
    expect(table.code).toBe(0);
    // eslint-disable-next-line no-control-regex
    const plain = table.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    expect(plain).toContain(`command \`${cmd}\` (profile "default")`);
    expect(plain + table.stderr).not.toContain(sb.apiKey);
  });

  it('auth status on a terminal names each source: env alone, env over a key command', async () => {
    const alone = await runSched(['auth', 'status'], {
      env: env({ SCHED_API_KEY: sb.apiKey, SCHED_BASE_URL: sb.baseUrl }),
      tty: true,
      columns: 200,
    });
    // eslint-disable-next-line no-control-regex
    expect(alone.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(
      /Key from\s+env SCHED_API_KEY\s*$/m,
    );
    storeProfile('default', sb.baseUrl, 'unused');
    const over = await runSched(['auth', 'status'], {
      env: env({ SCHED_API_KEY: sb.apiKey }),
      tty: true,
      columns: 200,
    });
    expect(over.stdout).toContain(
      'env SCHED_API_KEY (overrides the key command stored in profile "default")',
    );
    expect(runs()).toBe(0);
  });

  it('auth status with a failing command: exit 4, the status says where the key was to come from', async () => {
    fs.writeFileSync(
      configFile(),
      JSON.stringify({
        profiles: { default: { baseUrl: sb.baseUrl, keyCommand: 'sh -c "exit 7"' } },
      }),
      { mode: 0o600 },
    );
    const r = await runSched(['auth', 'status', '--json'], { env: env() });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ keySource: 'command', key: null, valid: false });
    expect(r.stderr).toBe(
      'error: the key command of profile "default" failed (exit 7)\nhint: run `sh -c \'exit 7\'` yourself to see why\n',
    );
  });

  it('Ctrl-C while the key command runs: auth status exits 130, the command ended', async () => {
    fs.writeFileSync(path.join(dir, 'slow.sh'), `echo $$ > '${dir}/slow.pid'\nexec sleep 30\n`);
    fs.writeFileSync(
      configFile(),
      JSON.stringify({
        profiles: { default: { baseUrl: sb.baseUrl, keyCommand: `sh '${dir}/slow.sh'` } },
      }),
      { mode: 0o600 },
    );
    const ac = new AbortController();
    const pending = runSched(['auth', 'status'], { env: env(), signal: ac.signal });
    await expect.poll(() => fs.existsSync(path.join(dir, 'slow.pid'))).toBe(true);
    ac.abort('SIGINT');
    const r = await pending;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/interrupted while the key command ran/);
    const pid = Number(fs.readFileSync(path.join(dir, 'slow.pid'), 'utf8'));
    await expect
      .poll(() => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      })
      .toBe(false);
  });

  it('a rejected key: the hint names the key command', async () => {
    storeProfile('work', sb.baseUrl, 'wrong_key_123');
    const r = await runSched(['types', 'list', '--profile', 'work'], { env: env() });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(
      /hint: the key is printed by the key command of profile "work" \(`sh .*get-key\.sh'`\): store a valid key where it reads it, or run `sched auth login --profile work` again/,
    );
  });

  it('TAB completion never runs it: nothing from the server, no error', async () => {
    storeProfile('default', sb.baseUrl, sb.apiKey);
    const before = sb.requests.length;
    const r = await runSched(['--timeout', '2', '__complete', 'meeting-types'], {
      env: env({ HOME: dir }),
    });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(runs()).toBe(0);
    expect(sb.requests.length).toBe(before);
    // Profile names still complete.
    const names = await runSched(['__complete', 'profiles'], { env: env({ HOME: dir }) });
    expect(names.stdout).toBe(`default\t${sb.baseUrl}\n`);
  });

  it('auth logout removes the command (the base URL stays)', async () => {
    storeProfile('default', sb.baseUrl, sb.apiKey);
    const r = await runSched(['auth', 'logout'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /Removed the key command of profile "default" \(`sh .*`\) from .*; the secret it read is still in its store/,
    );
    expect(JSON.parse(fs.readFileSync(configFile(), 'utf8'))).toEqual({
      profiles: { default: { baseUrl: sb.baseUrl } },
    });
    expect(runs()).toBe(0);
  });
});
