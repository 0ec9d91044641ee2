// One entry for the three generators, so `sched completion <shell>` and the drift test agree.
import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { buildSpec, type Shell, type TreeFacts } from './model.js';
import { zshScript } from './zsh.js';

export function completionScript(shell: Shell, program: Command, facts: TreeFacts): string {
  const spec = buildSpec(program, facts);
  switch (shell) {
    case 'bash':
      return bashScript(spec);
    case 'zsh':
      return zshScript(spec);
    case 'fish':
      return fishScript(spec);
  }
}
