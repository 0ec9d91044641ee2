import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSched, spawnSched } from '../../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { f, refusedUrl, startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import type { Choice, Prompter } from '../../../src/prompt.js';
import { SANDBOX_KEY_QUESTION } from '../../../src/commands/auth/login.js';
import { runsElsewhere } from '../../helpers/skip.js';

let sb: TestSandbox;
let srv: FaultServer;
let dir: string;

const configFile = () => path.join(dir, 'config.json');
const readConfig = () =>
  JSON.parse(fs.readFileSync(configFile(), 'utf8')) as {
    profiles: Record<string, Record<string, string>>;
  };
const env = (extra: Record<string, string | undefined> = {}) => ({
  SCHED_CONFIG_DIR: dir,
  ...extra,
});

beforeAll(async () => {
  sb = await startTestSandbox();
  srv = await startFaultServer();
});
afterAll(async () => {
  await sb.close();
  await srv.close();
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sched-auth-'));
  srv.clear();
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A scripted Prompter: answers select with the choice whose name matches, records prompts. */
function fakePrompter(answers: {
  select?: RegExp;
  input?: string;
  password?: string;
  confirm?: boolean;
}) {
  const asked: string[] = [];
  const p: Prompter = {
    async select<T>(message: string, choices: Choice<T>[]) {
      asked.push(`select: ${message} [${choices.map((c) => c.name).join(' | ')}]`);
      const c = choices.find((x) => answers.select!.test(x.name));
      if (!c) throw new Error(`no choice matches ${answers.select}`);
      return c.value;
    },
    async checkbox() {
      throw new Error('unexpected checkbox');
    },
    async input(message, opts) {
      asked.push(`input: ${message}`);
      const v = answers.input!;
      if (opts?.validate && opts.validate(v) !== true)
        throw new Error('input rejected by validate');
      return v;
    },
    async password(message) {
      asked.push(`password: ${message}`);
      return answers.password!;
    },
    async confirm(message) {
      if (answers.confirm === undefined) throw new Error('unexpected confirm');
      asked.push(`confirm: ${message}`);
      return answers.confirm;
    },
  };
  return { prompter: p, asked };
}

describe('sched auth login', () => {
  it('--with-key reads the key from stdin, checks it, stores the profile with --base-url', async () => {
    const r = await runSched(['auth', 'login', '--with-key', '--base-url', sb.baseUrl], {
      env: env(),
      stdin: sb.apiKey + '\n',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`Logged in to ${sb.baseUrl} as profile "default"`);
    expect(r.stderr).not.toContain(sb.apiKey);
    expect(readConfig()).toEqual({
      profiles: { default: { baseUrl: sb.baseUrl, apiKey: sb.apiKey } },
    });
    if (process.platform !== 'win32') {
      expect(fs.statSync(configFile()).mode & 0o777).toBe(0o600);
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    }
    // The check reached the API with the key.
    const check = sb.requests.at(-1)!;
    expect(check.method).toBe('GET');
  });

  it('--json prints {"profile","baseUrl"} on stdout; --profile picks the name', async () => {
    const r = await runSched(
      ['auth', 'login', '--with-key', '--json', '--profile', 'sandbox', '--base-url', sb.baseUrl],
      {
        env: env(),
        stdin: sb.apiKey,
      },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ profile: 'sandbox', baseUrl: sb.baseUrl });
    expect(Object.keys(readConfig().profiles)).toEqual(['sandbox']);
  });

  it('a rejected key: exit 4, nothing stored, the key not shown', async () => {
    const r = await runSched(
      ['auth', 'login', '--with-key', '--base-url', sb.baseUrl, '--verbose'],
      {
        env: env(),
        stdin: 'wrong-key-DISTINCT-0000',
      },
    );
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/the API rejected the key \(40[13]\).*nothing was stored/);
    expect(r.stderr).not.toContain('wrong-key-DISTINCT');
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('a network error: exit 1, nothing stored', async () => {
    const base = await refusedUrl();
    const r = await runSched(['auth', 'login', '--with-key', '--base-url', base], {
      env: env(),
      stdin: 'k-123',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('connection refused');
    expect(r.stderr).toContain('nothing was stored');
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('a base URL that is not the API (404, HTML): nothing stored, a hint about /api', async () => {
    srv.fallback(f.json(404, { message: 'No route' }));
    let r = await runSched(['auth', 'login', '--with-key', '--base-url', srv.url], {
      env: env(),
      stdin: 'k-123',
    });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('usually ends in /api');
    srv.on('GET', '/api/users/me/meeting-types', f.html(200, '<html>welcome</html>'));
    r = await runSched(['auth', 'login', '--with-key', '--base-url', srv.baseUrl], {
      env: env(),
      stdin: 'k-123',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `expected JSON from GET ${srv.baseUrl}/users/me/meeting-types?limit=1, got text/html`,
    );
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('without a terminal and without --with-key: exit 2 naming --with-key, no request', async () => {
    const r = await runSched(['auth', 'login', '--base-url', srv.baseUrl], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--with-key');
    expect(srv.count()).toBe(0);
    const r2 = await runSched(['--no-input', 'auth', 'login'], { env: env(), tty: true });
    expect(r2.code).toBe(2);
  });

  it('--with-key with empty stdin, or with stdin a terminal: exit 2', async () => {
    let r = await runSched(['auth', 'login', '--with-key'], { env: env(), stdin: '\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no API key on stdin');
    r = await runSched(['auth', 'login', '--with-key'], { env: env(), tty: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('stdin');
  });

  it('an invalid profile name: exit 2', async () => {
    const r = await runSched(['auth', 'login', '--with-key', '--profile', '../evil'], {
      env: env(),
      stdin: 'k',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('invalid profile name');
  });

  it('on a terminal: offers the known services, the sandbox and custom; masked key prompt', async () => {
    const { prompter, asked } = fakePrompter({
      select: /^Custom URL/,
      input: sb.baseUrl,
      password: sb.apiKey,
      confirm: false,
    });
    const r = await runSched(['auth', 'login'], { env: env(), tty: true, prompter });
    expect(r.code).toBe(0);
    expect(asked[0]).toContain('https://secure.simplymeet.me/api');
    expect(asked[0]).toContain('https://harmonizely.com/api');
    expect(asked[0]).toContain('http://127.0.0.1:4010/api');
    expect(asked[0]).toContain('Custom URL');
    expect(asked[1]).toMatch(/^input: Base URL/);
    expect(asked[2]).toMatch(/^confirm: Use the sandbox's documented key/);
    expect(asked[3]).toMatch(/^password: API key/);
    expect(readConfig().profiles.default).toEqual({ baseUrl: sb.baseUrl, apiKey: sb.apiKey });
  });

  it('on a terminal: the current base URL is offered first; --base-url skips the question', async () => {
    const one = fakePrompter({ select: /\(current\)/, password: sb.apiKey, confirm: false });
    let r = await runSched(['auth', 'login'], {
      env: env({ SCHED_BASE_URL: sb.baseUrl }),
      tty: true,
      prompter: one.prompter,
    });
    expect(r.code).toBe(0);
    expect(one.asked[0]).toMatch(
      new RegExp(`\\[${sb.baseUrl.replace(/[./]/g, '\\$&')}  \\(current\\)`),
    );
    const two = fakePrompter({ password: sb.apiKey, confirm: false });
    r = await runSched(['auth', 'login', '--base-url', sb.baseUrl], {
      env: env(),
      tty: true,
      prompter: two.prompter,
    });
    expect(r.code).toBe(0);
    expect(two.asked).toEqual([
      `confirm: ${SANDBOX_KEY_QUESTION}`,
      `password: API key for ${sb.baseUrl} (the key \`sched sandbox\` printed)`,
    ]);
  });

  it('a local sandbox: its documented key is offered, not the Integrations page', async () => {
    const yes = fakePrompter({ confirm: true });
    let r = await runSched(['auth', 'login', '--base-url', sb.baseUrl], {
      env: env(),
      tty: true,
      prompter: yes.prompter,
    });
    expect(r.code).toBe(0);
    expect(yes.asked).toEqual([`confirm: ${SANDBOX_KEY_QUESTION}`]);
    expect(readConfig().profiles.default).toEqual({ baseUrl: sb.baseUrl, apiKey: sb.apiKey });
    // A sandbox started with --api-key rejects it: said, then its key is asked for.
    const other = await startTestSandbox({ apiKey: 'sandbox_own_key_1' });
    try {
      const again = fakePrompter({ confirm: true, password: 'sandbox_own_key_1' });
      r = await runSched(['auth', 'login', '--base-url', other.baseUrl], {
        env: env(),
        tty: true,
        prompter: again.prompter,
      });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('rejected its documented key');
      expect(again.asked[1]).toMatch(
        /^password: API key for .* \(the key `sched sandbox` printed\)$/,
      );
      expect(readConfig().profiles.default!.apiKey).toBe('sandbox_own_key_1');
    } finally {
      await other.close();
    }
  });

  it('two logins at once (two processes) leave a valid config holding both profiles', async () => {
    const [a, b] = await Promise.all(
      ['one', 'two'].map((p) =>
        spawnSched(['auth', 'login', '--with-key', '--profile', p, '--base-url', sb.baseUrl], {
          env: env(),
          input: sb.apiKey,
        }),
      ),
    );
    expect([a!.code, b!.code], a!.stderr + b!.stderr).toEqual([0, 0]);
    expect(Object.keys(readConfig().profiles).sort()).toEqual(['one', 'two']);
  });
});

describe('sched auth login, stopped', () => {
  it('Ctrl-C during the check: exit 130, nothing stored', async () => {
    const ac = new AbortController();
    srv.on('GET', '/api/users/me/meeting-types', () => {
      ac.abort('SIGINT');
      return f.hang();
    });
    const r = await runSched(['auth', 'login', '--with-key', '--base-url', srv.baseUrl], {
      env: env(),
      stdin: 'k-1234567890\n',
      signal: ac.signal,
    });
    expect(r.code).toBe(130);
    expect(r.stderr.split('\n')[0]).toMatch(/^error: interrupted/);
    expect(fs.existsSync(configFile())).toBe(false);
  });
});

describe('sched auth status', () => {
  const login = async (profile = 'default', key = sb.apiKey) => {
    const r = await runSched(
      ['auth', 'login', '--with-key', '--profile', profile, '--base-url', sb.baseUrl],
      {
        env: env(),
        stdin: key,
      },
    );
    expect(r.code).toBe(0);
  };

  it('--json: profile, base URL, key source, masked key, valid; exit 0', async () => {
    await login();
    const r = await runSched(['auth', 'status', '--json'], { env: env() });
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(s).toEqual({
      profile: 'default',
      baseUrl: sb.baseUrl,
      keySource: 'profile',
      key: expect.stringMatching(/^\*\*\*\*.{0,4}$/),
      valid: true,
      baseUrlSource: 'profile',
    });
    expect(sb.apiKey.endsWith((s.key as string).slice(4))).toBe(true);
    expect(r.stdout + r.stderr).not.toContain(sb.apiKey);
  });

  it('a terminal table says where the key comes from and that the env overrides the stored one', async () => {
    await login();
    const envKey = 'env-key-ABCDEFGHIJKLMNOP-wxyz';
    srv.on(
      'GET',
      '/api/users/me/meeting-types',
      f.json(200, { page: 1, pages: 1, limit: 1, total: 0, _embedded: { items: [] } }),
    );
    const r = await runSched(['auth', 'status', '--base-url', srv.baseUrl], {
      env: env({ SCHED_API_KEY: envKey }),
      tty: true,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('env SCHED_API_KEY (overrides the key stored in profile "default")');
    expect(r.stdout).toContain('****wxyz');
    expect(r.stdout).not.toContain(envKey);
    expect(r.stderr).toContain(
      `note: SCHED_API_KEY is set in the environment and overrides the key stored in profile "default": its key is sent to ${srv.baseUrl}`,
    );
    expect(srv.requests[0]!.headers['x-api-key']).toBe(envKey);
  });

  it('no key: exit 4, JSON says so', async () => {
    const r = await runSched(['auth', 'status', '--json'], { env: env() });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toEqual({
      profile: 'default',
      baseUrl: 'https://secure.simplymeet.me/api',
      keySource: null,
      key: null,
      valid: false,
      baseUrlSource: 'default',
    });
    expect(r.stderr).toContain('no API key for profile "default"');
    expect(r.stderr).toContain('sched auth login');
  });

  it('a rejected key: exit 4, valid false; short keys show no characters', async () => {
    const r = await runSched(['auth', 'status', '--json', '--base-url', sb.baseUrl], {
      env: env({ SCHED_API_KEY: 'short' }),
    });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ keySource: 'env', key: '****', valid: false });
    expect(r.stdout + r.stderr).not.toContain('short');
  });

  it('a network error: exit 1, valid null', async () => {
    const base = await refusedUrl();
    const r = await runSched(['auth', 'status', '--json', '--base-url', base], {
      env: env({ SCHED_API_KEY: 'k-1234567890123456' }),
    });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: null });
    expect(r.stderr).toContain('connection refused');
  });

  it('every verdict in the row: yes, no, unknown; no key: empty (or "(none)" on a terminal)', async () => {
    const row = async (args: string[], extra: Record<string, string | undefined>, tty = false) => {
      const r = await runSched(['auth', 'status', ...args], { env: env(extra), tty });
      return { code: r.code, cells: r.stdout.trimEnd().split('\n').at(-1)!.split(/\t|,/) };
    };
    const rejected = await row(['--base-url', sb.baseUrl], {
      SCHED_API_KEY: 'wrong-key-ABCDEFGHIJKLMNOP-0000',
    });
    expect(rejected).toEqual({
      code: 4,
      cells: ['default', sb.baseUrl, 'env', '****0000', 'no', 'flag'],
    });
    const unknown = await row(['--base-url', await refusedUrl()], { SCHED_API_KEY: 'k-12345678' });
    expect(unknown.code).toBe(1);
    expect(unknown.cells[4]).toBe('unknown');
    const none = await row(['-o', 'csv'], {});
    expect(none).toEqual({
      code: 4,
      cells: ['default', 'https://secure.simplymeet.me/api', '', '', '', 'default'],
    });
    const noneTty = await row(['-o', 'csv'], { NO_COLOR: '1' }, true);
    expect(noneTty.cells).toEqual([
      'default',
      'https://secure.simplymeet.me/api',
      'none',
      '(none)',
      '',
      'default',
    ]);
  });

  it('a terminal table names the profile the key comes from', async () => {
    await login();
    const r = await runSched(['auth', 'status'], { env: env({ NO_COLOR: '1' }), tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Key from\s+profile "default"/);
    expect(r.stdout).toMatch(/Accepted\s+yes/);
  });

  it('Ctrl-C during the check: exit 130, no verdict printed', async () => {
    const ac = new AbortController();
    srv.on('GET', '/api/users/me/meeting-types', () => {
      ac.abort('SIGINT');
      return f.hang();
    });
    const r = await runSched(['auth', 'status', '--base-url', srv.baseUrl], {
      env: env({ SCHED_API_KEY: 'k-1234567890' }),
      signal: ac.signal,
    });
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
  });

  it('piped: one tab-separated row', async () => {
    await login();
    const r = await runSched(['auth', 'status'], { env: env() });
    expect(r.code).toBe(0);
    const cols = r.stdout.trimEnd().split('\t');
    expect(cols[0]).toBe('default');
    expect(cols[1]).toBe(sb.baseUrl);
    expect(cols[2]).toBe('profile');
    expect(cols[4]).toBe('yes');
    expect(cols[5]).toBe('profile');
  });

  it('--verbose logs the check without the key', async () => {
    await login();
    const r = await runSched(['auth', 'status', '--verbose'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /GET http:\/\/127\.0\.0\.1:\d+\/api\/users\/me\/meeting-types\?limit=1 -> 200 in \d+ ms \(attempt 1\)/,
    );
    expect(r.stderr).not.toContain(sb.apiKey);
  });
});

describe('sched auth logout', () => {
  it('removes the stored key and keeps the base URL; a second logout says there is none; exit 0', async () => {
    await runSched(['auth', 'login', '--with-key', '--base-url', sb.baseUrl], {
      env: env(),
      stdin: sb.apiKey,
    });
    let r = await runSched(['auth', 'logout'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Removed the API key of profile "default"');
    expect(readConfig().profiles.default).toEqual({ baseUrl: sb.baseUrl });
    r = await runSched(['auth', 'logout'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('No API key is stored for profile "default"');
    const st = await runSched(['auth', 'status'], { env: env() });
    expect(st.code).toBe(4);
  });

  it('after logout --profile globex, the no-key hint logs in to globex again (not the default)', async () => {
    await runSched(
      ['auth', 'login', '--with-key', '--profile', 'globex', '--base-url', sb.baseUrl],
      {
        env: env(),
        stdin: sb.apiKey,
      },
    );
    expect((await runSched(['auth', 'logout', '--profile', 'globex'], { env: env() })).code).toBe(
      0,
    );
    for (const args of [
      ['types', 'list', '--profile', 'globex'],
      ['auth', 'status', '--profile', 'globex'],
    ]) {
      const r = await runSched(args, { env: env() });
      expect(r.code).toBe(4);
      expect(r.stderr).toContain(
        'hint: run `sched auth login --profile globex` or set SCHED_API_KEY',
      );
    }
    const r = await runSched(['types', 'list'], { env: env({ SCHED_PROFILE: 'globex' }) });
    expect(r.stderr).toContain('`sched auth login --profile globex`');
  });

  it('says when SCHED_API_KEY still applies', async () => {
    const r = await runSched(['auth', 'logout', '--json'], { env: env({ SCHED_API_KEY: 'x' }) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ profile: 'default', removed: false });
    expect(r.stderr).toContain('SCHED_API_KEY is still set');
  });
});

describe('config problems reach the user as one clear line', () => {
  it('a corrupt config: exit 1 naming the file, which is left as it was', async () => {
    fs.writeFileSync(configFile(), '{oops', { mode: 0o600 });
    const r = await runSched(['auth', 'status'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot read the config file ${configFile()}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(fs.readFileSync(configFile(), 'utf8')).toBe('{oops');
  });

  it.skipIf(runsElsewhere(process.platform === 'win32' && 'Windows: no POSIX file modes'))(
    'a world-readable config is tightened, with a warning on stderr',
    async () => {
      fs.writeFileSync(
        configFile(),
        JSON.stringify({ profiles: { default: { baseUrl: sb.baseUrl, apiKey: sb.apiKey } } }),
      );
      fs.chmodSync(configFile(), 0o644);
      const r = await runSched(['auth', 'status'], { env: env() });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('had mode 0644; changed it to 0600');
      expect(fs.statSync(configFile()).mode & 0o777).toBe(0o600);
    },
  );
});

describe('where requests go, and where the key comes from', () => {
  const SANDBOX_KEY_NOTE = /SCHED_API_KEY is set in the environment/;
  const loginTo = async (profile: string, base: string, key: string) => {
    srv.on(
      'GET',
      '/api/users/me/meeting-types',
      f.json(200, { page: 1, pages: 1, limit: 1, total: 0, _embedded: { items: [] } }),
    );
    const r = await runSched(
      ['auth', 'login', '--with-key', '--profile', profile, '--base-url', base],
      { env: env(), stdin: key },
    );
    expect(r.code, r.stderr).toBe(0);
  };

  it('auth login with SCHED_BASE_URL still set says later commands go there, not to what it stored', async () => {
    // The sandbox tour left SCHED_BASE_URL and SCHED_API_KEY exported; the user logs in to the
    // real service with --base-url.
    const r = await runSched(['auth', 'login', '--with-key', '--base-url', sb.baseUrl], {
      env: env({ SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: 'sandbox-key-left-over' }),
      stdin: sb.apiKey,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `note: SCHED_BASE_URL is set in the environment and overrides profile "default" (${sb.baseUrl}): requests go to ${srv.baseUrl}`,
    );
    expect(r.stderr).toMatch(SANDBOX_KEY_NOTE);
    expect(r.stdout).toBe('');
  });

  it('auth status: the base URL source in the table, the JSON and a note when env overrides the profile', async () => {
    await loginTo('default', sb.baseUrl, sb.apiKey);
    srv.on(
      'GET',
      '/api/users/me/meeting-types',
      f.json(200, { page: 1, pages: 1, limit: 1, total: 0, _embedded: { items: [] } }),
    );
    const j = await runSched(['auth', 'status', '--json'], {
      env: env({ SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: 'env-key-0123456789' }),
    });
    expect(j.code, j.stderr).toBe(0);
    expect(JSON.parse(j.stdout)).toMatchObject({ baseUrl: srv.baseUrl, baseUrlSource: 'env' });
    expect(j.stderr).toContain(
      `note: SCHED_BASE_URL is set in the environment and overrides profile "default" (${sb.baseUrl}): requests go to ${srv.baseUrl}`,
    );
    const t = await runSched(['auth', 'status'], {
      env: env({ SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: 'env-key-0123456789' }),
      tty: true,
    });
    expect(t.stdout).toContain(
      `env SCHED_BASE_URL (overrides ${sb.baseUrl} stored in profile "default")`,
    );
    const flag = await runSched(['auth', 'status', '--json', '--base-url', sb.baseUrl], {
      env: env(),
    });
    expect(JSON.parse(flag.stdout)).toMatchObject({ baseUrlSource: 'flag' });
    expect(flag.stderr).toBe('');
  });

  it('auth status with no key: nothing on stdout (a table would be half empty); --json is whole', async () => {
    const r = await runSched(['auth', 'status'], { env: env() });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no API key for profile "default"');
    const t = await runSched(['auth', 'status'], { env: env(), tty: true });
    expect(t.stdout).toBe('');
  });

  it('an unknown profile (--profile or SCHED_PROFILE): exit 2 naming it and the closest; only login creates one', async () => {
    await loginTo('local', sb.baseUrl, sb.apiKey);
    for (const [args, extra, from] of [
      [['--profile', 'loacl', 'auth', 'status'], {}, '--profile'],
      [['types', 'list'], { SCHED_PROFILE: 'loacl' }, 'SCHED_PROFILE'],
      [['--profile', 'loacl', 'auth', 'logout'], {}, '--profile'],
    ] as const) {
      const r = await runSched([...args], { env: env(extra) });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `error: unknown profile "loacl" (from ${from}) (did you mean "local"?); profiles: local`,
      );
    }
    expect(Object.keys(readConfig().profiles)).toEqual(['local']);
  });

  it('a rejected key: the hint names where the key came from', async () => {
    await loginTo('local', srv.baseUrl, 'stored-key-0123456789');
    srv.on('GET', '/api/users/me/meeting-types', f.json(401, { message: 'Invalid API key.' }));
    const fromEnv = await runSched(['--profile', 'local', 'types', 'list'], {
      env: env({ SCHED_API_KEY: 'wrong-env-key-0123456789' }),
    });
    expect(fromEnv.code).toBe(4);
    expect(fromEnv.stderr).toContain(
      'hint: SCHED_API_KEY is set in the environment and overrides profile "local": unset it to use the stored key',
    );
    const fromProfile = await runSched(['--profile', 'local', 'types', 'list'], { env: env() });
    expect(fromProfile.code).toBe(4);
    expect(fromProfile.stderr).toContain(
      'hint: the key is stored in profile "local": run `sched auth login --profile local`',
    );
    expect(fromProfile.stderr).not.toContain('or set SCHED_API_KEY');
    // The server's sentence is joined without its full stop.
    expect(fromProfile.stderr).toContain(': Invalid API key\n');
    const login = await runSched(['auth', 'login', '--with-key', '--base-url', srv.baseUrl], {
      env: env(),
      stdin: 'another-key-0123456789',
    });
    expect(login.stderr).toContain(': Invalid API key; nothing was stored');
    expect(login.stderr).not.toContain('.;');
  });

  it('a 404 names the full URL, and under a base URL not ending in /api says so', async () => {
    srv.fallback(f.json(404, { message: 'No route found' }));
    const r = await runSched(['types', 'list'], {
      env: env({ SCHED_BASE_URL: `${srv.url}/`, SCHED_API_KEY: 'k-0123456789' }),
    });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(`error: not found (404): GET ${srv.url}/users/me/meeting-types?`);
    expect(r.stderr).toMatch(/hint: the base URL .* does not end in \/api/);
  });
});
