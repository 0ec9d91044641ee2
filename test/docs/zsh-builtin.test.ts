// README, "Install" (and docs/configuration.md, completion): zsh has a builtin called `sched` that runs instead of ours, and
// `disable sched` (in ~/.zshrc) gives the name back. Checked in a real zsh, with our `sched`
// first on PATH, so the advice stays true. Skipped, with a message, where zsh is absent (a failure under CI=true).
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unavailable } from '../helpers/skip.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const hasZsh = (await execa('zsh', ['-fc', 'true'], { reject: false })).exitCode === 0;

describe.skipIf(unavailable(!hasZsh && 'zsh is not installed (apt-get install zsh)'))('zsh and its `sched` builtin', async () => {
  const bin = await mkdtemp(join(tmpdir(), 'sched-zsh-'));
  await symlink(join(root, 'bin', 'sched.js'), join(bin, 'sched'));
  afterAll(() => rm(bin, { recursive: true, force: true }));
  const zsh = (script: string) =>
    execa('zsh', ['-fc', script], {
      reject: false,
      env: { PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1' },
      extendEnv: false,
    });
  const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    version: string;
  };

  it('without `disable sched`, zsh runs its own: "bad time specifier"', async () => {
    const r = await zsh('sched types list');
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toMatch(/bad time specifier/);
    expect(r.stdout).toBe('');
  });

  it('after `disable sched`, the name is ours: --version prints our version', async () => {
    const r = await zsh('disable sched; sched --version');
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toBe(version);
  });

  it('`command sched` reaches ours without disabling anything', async () => {
    const r = await zsh('command sched --version');
    expect(r.stdout.trim()).toBe(version);
  });
});
