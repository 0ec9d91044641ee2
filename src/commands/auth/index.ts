import { DEFAULT_SANDBOX_BASE_URL } from '../../defaults.js';
import { ALL_FORMATS, command, TEXT_OR_JSON } from '../define.js';
import { loginInput } from './inputs.js';
import { shellCommand } from '../../text/quote.js';

export const auth = command({
  name: 'auth',
  description: 'Log in, check and log out',
  commands: [
    command({
      name: 'login',
      description: 'Store an API key for a profile after checking it against the API',
      input: loginInput,
      examples: [
        'sched auth login',
        '# CI, the key from a secret: printf %s "$SCHED_KEY" | sched auth login --with-key --base-url https://secure.simplymeet.me/api',
        'printf %s sandbox_test_key | ' +
          shellCommand`sched auth login --with-key --profile sandbox --base-url ${DEFAULT_SANDBOX_BASE_URL}`,
      ],
      formats: TEXT_OR_JSON,
      load: () => import('./login.js'),
    }),
    command({
      name: 'status',
      description: 'Show the profile, base URL, key (masked) and whether the API accepts it',
      examples: ['sched auth status', 'sched auth status --json --profile staging'],
      json: '{"profile","baseUrl","baseUrlSource","keySource","key","valid"}; baseUrlSource is flag, env, profile or default, keySource env or profile, key masked',
      exitCodes: [[4, 'there is no key, or the API rejects it']],
      formats: ALL_FORMATS,
      load: () => import('./status.js'),
    }),
    command({
      name: 'logout',
      description: 'Remove the stored API key of the profile',
      examples: ['sched auth logout', 'sched auth logout --profile staging'],
      json: '{"profile","removed"}',
      formats: TEXT_OR_JSON,
      load: () => import('./logout.js'),
    }),
  ],
});
