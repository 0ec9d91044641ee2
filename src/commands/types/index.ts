import { ALL_FORMATS, command } from '../define.js';
import { getInput, listInput } from './inputs.js';

export const types = command({
  name: 'types',
  description: 'Read your meeting types',
  commands: [
    command({
      name: 'list',
      aliases: ['ls'],
      description: 'List meeting types (one page, or every page with --all)',
      input: listInput,
      examples: [
        'sched types list',
        'sched types list --all --sort name:asc -o csv > types.csv',
        "sched types list --json | jq -r '.[].slug'",
        'sched types list --name intro   # name or slug contains "intro", any case',
      ],
      json: 'an array of the meeting-type objects the API returned ({"uuid","name","slug","duration",...})',
      formats: ALL_FORMATS,
      load: () => import('./list.js'),
    }),
    command({
      name: 'get',
      description: 'Show one meeting type, by UUID, slug or name',
      input: getInput,
      examples: [
        'sched types get intro-call',
        'sched types get "Intro call" --json',
        'sched types get 3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c -q   # just its UUID',
      ],
      json: 'the meeting-type object the API returned ({"uuid","name","slug","duration",...})',
      exitCodes: [
        [2, 'the name or slug names several meeting types'],
        [5, 'no meeting type has that UUID, slug or name'],
      ],
      formats: ALL_FORMATS,
      load: () => import('./get.js'),
    }),
  ],
});
