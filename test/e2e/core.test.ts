// The core commands through the built binary: exit codes, the stdout/stderr split, and a
// reader that goes away early (`| head -1`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { SCHED_COMMAND, spawnSched } from '../helpers/run.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
const config = useConfigDir('sched-e2e-core-');
let env: Record<string, string>;

beforeAll(async () => {
  sb = await startTestSandbox({ seedTypes: 3000 });
  env = { ...sb.env, SCHED_CONFIG_DIR: config.path };
});
afterAll(async () => {
  await sb.close();
});

describe('core commands (built binary)', () => {
  it('types list --json: stdout is exactly a JSON array, the hint is on stderr', async () => {
    const r = await spawnSched(['types', 'list', '--json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(10);
    expect(r.stderr).toMatch(/^Showing page 1 of 300 \(10 of 3000 meeting types\)/);
  });

  it('errors go to stderr only, with the contract exit codes', async () => {
    const usage = await spawnSched(['link', 'create', 'no-such-slug'], { env });
    expect(usage.code).toBe(2);
    expect(usage.stdout).toBe('');
    expect(usage.stderr).toMatch(/^error: no meeting type with slug or name "no-such-slug"/);
    expect(usage.stderr).not.toMatch(/\n\s+at /);

    const local = await spawnSched(['webhooks', 'add', '--url', 'ftp://x'], { env });
    expect(local.code).toBe(2);
    expect(local.stdout).toBe('');

    const missing = await spawnSched(['webhooks', 'rm', '00000000-0000-4000-8000-000000000000'], {
      env,
    });
    expect(missing.code).toBe(5);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('no webhook with UUID');

    const auth = await spawnSched(['types', 'list'], { env: { ...env, SCHED_API_KEY: 'bad' } });
    expect(auth.code).toBe(4);
    expect(auth.stdout).toBe('');
  });

  it('link create --count prints only URLs on stdout', async () => {
    const r = await spawnSched(['link', 'create', 'intro-call', '--count', '3'], { env });
    expect(r.code).toBe(0);
    const urls = r.stdout.trimEnd().split('\n');
    expect(urls).toHaveLength(3);
    for (const u of urls) expect(u).toMatch(new RegExp(`^${sb.publicUrl}/s/\\S+$`));
    expect(r.stderr).toBe('');
  });

  it('webhooks add then ls then rm --url --yes, as a script would', async () => {
    const url = 'https://hooks.example.com/e2e';
    // Off CI (a CI runner sets CI; there a generated secret needs --secret-out or --print-secret).
    const add = await spawnSched(['webhooks', 'add', '--url', url, '--json'], {
      env: { ...env, CI: undefined },
    });
    expect(add.code).toBe(0);
    const created = JSON.parse(add.stdout) as { uuid: string; secret: string };
    expect(add.stderr).not.toContain(created.secret);
    const ls = await spawnSched(['webhooks', 'ls', '--all', '-q'], { env });
    expect(ls.stdout.split('\n')).toContain(created.uuid);
    const del = await spawnSched(['webhooks', 'rm', '--url', url, '--yes', '--json'], { env });
    expect(del.code).toBe(0);
    expect(JSON.parse(del.stdout)).toEqual({ deleted: [created.uuid] });
  });

  it('types list --all -o ndjson | head -1 ends quietly, without EPIPE noise', async () => {
    sb.requests.length = 0;
    const r = await execa(
      'bash',
      [
        '-c',
        'set -o pipefail; "$@" types list --all -o ndjson | head -1',
        'bash',
        ...SCHED_COMMAND,
      ],
      {
        env: { ...process.env, ...env },
        reject: false,
        timeout: 20_000,
      },
    );
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const lines = String(r.stdout).split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toHaveProperty('uuid');
    // It stopped reading pages once nobody read its output (3000 types = 60 pages of 50).
    expect(sb.requests.length).toBeLessThan(60);
  });
});
