// Drives the generated completion scripts in real bash, zsh and fish, the way each shell
// calls them on TAB, and returns the candidates it would offer.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, chmodSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { BIN, runSched } from '../helpers/run.js';
import { startTerminal, type Terminal } from '../helpers/tmux.js';
import { unavailable } from '../helpers/skip.js';

export type ShellName = 'bash' | 'zsh' | 'fish';

export function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A describe title that says why its tests were skipped. */
/** For `describe.skipIf(noShell('zsh'))`: skip without it (a failure under CI=true). */
export function noShell(shell: string): boolean {
  return unavailable(!hasCommand(shell) && `${shell} is not installed (apt-get install ${shell})`);
}

export function shellTitle(shell: string, title: string): string {
  return hasCommand(shell)
    ? title
    : `${title} — SKIPPED: ${shell} is not installed (apt-get install ${shell}; CI installs it)`;
}

export interface ShellWorkspace {
  dir: string;
  /** A directory holding a `sched` that runs the built binary: put it first on PATH. */
  binDir: string;
  scripts: Record<ShellName, string>;
  env(extra?: Record<string, string>): Record<string, string>;
  cleanup(): void;
}

/** Writes the scripts `sched completion <shell>` prints, and a `sched` on PATH for them. */
export async function createWorkspace(): Promise<ShellWorkspace> {
  const dir = mkdtempSync(join(tmpdir(), 'sched-completion-'));
  const binDir = join(dir, 'bin');
  execFileSync('mkdir', ['-p', binDir, join(dir, 'home')]);
  const wrapper = join(binDir, 'sched');
  writeFileSync(wrapper, `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  // The second name (src/names.ts): a link, so the program sees the name it was run as.
  symlinkSync(BIN, join(binDir, 'schedcli'));
  const scripts = {} as Record<ShellName, string>;
  for (const [shell, file] of [
    ['bash', 'sched.bash'],
    ['zsh', '_sched'],
    ['fish', 'sched.fish'],
  ] as const) {
    const r = await runSched(['completion', shell]);
    if (r.code !== 0) throw new Error(`sched completion ${shell} failed: ${r.stderr}`);
    scripts[shell] = join(dir, file);
    writeFileSync(scripts[shell], r.stdout);
  }
  return {
    dir,
    binDir,
    scripts,
    env: (extra = {}) => ({
      PATH: `${binDir}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: join(dir, 'home'),
      XDG_CONFIG_HOME: join(dir, 'home', '.config'),
      XDG_DATA_HOME: join(dir, 'home', '.local', 'share'),
      SCHED_CONFIG_DIR: join(dir, 'config'),
      TERM: 'dumb',
      LANG: 'C.UTF-8',
      ...extra,
    }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Splits a command line as readline does for COMP_WORDS: at blanks, and "=" and ":" apart. */
export function bashWords(line: string): string[] {
  const words = line
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((token) => token.split(/([=:]+)/).filter(Boolean));
  if (line === '' || /\s$/.test(line)) words.push('');
  return words;
}

const TIMEOUT = 15_000;

/** bash: source the script, set COMP_WORDS/COMP_CWORD as readline would, call _sched. */
export async function bashComplete(
  ws: ShellWorkspace,
  line: string,
  env: Record<string, string> = {},
): Promise<string[]> {
  const words = bashWords(line);
  // What readline sets before calling the function (with bash's default COMP_WORDBREAKS).
  const program = [
    'source "$0"',
    'COMP_LINE="$1"; shift',
    'COMP_POINT=${#COMP_LINE}',
    `COMP_WORDBREAKS=$' \\t\\n"\\'><=;|&(:'`,
    'COMP_WORDS=("$@")',
    'COMP_CWORD=$(($# - 1))',
    '_sched',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const r = await execa(
    'bash',
    ['--norc', '--noprofile', '-c', program, ws.scripts.bash, line, ...words],
    {
      env: ws.env(env),
      extendEnv: false,
      timeout: TIMEOUT,
      reject: false,
    },
  );
  if (r.exitCode !== 0 || r.stderr) {
    throw new Error(`bash completion failed (${r.exitCode}): ${r.stderr}`);
  }
  return lines(r.stdout);
}

const ZSH_DRIVER = fileURLToPath(new URL('./zsh-capture.zsh', import.meta.url));

/** zsh: an interactive zsh in a pseudo-terminal (zpty), the line typed, then TAB. */
export async function zshComplete(
  ws: ShellWorkspace,
  line: string,
  env: Record<string, string> = {},
  /** The script to source, or a directory to put on $fpath (autoloading _sched). */
  source: string = ws.scripts.zsh,
): Promise<string[]> {
  const r = await execa('zsh', ['-f', ZSH_DRIVER, source, line], {
    env: { ...ws.env(env), TMPDIR: ws.dir },
    extendEnv: false,
    timeout: TIMEOUT,
    reject: false,
  });
  if (r.exitCode !== 0) throw new Error(`zsh completion failed (${r.exitCode}): ${r.stderr}`);
  return lines(r.stdout.replace(/\r/g, ''));
}

/** fish: `complete -C` asks fish for the candidates of a command line, without a terminal. */
export async function fishComplete(
  ws: ShellWorkspace,
  line: string,
  env: Record<string, string> = {},
): Promise<string[]> {
  const r = await execa(
    'fish',
    ['--no-config', '-c', 'source $argv[1]; and complete -C $argv[2]', ws.scripts.fish, line],
    { env: ws.env(env), extendEnv: false, timeout: TIMEOUT, reject: false },
  );
  if (r.exitCode !== 0 || r.stderr) {
    throw new Error(`fish completion failed (${r.exitCode}): ${r.stderr}`);
  }
  // fish prints "candidate<TAB>description".
  return lines(r.stdout).map((l) => l.split('\t')[0]!);
}

export function complete(
  shell: ShellName,
  ws: ShellWorkspace,
  line: string,
  env: Record<string, string> = {},
): Promise<string[]> {
  return { bash: bashComplete, zsh: zshComplete, fish: fishComplete }[shell](ws, line, env);
}

function lines(s: string): string[] {
  return s.split('\n').filter((l) => l.trim() !== '');
}

/** How each shell starts interactively, and the line that loads the completion script. */
export const INTERACTIVE: Record<ShellName, { argv: string[]; setup: (script: string) => string }> =
  {
    bash: {
      argv: ['bash', '--norc', '--noprofile', '-i'],
      setup: (s) => `PS1='$ '; source ${s}`,
    },
    zsh: {
      argv: ['zsh', '-f', '-i'],
      // zsh has a `sched` builtin (zsh/sched): disabled, so that Enter runs ours.
      setup: (s) =>
        `PS1='$ '; disable sched; autoload -Uz compinit && compinit -u -D && source ${s}`,
    },
    fish: {
      argv: ['fish', '--no-config', '-i'],
      setup: (s) => `function fish_prompt; echo '$ '; end; source ${s}`,
    },
  };

/** An interactive `shell` in a terminal (tmux) with the completion script loaded, screen clear. */
export async function startShell(
  shell: ShellName,
  ws: ShellWorkspace,
  env: Record<string, string> = {},
): Promise<Terminal> {
  const { argv, setup } = INTERACTIVE[shell];
  const t = await startTerminal(argv, {
    env: ws.env({ TERM: 'xterm-256color', ...env }),
    cwd: ws.dir,
  });
  await t.type(`${setup(ws.scripts[shell])}; echo READY`);
  await t.sendKeys('Enter');
  await t.waitForScreen(/^READY$/m);
  await t.sendKeys('C-l');
  return t;
}
