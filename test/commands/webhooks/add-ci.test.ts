// `sched webhooks add` in a CI job, as the real process runs there (stdout a pipe, CI set): a
// generated secret never lands in the job's log by accident. It is written to the 0600 file
// --secret-out names, printed only on --print-secret, and otherwise refused (exit 2, nothing
// created, the fix named).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chmod, link, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSched } from '../../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

const URL_A = 'https://hooks.example.com/ci';
let sb: TestSandbox;
let dir: string;

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});
afterEach(async () => {
  sb.state.webhooks.clear();
  sb.requests.length = 0;
  if (dir) await rm(dir, { recursive: true, force: true });
});

const ci = (argv: string[], env: Record<string, string | undefined> = {}) =>
  spawnSched(['webhooks', 'add', '--url', URL_A, ...argv], {
    env: {
      ...sb.env,
      CI: 'true',
      SCHED_WEBHOOK_SECRET: undefined,
      SCHED_FORCE_TTY: undefined,
      SCHED_CONFIG_DIR: dir,
      ...env,
    },
  });
const stored = () => [...sb.state.webhooks.values()];
const posts = () => sb.requests.filter((r) => r.method === 'POST');

async function freshDir() {
  dir = await mkdtemp(join(tmpdir(), 'sched-add-ci-'));
  return dir;
}

