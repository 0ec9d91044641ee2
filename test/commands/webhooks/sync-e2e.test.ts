// The built binary, spawned as CI would run it: proves the wiring (lazy command and YAML chunks
// in the bundle, exit codes, the stdout/stderr split) on top of the in-process tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

  // Issue 33, item 4: a CI job whose sync file was emptied or cut short must not delete every
  // webhook of the account with only a warning in its log.
  it('--prune off a terminal never empties the account from an empty or cut-short file', async () => {
    const yaml = await readFile(YAML_FILE, 'utf8');
    const cut = (at: string) => yaml.slice(0, yaml.indexOf(at) + at.length);
    const cases: Array<[name: string, text: string, says: RegExp]> = [
      ['empty.yaml', '', /the file is empty/],
      ['only-key.yaml', 'webhooks:\n', /webhooks: expected an array, found null/],
      ['mid-list.yaml', cut('events: [meeting'), /not valid YAML/],
      [
        'mid-entry.yaml',
        cut('- url: https://hooks.example.com/sched/changes\n'),
        /missing secretEnv/,
      ],
      [
        'cut.json',
        '{"webhooks": [{"url": "https://api.example.com/h", "events": ["meetingSch',
        /not valid JSON/,
      ],
      ['none.yaml', 'webhooks: []\n', /lists no webhooks: refusing to delete every webhook/],
    ];
    const first = await spawnSched(['webhooks', 'sync', '--file', YAML_FILE], { env: env() });
    expect(first.code, first.stderr).toBe(0);
    const before = (await sb.api('/webhooks').then((r) => r.json())) as { total: number };
    expect(before.total).toBeGreaterThanOrEqual(2);
    for (const [name, text, says] of cases) {
      const file = join(config.path, name);
      await writeFile(file, text);
      const writes = sb.requests.length;
      const r = await spawnSched(['webhooks', 'sync', '--file', file, '--prune', '--yes'], {
        env: env(),
      });
      expect(r.code, `${name}: ${r.stderr}`).toBe(2);
      expect(r.stderr, name).toMatch(says);
      expect(r.stderr, name).not.toMatch(/\n\s+at /);
      expect(
        sb.requests.slice(writes).filter((q) => q.method !== 'GET'),
        name,
      ).toEqual([]);
    }
    const after = (await sb.api('/webhooks').then((r) => r.json())) as { total: number };
    expect(after.total).toBe(before.total);
    // Meant: --prune-all says so, and the account is emptied.
    const all = await spawnSched(
      ['webhooks', 'sync', '--file', join(config.path, 'none.yaml'), '--prune-all', '--json'],
      { env: env() },
    );
    expect(all.code, all.stderr).toBe(0);
    expect((JSON.parse(all.stdout) as { deleted: unknown[] }).deleted).toHaveLength(before.total);
  });
});
