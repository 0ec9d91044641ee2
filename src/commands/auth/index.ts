import type { Command } from 'commander';
import { type Act, examples } from '../define.js';

export function register(program: Command, act: Act): void {
  const auth = program.command('auth').description('Log in, check and log out');
  examples(
    auth
      .command('login')
      .description('Store an API key for a profile after checking it against the API')
      .option('--with-key', 'read the API key from stdin (for CI)')
      .action(act(() => import('./login.js'))),
    [
      'sched auth login',
      'printf %s "$SCHED_KEY" | sched auth login --with-key --base-url https://secure.simplymeet.me/api',
    ],
  );
  examples(
    auth
      .command('status')
      .description('Show the profile, base URL, key (masked) and whether the API accepts it')
      .action(act(() => import('./status.js'))),
    ['sched auth status', 'sched auth status --json --profile staging'],
  );
  examples(
    auth
      .command('logout')
      .description('Remove the stored API key of the profile')
      .action(act(() => import('./logout.js'))),
    ['sched auth logout', 'sched auth logout --profile staging'],
  );
}
