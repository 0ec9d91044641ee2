// One rule for which commands are shown (src/commands/define.ts: visibleCommands, read from
// each command's definition), one table over every place that lists commands: the reference
// (docs/, the man page), the completion scripts' model and the help pages. Each shows every
// command whose definition is not hidden, and none that is (`__complete`, the scripts' helper).
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli.js';
import { definitionOf } from '../../src/commands/define.js';
import { buildReference } from '../../src/docs/model.js';
import { buildSpec, type CommandSpec } from '../../src/completion/model.js';
import { TREE_FACTS } from '../../src/commands/completion/print.js';

const program = await buildProgram(() => async () => {});

/** Every command path below the root, and whether its definition hides it (or a parent's). */
function paths(c: Command, path: string[] = [], hidden = false): Array<[string, boolean]> {
  return c.commands.flatMap((k) => {
    const p = [...path, k.name()];
    const h = hidden || definitionOf(k)?.hidden === true;
    return [[p.join(' '), h] as [string, boolean], ...paths(k, p, h)];
  });
}

const ALL = paths(program);
const SHOWN = ALL.filter(([, h]) => !h).map(([p]) => p);
const HIDDEN = ALL.filter(([, h]) => h).map(([p]) => p);

function specPaths(s: CommandSpec): string[] {
  return s.subcommands.flatMap((k) => [k.path.join(' '), ...specPaths(k)]);
}

/** The commands each help page lists, as commander draws them (its own hidden flag). */
function helpPaths(c: Command, path: string[] = []): string[] {
  const help = c.createHelp();
  return help
    .visibleCommands(c)
    .filter((k) => c.commands.includes(k))
    .flatMap((k) => [[...path, k.name()].join(' '), ...helpPaths(k, [...path, k.name()])]);
}

describe.each([
  [
    'the reference (docs/, man page)',
    async () => (await buildReference()).commands.map((c) => c.path.join(' ')),
  ],
  ['the completion model', () => specPaths(buildSpec(program, TREE_FACTS).root)],
  ['the help pages', () => helpPaths(program)],
])('%s', (_where, listed) => {
  it('lists every command not declared hidden, and no hidden one', async () => {
    expect(HIDDEN).toContain('__complete');
    expect([...(await listed())].sort()).toEqual([...SHOWN].sort());
  });
});
