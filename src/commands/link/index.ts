import { ALL_FORMATS, command } from '../define.js';
import { createInput } from './inputs.js';

export const link = command({
  name: 'link',
  description: 'Mint single-use booking links',
  commands: [
    command({
      name: 'create',
      description:
        'Create single-use links for meeting types (UUID or slug); a pick list on a terminal',
      input: createInput,
      examples: [
        'sched link create intro-call',
        'sched link create 3f1c9a4e-8a52-4f0e-9d7b-2c5e6a1b0d11 --count 20 > links.txt',
        'sched link create intro-call --json',
      ],
      json: '{"code","url"} when exactly one link was asked for, else an array of them; without --json one link URL per line',
      formats: ALL_FORMATS,
      load: () => import('./create.js'),
    }),
  ],
});
