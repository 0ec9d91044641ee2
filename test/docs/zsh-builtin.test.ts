// README, "Install": zsh has a builtin called `sched` that runs instead of ours. The tool is
// also installed as `schedcli` (package.json "bin"), which no shell claims, and one line in
// ~/.zshrc (ZSHRC_LINE, as the README and the man page give it) gives `sched` back. Checked in
// a real zsh, interactive (`zsh -i`, a fresh HOME) and not (`zsh -f`), with both names first
// on PATH, so the advice stays true. Skipped, with a message, where zsh is absent (a failure
// under CI=true).
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMAND_NAMES } from '../../src/names.js';
import { unavailable } from '../helpers/skip.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const hasZsh = (await execa('zsh', ['-fc', 'true'], { reject: false })).exitCode === 0;

/** The set-up line the README gives for ~/.zshrc. */
const ZSHRC_LINE = 'disable sched 2>/dev/null';

describe.skipIf(unavailable(!hasZsh && 'zsh is not installed (apt-get install zsh)'))('zsh and its `sched` builtin', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sched-zsh-'));
  const bin = join(dir, 'bin');
  await mkdir(bin);
  for (const name of COMMAND_NAMES) await symlink(join(root, 'bin', 'sched.js'), join(bin, name));
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const env = (home: string) => ({
    PATH: `${bin}:${process.env.PATH}`,
    HOME: home,
    NO_COLOR: '1',
    SCHED_CONFIG_DIR: join(dir, 'config'),
  });
  const zsh = (script: string, home = dir) =>
    execa('zsh', ['-fc', script], { reject: false, env: env(home), extendEnv: false });
  /** A fresh HOME whose ~/.zshrc holds `zshrc`, and an interactive zsh started in it. */
  const interactive = async (zshrc: string, script: string) => {
    const home = await mkdtemp(join(dir, 'home-'));
    await writeFile(join(home, '.zshrc'), zshrc);
    return execa('zsh', ['-i', '-c', script], {
      reject: false,
      env: env(home),
      extendEnv: false,
      input: '',
    });
  };
  const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    version: string;
  };

  it('package.json installs the tool under both names', async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(Object.keys(pkg.bin)).toEqual([...COMMAND_NAMES]);
    expect(new Set(Object.values(pkg.bin))).toEqual(new Set(['bin/sched.js']));
  });

  it('without the set-up, zsh runs its own `sched`: "bad time specifier"', async () => {
    for (const r of [await zsh('sched types list'), await interactive('', 'sched types list')]) {
      expect(r.exitCode).not.toBe(0);
      expect(r.stderr).toMatch(/bad time specifier/);
      expect(r.stdout).toBe('');
    }
  });

  it('`schedcli` is ours with no set-up, in `zsh -f` and `zsh -i`', async () => {
    expect((await zsh('whence -w schedcli')).stdout).toBe('schedcli: command');
    for (const r of [await zsh('schedcli --version'), await interactive('', 'schedcli --version')]) {
      expect(r.exitCode).toBe(0);
      expect(r.stdout.trim()).toBe(version);
    }
  });

  it('`schedcli` names itself in help, examples and hints', async () => {
    const help = await zsh('schedcli link create --help');
    expect(help.stdout).toMatch(/^Usage: schedcli link create /);
    expect(help.stdout).toMatch(/^ {2}\$ schedcli link create /m);
    const noKey = await zsh('schedcli types list');
    expect(noKey.exitCode).toBe(4);
    expect(noKey.stderr).toContain('run `schedcli auth login`');
    // `sched` says `sched`.
    const ours = await zsh('command sched types list');
    expect(ours.stderr).toContain('run `sched auth login`');
  });

  it('the ~/.zshrc line gives `sched` back in every new interactive shell', async () => {
    const r = await interactive(`${ZSHRC_LINE}\n`, 'whence -p sched; sched --version');
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')).toEqual([join(bin, 'sched'), version]);
    expect(r.exitCode).toBe(0);
  });

  it('the same line, sourced in `zsh -f`, gives the name back too', async () => {
    const home = await mkdtemp(join(dir, 'home-'));
    await writeFile(join(home, '.zshrc'), `${ZSHRC_LINE}\n`);
    const r = await zsh('source ~/.zshrc; sched --version', home);
    expect(r.stdout.trim()).toBe(version);
    expect(r.stderr).toBe('');
  });

  it('`command sched` reaches ours without disabling anything', async () => {
    const r = await zsh('command sched --version');
    expect(r.stdout.trim()).toBe(version);
  });

  it('README and the man page give the same line', async () => {
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    expect(readme).toContain(ZSHRC_LINE);
    expect(readme).toContain('schedcli');
    const man = await readFile(join(root, 'sched.1'), 'utf8');
    expect(man).toContain(ZSHRC_LINE.replace(/-/g, '\\-'));
  });
});
