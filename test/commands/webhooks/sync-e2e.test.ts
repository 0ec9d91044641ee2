// The built binary, spawned as CI would run it: proves the wiring (lazy command and YAML chunks
// in the bundle, exit codes, the stdout/stderr split) on top of the in-process tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { spawnSched } from '../../helpers/run.js';
import { useConfigDir } from '../../helpers/config-dir.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

const YAML_FILE = fileURLToPath(new URL('../../fixtures/sync/webhooks.yaml', import.meta.url));
const SECRET = 'e2e_SYNC_secret_value_5d1c';

let sb: TestSandbox;
const config = useConfigDir('sched-sync-e2e-');
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});

const env = (extra: Record<string, string | undefined> = {}) => ({
  ...sb.env,
  SCHED_CONFIG_DIR: config.path,
  SYNC_TEST_SECRET: SECRET,
  ...extra,
});

describe('sched webhooks sync (built binary)', () => {
  it('provisions from YAML with --json on stdout and the plan on stderr, then is idempotent', async () => {
    const first = await spawnSched(['webhooks', 'sync', '--file', YAML_FILE, '--prune', '--json'], {
      env: env(),
    });
    expect(first.code, first.stderr).toBe(0);
    const out = JSON.parse(first.stdout) as { created: Array<{ url: string; secret: unknown }> };
    expect(out.created).toHaveLength(2);
    expect(out.created.every((w) => w.secret === null)).toBe(true);
    expect(first.stderr).toMatch(/^ {2}\+ create /m);
    expect(first.stdout + first.stderr).not.toContain(SECRET);

    const before = sb.requests.length;
    const second = await spawnSched(['webhooks', 'sync', '--file', YAML_FILE, '--prune'], {
      env: env(),
    });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('0 created, 0 replaced, 0 deleted, 2 unchanged\n');
    expect(sb.requests.slice(before).every((r) => r.method === 'GET')).toBe(true);
  });

  it('exits 2 before any request when a secretEnv variable is unset', async () => {
    const before = sb.requests.length;
    const r = await spawnSched(['webhooks', 'sync', '--file', YAML_FILE], {
      env: env({ SYNC_TEST_SECRET: undefined }),
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('environment variable SYNC_TEST_SECRET is not set');
    expect(sb.requests.length).toBe(before);
  });
});