describe('webhooks add in CI: a generated secret needs a destination', () => {
  it('with none: exit 2, the fix named, no request sent, nothing on stdout', async () => {
    await freshDir();
    for (const extra of [[], ['--if-absent'], ['--json'], ['-q']]) {
      const r = await ci(extra);
      expect(r.code, extra.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        'error: in CI a generated signing secret would be printed into the job log; nothing was created',
      );
      expect(r.stderr).toMatch(/--secret-out <file>.*--print-secret/);
    }
    expect(sb.requests).toHaveLength(0);
    expect(stored()).toHaveLength(0);
  });

  it('SCHED_FORCE_TTY does not make a log a terminal: still refused', async () => {
    await freshDir();
    const r = await ci([], { SCHED_FORCE_TTY: '1' });
    expect(r.code).toBe(2);
    expect(stored()).toHaveLength(0);
  });

  it('CI=false, or a secret the user gave: no question of a destination', async () => {
    await freshDir();
    const off = await ci(['-q'], { CI: 'false' });
    expect(off.code).toBe(0);
    expect(off.stdout.trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const env = await ci(['--json'], {
      SCHED_WEBHOOK_SECRET: 'from-the-env-secret-42',
    });
    expect(env.code, env.stderr).toBe(0);
    expect(env.stdout + env.stderr).not.toContain('from-the-env-secret-42');
    const none = await ci(['--no-secret']);
    expect(none.code).toBe(0);
  });

  it('--secret-out <file>: the secret in a new 0600 file, the one the webhook signs with; never on stdout or stderr', async () => {
    const out = join(await freshDir(), 'secret');
    const r = await ci(['--secret-out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const secret = (await readFile(out, 'utf8')).trim();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await readFile(out, 'utf8')).endsWith(`${secret}\n`)).toBe(true);
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    expect(stored()[0]!.secret).toBe(secret);
    expect(r.stdout).not.toContain(secret);
    expect(r.stderr).not.toContain(secret);
    const printed = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(printed.secret).toBeNull();
    expect(printed.uuid).toBe(stored()[0]!.uuid);
    expect(r.stderr).toContain(`The signing secret is in ${out} (mode 0600)`);
  });

  it('-q with --secret-out prints the UUID', async () => {
    const out = join(await freshDir(), 'secret');
    const r = await ci(['--secret-out', out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${stored()[0]!.uuid}\n`);
    expect(r.stderr).toBe('');
  });

  it('an empty 0600 file (mktemp) is used; a non-empty one, a link or a directory is refused before any request', async () => {
    const d = await freshDir();
    const empty = join(d, 'tmp.XXXX');
    await writeFile(empty, '');
    await chmod(empty, 0o600);
    const ok = await ci(['--secret-out', empty, '-q']);
    expect(ok.code, ok.stderr).toBe(0);
    expect((await readFile(empty, 'utf8')).trim()).toBe(stored()[0]!.secret);
    expect((await stat(empty)).mode & 0o777).toBe(0o600);
    sb.state.webhooks.clear();
    sb.requests.length = 0;

    const full = join(d, 'old-secret');
    await writeFile(full, 'the-secret-of-another-webhook\n');
    await symlink(full, join(d, 'link'));
    const cases: Array<[string, RegExp]> = [
      [full, /it exists and is not empty/],
      [join(d, 'link'), /it is a symbolic link/],
      [d, /it exists and is not a regular file/],
      [join(d, 'no', 'such', 'dir'), /no such/i],
    ];
    for (const [path, why] of cases) {
      const r = await ci(['--secret-out', path]);
      expect(r.code, path).toBe(2);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).toContain('a secret is never overwritten');
      expect(r.stdout).toBe('');
    }
    expect(await readFile(full, 'utf8')).toBe('the-secret-of-another-webhook\n');
    expect(posts()).toHaveLength(0);
    expect(stored()).toHaveLength(0);
  });

  // Issue 38, finding 5: an empty file that was open to others (or has another name) may be
  // open in another user's process already; making it 0600 then would not stop that reader.
  it('an empty file with a group/other bit or a second hard link is refused, left as it was, before any request', async () => {
    const d = await freshDir();
    const cases: Array<[string, number, RegExp]> = [
      ['open-0644', 0o644, /it exists with mode 0644, open to others .*it must be 0600/],
      ['open-0640', 0o640, /it exists with mode 0640, open to others/],
      ['open-0602', 0o602, /it exists with mode 0602, open to others/],
      ['linked', 0o600, /it has other hard links/],
    ];
    for (const [name, mode, why] of cases) {
      const path = join(d, name);
      await writeFile(path, '');
      await chmod(path, mode);
      if (name === 'linked') await link(path, join(d, 'other-name'));
      const r = await ci(['--secret-out', path]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).toContain(
        'hint: name a new file (or an empty file of mode 0600, as mktemp makes); a secret is never overwritten',
      );
      expect(r.stdout).toBe('');
      const st = await stat(path);
      expect(st.mode & 0o777).toBe(mode);
      expect(st.size).toBe(0);
    }
    expect(posts()).toHaveLength(0);
    expect(stored()).toHaveLength(0);
  });

  it('a request that fails leaves no secret file behind', async () => {
    const out = join(await freshDir(), 'secret');
    const r = await ci(['--secret-out', out], { SCHED_API_KEY: 'wrong-key' });
    expect(r.code).toBe(4);
    await expect(stat(out)).rejects.toThrow(/ENOENT/);
  });

  it('--if-absent with a match creates neither a webhook nor the file', async () => {
    const out = join(await freshDir(), 'secret');
    expect((await ci(['--secret-out', out])).code).toBe(0);
    await rm(out);
    const again = await ci(['--if-absent', '--secret-out', out]);
    expect(again.code).toBe(0);
    expect(stored()).toHaveLength(1);
    await expect(stat(out)).rejects.toThrow(/ENOENT/);
  });

  it('--print-secret: printed on stdout, as asked', async () => {
    await freshDir();
    const r = await ci(['--print-secret', '-q']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${stored()[0]!.secret}\n`);
  });

  it('--secret-out or --print-secret with a secret option: exit 2 before any request', async () => {
    await freshDir();
    for (const extra of [
      ['--secret-out', join(dir, 's'), '--no-secret'],
      ['--print-secret', '--secret', 'given-secret-123456'],
    ]) {
      const r = await ci(extra);
      expect(r.code, extra.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/is for a generated secret/);
    }
    expect(sb.requests).toHaveLength(0);
  });
});
