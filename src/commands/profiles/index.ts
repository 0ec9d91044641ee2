import type { Command } from 'commander';
import { type Act, examples } from '../define.js';

export function register(program: Command, act: Act): void {
  const profiles = program.command('profiles').description('List configured profiles');
  examples(
    profiles
      .command('ls')
      .alias('list')
      .description('List every profile with its base URL and whether a key is stored')
      .action(act(() => import('./ls.js'))),
    ['sched profiles ls', 'sched profiles ls --json'],
  );
}
