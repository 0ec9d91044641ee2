// The fault × command matrix (see matrix.ts for what each case checks, commands.ts and
// faults.ts for the two sides of the table).
import { describe, expect, it, vi } from 'vitest';
import { defineFaultMatrix } from './matrix.js';
import { COMMANDS } from './commands.js';
import { useFastRetries } from './fast-retry.js';

useFastRetries();

// A case mostly waits (a --timeout, a Retry-After, a backoff) and owns its server, config
// directory and in-process run: many at once keep the matrix short on a 2-core machine.
vi.setConfig({ maxConcurrency: 24 });

defineFaultMatrix();

describe('the matrix covers every command that talks to the API', () => {
  // Adding an API command to the CLI means adding its row to commands.ts; this list is the
  // contract's (CLI-CONTRACT.md) plus the hidden completion helper.
  const API_COMMANDS = [
    'types list',
    'link create',
    'webhooks add',
    'webhooks ls',
    'webhooks rm',
    'webhooks sync',
    'webhooks listen --register',
    'auth login',
    'auth status',
    'sandbox book',
    'sandbox cancel',
    'sandbox reschedule',
    '__complete meeting-types',
    '__complete webhooks',
  ];
  it.each(API_COMMANDS)('%s', (name) => {
    expect(COMMANDS.some((c) => c.name === name || c.name.startsWith(`${name} `))).toBe(true);
  });
});
