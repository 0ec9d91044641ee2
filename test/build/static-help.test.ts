// `sched --help` on a pipe is answered by bin/sched.js from dist/help.txt, which the build
// renders from the CLI itself (scripts/build.mjs): the text must be exactly what the CLI
// prints, and the shortcut must be the one taken (and only where it applies).
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { runSched } from '../helpers/run.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('sched --help on a pipe', () => {
  it('prints exactly the help the CLI renders, for --help and -h', async () => {
    const cli = await runSched(['--help']);
    expect(cli.code).toBe(0);
    expect(readFileSync(join(root, 'dist', 'help.txt'), 'utf8')).toBe(cli.stdout);
    for (const flag of ['--help', '-h']) {
      const r = await execa(process.execPath, [join(root, 'bin', 'sched.js'), flag], {
        reject: false,
      });
      expect([r.exitCode, r.stderr], flag).toEqual([0, '']);
      expect(r.stdout + '\n').toBe(cli.stdout);
    }
  });

  it('comes from dist/help.txt, and only for --help or -h alone', async () => {
    // A copy of the package whose help.txt says something else shows which path answered.
    const dir = mkdtempSync(join(tmpdir(), 'sched-static-help-'));
    try {
      for (const d of ['bin', 'dist']) cpSync(join(root, d), join(dir, d), { recursive: true });
      cpSync(join(root, 'package.json'), join(dir, 'package.json'));
      writeFileSync(join(dir, 'dist', 'help.txt'), 'from help.txt\n');
      const run = (...a: string[]) =>
        execa(process.execPath, [join(dir, 'bin', 'sched.js'), ...a], { reject: false });
      expect((await run('--help')).stdout).toBe('from help.txt');
      expect((await run('-h')).stdout).toBe('from help.txt');
      // Anything more is the CLI's to answer.
      const more = await run('--help', 'types');
      expect(more.exitCode).toBe(0);
      expect(more.stdout).toMatch(/^Usage: sched/);
      expect(more.stdout).not.toContain('from help.txt');
      const types = await run('types', '--help');
      expect(types.stdout).toMatch(/^Usage: sched types/);
      // Invoked as `schedcli` (the second name, src/names.ts): the CLI renders it with that name.
      symlinkSync(join(dir, 'bin', 'sched.js'), join(dir, 'bin', 'schedcli'));
      const second = await execa(process.execPath, [join(dir, 'bin', 'schedcli'), '--help'], {
        reject: false,
      });
      expect(second.stdout).toMatch(/^Usage: schedcli \[options\]/);
      expect(second.stdout).not.toContain('from help.txt');
      // Without help.txt (not built), the CLI answers.
      rmSync(join(dir, 'dist', 'help.txt'));
      expect((await run('--help')).stdout + '\n').toBe((await runSched(['--help'])).stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
