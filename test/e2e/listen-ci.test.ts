// The CI-wait loop on the built binary, run as a real shell script (test/e2e/scripts/ci-wait.sh):
// `webhooks listen --json --count 2 --register` in the background, wait for its
// {"listening":"<url>"} line, book and cancel in the sandbox, read the two deliveries, exit 0 —
// and nothing left registered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellHome } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { onSomePort, PORT_IN_USE } from '../helpers/ports.js';

const SCRIPT = fileURLToPath(new URL('./scripts/ci-wait.sh', import.meta.url));

let sb: TestSandbox;
let dir: string;
let home: Record<string, string>;
beforeAll(async () => {
  sb = await startTestSandbox();
  dir = await mkdtemp(join(tmpdir(), 'sched-ci-wait-'));
  home = await shellHome(dir);
});
afterAll(async () => {
  await sb.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a CI script waits for webhooks listen, triggers, and reads the results', () => {
  it('two deliveries arrive, verified; listen exits 0 by itself and deletes its webhook', async () => {
    const r = await onSomePort(async (port) => {
      const run = await execa('bash', [SCRIPT, String(port)], {
        cwd: dir,
        env: { ...home, ...sb.env },
        extendEnv: false,
        reject: false,
        timeout: 40_000,
      });
      if (run.exitCode !== 0 && /already in use/.test(run.stderr)) return PORT_IN_USE;
      return { ...run, port };
    });
    expect(r.exitCode, `stdout:\n${r.stdout}\nstderr:\n${r.stderr}`).toBe(0);
    const lines = r.stdout.split('\n');
    expect(JSON.parse(lines[0]!)).toEqual({ listening: `http://127.0.0.1:${r.port}/` });
    const deliveries = lines.slice(1, 3).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(deliveries.map((d) => [d.event, d.signature, d.path])).toEqual([
      ['meetingScheduled', 'valid', '/hook'],
      ['meetingCancelled', 'valid', '/hook'],
    ]);
    expect(deliveries[0]).toMatchObject({
      invitee: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    expect(lines.slice(3)).toEqual(['listen exit 0', 'recorded 2']);
    expect(r.stderr).toMatch(
      /^ready; stopping after 2 deliveries or after 20 s at most, or on Ctrl-C$/m,
    );
    expect(r.stderr).toMatch(
      /stopped listening on .* after 2 deliveries; deleted webhook [0-9a-f-]{36}$/,
    );
    const hooks = (await (await sb.api('/webhooks')).json()) as { _embedded: { items: unknown[] } };
    expect(hooks._embedded.items).toEqual([]);
  }, 60_000);
});
