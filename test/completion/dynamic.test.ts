// `sched __complete <kind>`: the hidden command behind profile, slug and webhook completion.
// It runs under a shell's TAB key, so whatever goes wrong it prints nothing and exits 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSched } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { refusedPort } from '../helpers/ports.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sched-complete-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configDir(name: string, content: string | undefined): string {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true, mode: 0o700 });
  if (content !== undefined) writeFileSync(join(d, 'config.json'), content);
  return d;
}

describe('sched __complete profiles', () => {
  it('lists the profile names in the config file, sorted', async () => {
    const d = configDir(
      'two',
      JSON.stringify({
        profiles: {
          staging: { baseUrl: 'http://127.0.0.1:4010/api', apiKey: 'k1' },
          default: { apiKey: 'k2' },
        },
      }),
    );
    const r = await runSched(['__complete', 'profiles'], { env: { SCHED_CONFIG_DIR: d } });
    expect(r).toEqual({
      code: 0,
      stdout: 'default\nstaging\thttp://127.0.0.1:4010/api\n',
      stderr: '',
    });
  });

  it('prints nothing, and no error, without a config file or with a broken one', async () => {
    for (const content of [undefined, '{not json', '{"profiles": []}', '[]']) {
      const d = configDir(`broken-${String(content?.length)}`, content);
      const r = await runSched(['__complete', 'profiles'], { env: { SCHED_CONFIG_DIR: d } });
      expect(r, String(content)).toEqual({ code: 0, stdout: '', stderr: '' });
    }
  });

  it('never prints an API key', async () => {
    const d = configDir(
      'secret',
      JSON.stringify({ profiles: { work: { apiKey: 'sk_live_zzz' } } }),
    );
    const r = await runSched(['__complete', 'profiles'], { env: { SCHED_CONFIG_DIR: d } });
    expect(r.stdout).toBe('work\n');
  });
});

describe('sched __complete against the sandbox', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(() => sb?.close());

  const env = () => ({ ...sb.env, SCHED_CONFIG_DIR: configDir('none', undefined) });

  it('lists meeting-type slugs with name and duration', async () => {
    const r = await runSched(['--timeout', '2', '__complete', 'meeting-types'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toContain('intro-call\tIntro call (15 min)');
    for (const line of lines) expect(line).toMatch(/^[a-z0-9-]+\t.+ \(\d+ min\)$/);
    expect(lines.map((l) => l.split('\t')[0])).toEqual(
      expect.arrayContaining(['intro-call', 'product-demo', 'office-hours']),
    );
  });

  it('lists webhook UUIDs with URL and events', async () => {
    const created = (await (
      await sb.api('/webhooks', {
        method: 'POST',
        body: JSON.stringify({
          url: 'https://example.com/hooks/complete',
          events: ['meetingScheduled'],
          secret: 's3cret-value',
        }),
      })
    ).json()) as { uuid: string };
    const r = await runSched(['--timeout', '2', '__complete', 'webhooks'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(
      `${created.uuid}\thttps://example.com/hooks/complete (meetingScheduled)\n`,
    );
    expect(r.stdout).not.toContain('s3cret-value');
  });

  it('uses --profile and --base-url given before it, like any command', async () => {
    const profiles = configDir(
      'sandbox-profile',
      JSON.stringify({ profiles: { sb: { baseUrl: sb.baseUrl, apiKey: sb.apiKey } } }),
    );
    const viaProfile = await runSched(['--profile', 'sb', '__complete', 'meeting-types'], {
      env: { SCHED_CONFIG_DIR: profiles },
    });
    expect(viaProfile.stdout).toMatch(/^intro-call\t/m);
    const elsewhere = await runSched(
      ['--base-url', `http://127.0.0.1:${await refusedPort()}/api`, '__complete', 'meeting-types'],
      { env: env() },
    );
    expect(elsewhere).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('removes control characters a server might send', async () => {
    const evil = await startTestSandbox({
      meetingTypes: [{ name: 'Evil\u001b[31m\tname\nnext', slug: 'evil\tslug', duration: 15 }],
    });
    try {
      const r = await runSched(['__complete', 'meeting-types'], {
        env: { ...evil.env, SCHED_CONFIG_DIR: configDir('none', undefined) },
      });
      expect(r.stdout).toBe('evil slug\tEvil [31m name next (15 min)\n');
    } finally {
      await evil.close();
    }
  });

  it('prints nothing, and no error, without an API key or for a rejected one', async () => {
    const none = await runSched(['__complete', 'webhooks'], {
      env: { SCHED_BASE_URL: sb.baseUrl, SCHED_CONFIG_DIR: configDir('none', undefined) },
    });
    expect(none).toEqual({ code: 0, stdout: '', stderr: '' });
    const wrong = await runSched(['__complete', 'webhooks'], {
      env: { ...env(), SCHED_API_KEY: 'wrong-key' },
    });
    expect(wrong).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('sched __complete when the API cannot answer', () => {
  let silent: Server;
  let silentPort: number;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    // Accepts connections and never answers: only the timeout ends the wait.
    silent = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    sockets.forEach((s) => s.destroy());
    await new Promise<void>((r) => silent.close(() => r()));
  });

  it('prints nothing and exits 0 for a refused connection', async () => {
    const r = await runSched(['--timeout', '2', '__complete', 'meeting-types'], {
      env: {
        SCHED_BASE_URL: `http://127.0.0.1:${await refusedPort()}/api`,
        SCHED_API_KEY: 'k',
        SCHED_CONFIG_DIR: configDir('none', undefined),
      },
    });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('gives up after --timeout on a server that never answers, silently', async () => {
    const r = await runSched(['--timeout', '0.5', '__complete', 'webhooks'], {
      env: {
        SCHED_BASE_URL: `http://127.0.0.1:${silentPort}/api`,
        SCHED_API_KEY: 'k',
        SCHED_CONFIG_DIR: configDir('none', undefined),
      },
    });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('ignores an unknown kind', async () => {
    const r = await runSched(['__complete', 'nonsense']);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});
