import { ALL_FORMATS, command } from '../define.js';
import { createInput } from './inputs.js';

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
