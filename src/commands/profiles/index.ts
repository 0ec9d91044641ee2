import { ALL_FORMATS, command } from '../define.js';

export const profiles = command({
  name: 'profiles',
  description: 'List configured profiles',
  commands: [
    command({
      name: 'ls',
      aliases: ['list'],
      description:
        'List every profile with its base URL and whether a key is stored (or a command that prints it)',
      examples: ['sched profiles ls', 'sched profiles ls --json'],
      json: '[{"name","baseUrl","hasKey","keyCommand"}]; keyCommand: the key is printed by a stored command (KEY "command" in tables)',
      formats: ALL_FORMATS,
      load: () => import('./ls.js'),
    }),
  ],
});
