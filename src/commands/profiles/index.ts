import { ALL_FORMATS, command } from '../define.js';

export const profiles = command({
  name: 'profiles',
  description: 'List configured profiles',
  commands: [
    command({
      name: 'ls',
      aliases: ['list'],
      description: 'List every profile with its base URL and whether a key is stored',
      examples: ['sched profiles ls', 'sched profiles ls --json'],
      json: '[{"name","baseUrl","hasKey"}]',
      formats: ALL_FORMATS,
      load: () => import('./ls.js'),
    }),
  ],
});
