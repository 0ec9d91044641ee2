// `sched auth login --key-command` against the real Secret Service: gnome-keyring in a private
// D-Bus session (dbus-run-session), the key stored with `secret-tool store`, then the built
// CLI logs in with `--key-command 'secret-tool lookup service sched'` and uses the key. The
// key must reach the server, and never stdout, stderr or config.json (only the command is
// stored). Run as a script (test/e2e/scripts/secret-service.sh) inside the session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCHED_COMMAND } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { unavailable } from '../helpers/skip.js';

const SCRIPT = fileURLToPath(new URL('./scripts/secret-service.sh', import.meta.url));
const KEY = 'sk_test_SecretService_Q7xP2mWn8Rt4';

/** The programs this needs (.ci/run installs their packages). */
const TOOLS: Record<string, string> = {
  'secret-tool': 'libsecret-tools',
  'gnome-keyring-daemon': 'gnome-keyring',
  'dbus-run-session': 'dbus',
  'dbus-send': 'dbus',
};
const onPath = (tool: string) =>
  (process.env.PATH ?? '').split(':').some((d) => d !== '' && fs.existsSync(join(d, tool)));
const missing = Object.entries(TOOLS).filter(([tool]) => !onPath(tool));
const why =
  missing.length > 0 &&
  `the Secret Service test needs ${missing.map(([t, p]) => `${t} (${p})`).join(', ')}`;

let sb: TestSandbox;
let dir: string;
beforeAll(async () => {
  sb = await startTestSandbox({ apiKey: KEY });
  dir = fs.mkdtempSync(join(tmpdir(), 'sched-secret-service-'));
});
afterAll(async () => {
  await sb.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(unavailable(why))('a key kept in the Secret Service (secret-tool)', () => {
  it('login stores the command; the key reaches the server, never the output or the config', async () => {
    const home = join(dir, 'home');
    const out = join(dir, 'out');
    const runtime = join(dir, 'run');
    for (const d of [home, out, runtime]) fs.mkdirSync(d, { mode: 0o700 });
    fs.writeFileSync(join(out, 'key'), KEY, { mode: 0o600 });
    const config = join(dir, 'config');
    const r = await execa('dbus-run-session', ['--', 'bash', SCRIPT, out, ...SCHED_COMMAND], {
      env: {
        // A keyring of its own: nothing of the user's is read or written.
        HOME: home,
        XDG_DATA_HOME: join(home, 'data'),
        XDG_CONFIG_HOME: join(home, 'config'),
        XDG_CACHE_HOME: join(home, 'cache'),
        XDG_RUNTIME_DIR: runtime,
        DBUS_SESSION_BUS_ADDRESS: undefined,
        SCHED_CONFIG_DIR: config,
        SCHED_API_KEY: undefined,
        SCHED_BASE_URL: undefined,
        SCHED_PROFILE: undefined,
        NO_COLOR: '1',
        BASE_URL: sb.baseUrl,
      },
      extendEnv: true,
      reject: false,
      timeout: 60_000,
    });
    expect(r.exitCode, `stdout:\n${r.stdout}\nstderr:\n${r.stderr}`).toBe(0);
    const step = (name: string) => ({
      code: Number(fs.readFileSync(join(out, `${name}.rc`), 'utf8')),
      stdout: fs.readFileSync(join(out, `${name}.out`), 'utf8'),
      stderr: fs.readFileSync(join(out, `${name}.err`), 'utf8'),
    });

    const login = step('login');
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain(
      `Logged in to ${sb.baseUrl} as profile "vault" (key ****${KEY.slice(-4)} from \`secret-tool lookup service sched\``,
    );
    const list = step('list');
    expect(list.code, list.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(list.stdout))).toBe(true);
    const status = step('status');
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      profile: 'vault',
      keySource: 'command',
      key: '****' + KEY.slice(-4),
      valid: true,
    });
    // A secret that is not there: secret-tool exits 1 saying nothing; worded, exit 4.
    const missingSecret = step('missing');
    expect(missingSecret.code).toBe(4);
    expect(missingSecret.stderr).toMatch(
      /^error: the key command of profile "other" failed \(exit 1\)\n {2}nothing was stored\nhint: run `secret-tool lookup service missing` yourself to see why\n$/,
    );

    // The key reached the server: login's check, the list, the status check.
    const keys = sb.requests.map((q) => q.headers['x-api-key']);
    expect(keys).toEqual([KEY, KEY, KEY]);
    // ...and never the output, nor the config file, which holds the command alone (0600).
    for (const s of [login, list, status, missingSecret]) {
      expect(s.stdout + s.stderr).not.toContain(KEY);
    }
    const file = join(config, 'config.json');
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text)).toEqual({
      profiles: {
        vault: { baseUrl: sb.baseUrl, keyCommand: 'secret-tool lookup service sched' },
      },
    });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  }, 90_000);
});
