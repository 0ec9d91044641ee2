import type { Command } from 'commander';
import { type Act, collect, examples, positiveInt } from '../define.js';

export function register(program: Command, act: Act): void {
  const types = program.command('types').description('Read your meeting types');
  examples(
    types
      .command('list')
      .alias('ls')
      .description('List meeting types (one page, or every page with --all)')
      .option('--page <n>', 'page number to read', positiveInt('--page'))
      .option('--limit <n>', 'page size (items per page)', positiveInt('--limit'))
      .option('--all', 'read every page')
      .option(
        '--sort <field[:dir]>',
        'sort by a field, asc or desc (repeatable), e.g. name:asc',
        collect,
      )
      .action(act(() => import('./list.js'))),
    [
      'sched types list',
      'sched types list --all --sort name:asc -o csv > types.csv',
      "sched types list --json | jq -r '.[].slug'",
    ],
  );
}
