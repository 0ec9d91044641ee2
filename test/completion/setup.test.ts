// The completion set-up lines (`sched completion --help`, README): run as given in a fresh HOME,
// then TAB in a real interactive shell that reads that HOME's own start-up files (bash -i and
// ~/.bashrc, zsh -i and ~/.zshrc, fish and ~/.config/fish), in a terminal (tmux). Each line
// writes only under ~ (no root-owned folder such as zsh's ${fpath[1]}), and bash needs no
// bash-completion package (none is installed where these run; Debian's /etc/bash.bashrc
// loads none by default).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETUP_LINES } from '../../src/commands/completion/index.js';
import { createWorkspace, hasCommand, type ShellName, type ShellWorkspace } from './shells.js';
import { HAS_TMUX, startTerminal, tmuxTitle, type Terminal } from '../helpers/tmux.js';
import { unavailable } from '../helpers/skip.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** How each shell runs a set-up line, what it leaves under ~, and how it starts for a person. */
const SHELLS: Record<
  ShellName,
  { run: string[]; leaves: string[]; interactive: string[]; names: string[] }
> = {
  bash: {
    run: ['bash', '--norc', '--noprofile', '-c'],
    leaves: ['.bashrc'],
    interactive: ['bash', '-i'],
    names: ['sched', 'schedcli'],
  },
  zsh: {
    run: ['zsh', '-f', '-c'],
    leaves: ['.zshrc', '.zfunc/_sched'],
    interactive: ['zsh', '-i'],
    names: ['sched', 'schedcli'],
  },
  fish: {
    run: ['fish', '--no-config', '-c'],
    leaves: ['.config/fish/completions/sched.fish'],
    interactive: ['fish', '-i'],
    names: ['sched'],
  },
};

it('the docs give the same set-up lines as `sched completion --help`', () => {
  // README's Install shows bash's; docs/configuration.md ("Shell completion") all three.
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const guide = readFileSync(join(root, 'docs', 'configuration.md'), 'utf8');
  expect(readme).toContain(SETUP_LINES.bash);
  for (const line of Object.values(SETUP_LINES)) expect(guide).toContain(line);
  for (const page of [readme, guide]) expect(page).not.toContain('${fpath[1]}');
});

describe.each(Object.keys(SHELLS) as ShellName[])('%s', (shell) => {
  const { run, leaves, interactive, names } = SHELLS[shell];
  const title = !hasCommand(shell)
    ? `the set-up line in a fresh HOME — SKIPPED: ${shell} is not installed`
    : tmuxTitle('the set-up line in a fresh HOME, then TAB');
  const missing = !HAS_TMUX
    ? 'tmux is not installed (apt-get install tmux)'
    : !hasCommand(shell) && `${shell} is not installed (apt-get install ${shell})`;
  describe.skipIf(unavailable(missing))(title, () => {
    let ws: ShellWorkspace;
    let home: string;
    let term: Terminal | undefined;
    const env = () =>
      ws.env({
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        XDG_DATA_HOME: join(home, '.local', 'share'),
        TERM: 'xterm-256color',
      });
    beforeAll(async () => {
      ws = await createWorkspace();
      home = mkdtempSync(join(ws.dir, 'home-'));
      // zsh: the line README gives for its builtin `sched`, as a zsh user has it.
      if (shell === 'zsh') writeFileSync(join(home, '.zshrc'), 'disable sched 2>/dev/null\n');
      const r = await execa(run[0]!, [...run.slice(1), SETUP_LINES[shell]], {
        env: env(),
        extendEnv: false,
        reject: false,
        cwd: home,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
    });
    afterEach(async () => {
      await term?.kill();
      term = undefined;
    });
    afterAll(() => ws?.cleanup());

    it('writes only under ~', () => {
      for (const f of leaves) expect(existsSync(join(home, f)), f).toBe(true);
    });

    it.each(names)('a new interactive shell completes `%s webhooks a` to add', async (name) => {
      term = await startTerminal(interactive, { env: env(), cwd: home });
      await term.type('echo READY');
      await term.sendKeys('Enter');
      await term.waitForScreen(/^READY$/m);
      await term.sendKeys('C-l');
      await term.type(`${name} webhooks a`);
      await term.sendKeys('Tab');
      const screen = await term.waitForScreen(new RegExp(`${name} webhooks add ?$`, 'm'));
      expect(screen).not.toMatch(/error|not found|insecure/i);
    });
  });
});
