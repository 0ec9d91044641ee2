import { ALL_FORMATS, command } from '../define.js';
import { listInput } from './inputs.js';

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
      ],
      json: 'an array of the meeting-type objects the API returned ({"uuid","name","slug","duration",...})',
      formats: ALL_FORMATS,
      load: () => import('./list.js'),
    }),
  ],
});
