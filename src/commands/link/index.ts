import {
  ALL_FORMATS,
  arg,
  command,
  flag,
  input,
  type InputOf,
  positiveInt,
  value,
} from '../define.js';

/** More links than this in one run is asked about first on a terminal (an extra zero typed). */
export const LARGE_BATCH = 1000;

export const createInput = input({
  args: [
    arg(
      '[meeting-type...]',
      'meeting types: UUID, slug, or name as people see it ("Intro call"; case ignored)',
    ),
  ],
  options: [
    value('--count <n>', 'links per meeting type', {
      parse: positiveInt('--count', 100000),
      default: 1,
    }),
    value('--concurrency <n>', 'requests in flight at once', {
      parse: positiveInt('--concurrency', 64),
      default: 8,
    }),
    flag(
      '-y, --yes',
      `do not ask before more than ${LARGE_BATCH.toLocaleString('en')} links (asked only on a terminal)`,
    ),
  ],
});
export type LinkCreateOptions = InputOf<typeof createInput>;

export const link = command({
  name: 'link',
  description: 'Mint single-use booking links',
  commands: [
    command({
      name: 'create',
      description:
        'Create single-use links for meeting types (UUID, slug or name); a pick list on a terminal',
      input: createInput,
      examples: [
        'sched link create intro-call',
        'sched link create 3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c --count 20 > links.txt',
        'sched link create "Intro call" discovery-session --count 2 -o csv',
        'sched link create intro-call --json',
      ],
      json:
        '{"code","url"} when exactly one link was asked for, else an array of them (`-o ndjson`: one per line), ' +
        'in argument order, then link order. With several meeting types, each object also has ' +
        '"meeting_type" (as given) and "meeting_type_uuid", so a script can tell which link is for which; ' +
        'with one, the objects are exactly as the API returned them. Without --json one link URL per line',
      formats: ALL_FORMATS,
      load: () => import('./create.js'),
    }),
  ],
});
