// The names the tool is installed under (package.json "bin"). `sched` is its name; zsh has a
// builtin of that name (its zsh/sched module, present even with no rc files) that wins over
// PATH, so the same program is also installed as `schedcli`, a name no shell, Debian package
// or npm package uses. Usage lines, help and the commands quoted in messages name the program
// as it was invoked, so a zsh user who typed `schedcli` is never told to run `sched …`.
// Imports nothing: read by process-main.ts before the CLI loads.

export const COMMAND_NAMES = ['sched', 'schedcli'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/**
 * The name the program was invoked as, from the path that started it (`process.argv[1]`: the
 * link npm made, `…/bin/schedcli`, or the standalone executable): one of COMMAND_NAMES, else
 * `sched` (a clone's `bin/sched.js`, a renamed executable such as `sched-linux-x64`).
 */
export function invokedName(path: string | undefined): CommandName {
  const base = (path ?? '')
    .split(/[\\/]/)
    .pop()!
    .replace(/\.(c?js|mjs|exe)$/i, '');
  return (COMMAND_NAMES as readonly string[]).includes(base) ? (base as CommandName) : 'sched';
}

/**
 * A message written for `sched` as the invoked name says it: each command quoted in it
 * (`` `sched auth login` ``) names the program the user typed.
 */
export function asInvoked(text: string, name: string): string {
  return name === COMMAND_NAMES[0] ? text : text.replace(/`sched(?=[ `])/g, `\`${name}`);
}
