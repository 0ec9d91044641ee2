// One entry for the three generators, so `sched completion <shell>` and the drift test agree.
import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { buildSpec, type Shell, type TreeFacts } from './model.js';
import { zshScript } from './zsh.js';
import { COMMAND_NAMES } from '../names.js';

/**
 * The bash and zsh scripts are the same under either name the tool is installed as (they
 * complete both; their functions are named for `sched`); fish loads a file per command name,
 * so its script is for the name it was asked under.
 */
export function completionScript(shell: Shell, program: Command, facts: TreeFacts): string {
  const spec = buildSpec(program, facts);
  const both = { ...spec, program: COMMAND_NAMES[0] };
  switch (shell) {
    case 'bash':
      return bashScript(both);
    case 'zsh':
      return zshScript(both);
    case 'fish':
      return fishScript(spec);
  }
}
