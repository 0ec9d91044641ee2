// The sandbox's client commands (book, cancel, reschedule, meetings, deliveries) show and take
// only their own options: the server's (`sched sandbox --port …`) are a usage error there,
// never silently ignored, and their help does not list them (nor a second --api-key).
import { describe, expect, it } from 'vitest';
import { runSched } from '../helpers/run.js';

const UUID = '0f0e0d0c-0b0a-4908-8706-050403020100';
const CLIENTS: Record<string, string[]> = {
  book: ['book', 'abc123'],
  cancel: ['cancel', UUID],
  reschedule: ['reschedule', UUID, '--at', '2030-01-01T10:00:00Z'],
  meetings: ['meetings'],
  deliveries: ['deliveries'],
};
const SERVER_OPTIONS: Array<[string, string]> = [
  ['--port', '4999'],
  ['--state', 'state.json'],
  ['--faults', 'faults.json'],
  ['--seed', '7'],
  ['--types', '3'],
];

describe('sandbox client commands', () => {
  describe.each(Object.entries(CLIENTS))('%s', (name, argv) => {
    it.each(SERVER_OPTIONS)('refuses the server option %s (exit 2, nothing sent)', async (o, v) => {
      // A base URL nothing listens on: a request would say "cannot connect" instead.
      for (const line of [
        ['sandbox', ...argv, o, v],
        ['sandbox', o, v, ...argv],
      ]) {
        const r = await runSched([...line, '--base-url', 'http://127.0.0.1:9/api']);
        expect(r.stderr).toBe(
          `error: ${o} is an option of \`sched sandbox\` (the server), not of \`sched sandbox ${name}\`\n` +
            `hint: \`sched sandbox ${name} --help\` lists its options\n`,
        );
        expect(r.code).toBe(2);
      }
    });

    it('lists only its own options and the global ones in its help', async () => {
      const r = await runSched(['sandbox', name, '--help']);
      for (const [o] of SERVER_OPTIONS) expect(r.stdout).not.toContain(o);
      expect(r.stdout).not.toContain('--host');
      expect(r.stdout.match(/--api-key/g)?.length ?? 0).toBeLessThanOrEqual(1);
      expect(r.stdout).toContain('--json');
    });
  });
});
