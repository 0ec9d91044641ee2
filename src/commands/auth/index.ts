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
      description:
        'Store an API key (or a command that prints it) for a profile after checking it against the API',
      input: loginInput,
      examples: [
        'sched auth login',
        '# CI, the key from a secret: printf %s "$SCHED_KEY" | sched auth login --with-key --base-url https://secure.simplymeet.me/api',
        'printf %s sandbox_test_key | ' +
          shellCommand`sched auth login --with-key --profile sandbox --base-url ${DEFAULT_SANDBOX_BASE_URL}`,
        '# the key kept in the OS secret store (stored with: secret-tool store --label=sched service sched):',
        "sched auth login --key-command 'secret-tool lookup service sched'",
      ],
      formats: TEXT_OR_JSON,
      load: () => import('./login.js'),
    }),
    command({
      name: 'status',
      description: 'Show the profile, base URL, key (masked) and whether the API accepts it',
      examples: ['sched auth status', 'sched auth status --json --profile staging'],
      json: '{"profile","baseUrl","baseUrlSource","keySource","key","valid"}; baseUrlSource is flag, env, profile or default, keySource env, profile or command, key masked',
      exitCodes: [[4, 'there is no key (or its key command fails), or the API rejects it']],
      formats: ALL_FORMATS,
      load: () => import('./status.js'),
    }),
    command({
      name: 'logout',
      description: 'Remove the stored API key (or key command) of the profile',
      examples: ['sched auth logout', 'sched auth logout --profile staging'],
      json: '{"profile","removed"}',
      formats: TEXT_OR_JSON,
      load: () => import('./logout.js'),
    }),
  ],
});
