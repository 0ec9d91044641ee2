// The standalone executable (npm run build:binary), when SCHED_TEST_BINARY names it (CI does,
// and runs the smoke and core end-to-end tests on it too): it needs no Node, no node_modules
// and nothing of this checkout at run time.
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STANDALONE } from '../helpers/run.js';
import { runsElsewhere } from '../helpers/skip.js';

const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe.skipIf(
  runsElsewhere(
    !STANDALONE &&
      'the standalone executable: SCHED_TEST_BINARY unset (.ci/run sets it once it has built the executable)',
  ),
)('the standalone executable (SCHED_TEST_BINARY)', () => {
  /** A copy of it alone in an empty directory, run with an empty PATH: no node to fall back on. */
  async function runAlone(args: string[], env: Record<string, string> = {}) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sched-standalone-'));
    try {
      const exe = path.join(dir, 'sched');
      fs.copyFileSync(STANDALONE!, exe);
      fs.chmodSync(exe, 0o755);
      return await execa(exe, args, {
        cwd: dir,
        env: { PATH: '', HOME: dir, SCHED_CONFIG_DIR: path.join(dir, 'config'), ...env },
        extendEnv: false,
        reject: false,
        timeout: 20_000,
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it('prints the package version with no node on PATH, from an empty directory', async () => {
    const r = await runAlone(['--version']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(pkg.version);
    expect(r.stderr).toBe('');
  });

  it('names itself `schedcli` when run through a link of that name (the zsh-safe name)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sched-standalone-n-'));
    try {
      fs.copyFileSync(STANDALONE!, path.join(dir, 'sched'));
      fs.chmodSync(path.join(dir, 'sched'), 0o755);
      fs.symlinkSync('sched', path.join(dir, 'schedcli'));
      const run = (name: string) =>
        execa(path.join(dir, name), ['--help'], { env: { PATH: '' }, extendEnv: false });
      expect((await run('schedcli')).stdout).toMatch(/^Usage: schedcli /);
      expect((await run('sched')).stdout).toMatch(/^Usage: sched /);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('verifies a signature (a command that loads its own code) and warns about nothing', async () => {
    const body = '{"event":"meetingScheduled"}';
    const { createHmac } = await import('node:crypto');
    const sig = createHmac('sha256', 'k').update(body).digest('base64');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sched-standalone-p-'));
    const file = path.join(dir, 'payload.json');
    fs.writeFileSync(file, body);
    try {
      const verify = (signature: string) =>
        runAlone([
          'sig',
          'verify',
          `--signature=${signature}`,
          '--secret=k',
          `--payload-file=${file}`,
        ]);
      const ok = await verify(sig);
      expect(ok.exitCode, ok.stderr).toBe(0);
      expect(ok.stderr).not.toMatch(/warning/i);
      const bad = await verify('abc');
      expect(bad.exitCode).toBe(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
