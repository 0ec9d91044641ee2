import type { Command } from 'commander';
import { type Act, examples, positiveInt } from '../define.js';

export function register(program: Command, act: Act): void {
  const link = program.command('link').description('Mint single-use booking links');
  examples(
    link
      .command('create')
      .description(
        'Create single-use links for meeting types (UUID or slug); a pick list on a terminal',
      )
      .argument('[meeting-type...]', 'meeting-type UUIDs or slugs')
      .option('--count <n>', 'links per meeting type', positiveInt('--count', 100000), 1)
      .option(
        '--concurrency <n>',
        'requests in flight at once',
        positiveInt('--concurrency', 64),
        8,
      )
      .action(act(() => import('./create.js'))),
    [
      'sched link create intro-call',
      'sched link create 3f1c9a4e-8a52-4f0e-9d7b-2c5e6a1b0d11 --count 20 > links.txt',
      'sched link create intro-call --json',
    ],
  );
}
