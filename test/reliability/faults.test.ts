// The fault × command matrix (see matrix.ts for what each case checks, commands.ts and
// faults.ts for the two sides of the table).
import { describe, expect, it, vi } from 'vitest';
import { defineFaultMatrix } from './matrix.js';
import { COMMANDS } from './commands.js';
import { useFastRetries } from './fast-retry.js';
import { apiCommands, commandLeaves } from './command-tree.js';

useFastRetries();

// A case mostly waits (a --timeout, a Retry-After, a backoff) and owns its server, config
// directory and in-process run: many at once keep the matrix short on a 2-core machine.
vi.setConfig({ maxConcurrency: 24 });

defineFaultMatrix();

describe('the matrix covers every command that talks to the API', () => {
  // Derived from the real command tree (command-tree.ts): a new command that asks for an API
  // client fails here until commands.ts has its row.
  const row = (name: string) =>
    COMMANDS.some((c) => c.name === name || c.name.startsWith(`${name} `));

  it('every command of the tree that talks to the API has a row', async () => {
    const api = await apiCommands();
    expect(
      api.filter((name) => !row(name)),
      'API commands without a row in commands.ts',
    ).toEqual([]);
  });

  it('the classification sees the API commands and only them', async () => {
    const api = await apiCommands();
    // A classifier that found nothing would pass the test above: pin a few of each side.
    expect(api).toEqual(
      expect.arrayContaining(['types list', 'webhooks sync', 'auth login', 'sandbox book']),
    );
    expect(api).toContain('__complete meeting-types');
    for (const offline of ['sig sign', 'events sample', 'completion', '__complete profiles']) {
      expect(api).not.toContain(offline);
    }
  });

  it('every row names a command of the tree', async () => {
    const paths = (await commandLeaves()).map((l) => l.path);
    for (const c of COMMANDS) {
      const words = c.name.split(' ');
      const known = words.some((_, i) => paths.includes(words.slice(0, i + 1).join(' ')));
      expect(known, `row "${c.name}" names no command`).toBe(true);
    }
  });
});
