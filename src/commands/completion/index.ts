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
  // Hidden: the completion scripts ask it for values known only at run time.
  examples(
    program
      .command('__complete', { hidden: true })
      .description('List completion candidates (used by the completion scripts)')
      .argument('<kind>', 'profiles, meeting-types or webhooks')
      .action(act(() => import('../../completion/dynamic.js'))),
    ['sched __complete profiles', 'sched --timeout 2 __complete meeting-types'],
  );
}
