import type { Command } from 'commander';
import { type Act, examples } from '../define.js';

export function register(program: Command, act: Act): void {
  examples(
    program
      .command('completion')
      .description('Print the shell completion script for bash, zsh or fish')
      .argument('<shell>', 'bash, zsh or fish')
      .action(act(() => import('./print.js'))),
    [
      'sched completion bash > /etc/bash_completion.d/sched',
      'sched completion zsh > "${fpath[1]}/_sched"',
      'sched completion fish > ~/.config/fish/completions/sched.fish',
    ],
  );
}
