// Two `sched webhooks sync --prune` runs racing on the same file against the sandbox (the
// binaries), round after round from a different starting state each time (some webhooks
// missing, some with other events, duplicates, strays): after the race and at most one more
// run, the sandbox holds exactly the file's webhooks, each URL once; a run after that changes
// nothing. The sandbox's memory stays flat over the rounds.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useConfigDir } from '../helpers/config-dir.js';
import { spawnSched as runOnce } from '../helpers/run.js';
import { count, memoryVerdict, report, sampleMemory, startSandboxBinary } from './soak.js';
import { EVENT_NAMES } from '../../src/api/types.js';

const ROUNDS = count(5, 50);
const config = useConfigDir('sched-soak-sync-');
const ALL = [...EVENT_NAMES];
const FILE_HOOKS = Array.from({ length: 6 }, (_, i) => ({
  url: `https://hooks.example.com/app/${i}`,
  events: i % 2 === 0 ? ['meetingScheduled'] : ALL,
  secretEnv: 'SOAK_SYNC_SECRET',
}));

interface Hook {
  uuid: string;
  url: string;
  events: string[];
}

it(`webhooks sync --prune: two runs racing, ${ROUNDS} rounds, converge with no duplicate`, async () => {
  const sandbox = await startSandboxBinary();
  const { baseUrl, apiKey } = sandbox;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
  const hooks = async () =>
    ((await api('GET', '/webhooks?limit=100')) as { _embedded: { items: Hook[] } })._embedded.items;
  const file = join(mkdtempSync(join(tmpdir(), 'sched-soak-sync-')), 'webhooks.json');
  writeFileSync(file, JSON.stringify({ webhooks: FILE_HOOKS }));
  const env = {
    SCHED_BASE_URL: baseUrl,
    SCHED_API_KEY: apiKey,
    SCHED_CONFIG_DIR: config.path,
    SOAK_SYNC_SECRET: 'whsec_soak_sync',
  };
  const sync = (...extra: string[]) =>
    runOnce(['webhooks', 'sync', '--file', file, '--prune', '--json', ...extra], {
      env,
      timeout: 60_000,
    });

  let done = 0;
  const memory = sampleMemory(sandbox.pid, () => done / ROUNDS);
  const started = Date.now();
  let secondRuns = 0;
  let lostRace = 0;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // A starting state that differs by round: what is already there, and how.
      for (const h of await hooks()) await api('DELETE', `/webhooks/${h.uuid}`);
      for (const [i, h] of FILE_HOOKS.entries()) {
        const mode = (round + i) % 4;
        if (mode === 1) await api('POST', '/webhooks', { url: h.url, events: h.events });
        if (mode === 2)
          await api('POST', '/webhooks', { url: h.url, events: ['meetingCancelled'] });
        if (mode === 3) {
          await api('POST', '/webhooks', { url: h.url, events: h.events });
          await api('POST', '/webhooks', { url: h.url, events: h.events });
        }
      }
      for (let s = 0; s < round % 3; s++) {
        await api('POST', '/webhooks', {
          url: `https://stray.example.com/${round}/${s}`,
          events: ALL,
        });
      }

      const race = await Promise.all([sync(), sync()]);
      for (const r of race) {
        // A run may lose the race on a webhook (the other deleted it first); it must say so
        // plainly, never crash.
        expect([0, 1], r.stderr).toContain(r.code);
        expect(r.stdout + r.stderr).not.toContain('\n    at ');
        if (r.code !== 0) lostRace += 1;
      }
      const converged = (list: Hook[]) =>
        list.length === FILE_HOOKS.length &&
        FILE_HOOKS.every((h) => {
          const same = list.filter((w) => w.url === h.url);
          return (
            same.length === 1 && [...same[0]!.events].sort().join() === [...h.events].sort().join()
          );
        });
      if (!converged(await hooks())) {
        secondRuns += 1;
        const again = await sync();
        expect(again.code, again.stderr).toBe(0);
      }
      const final = await hooks();
      expect(converged(final), JSON.stringify(final)).toBe(true);
      expect(new Set(final.map((w) => w.url)).size).toBe(final.length);
      const check = await sync('--dry-run');
      expect(check.code, check.stderr).toBe(0);
      const plan = JSON.parse(check.stdout) as Record<string, unknown[]>;
      expect([plan.created, plan.replaced, plan.deleted].map((l) => l?.length)).toEqual([0, 0, 0]);
      done += 1;
    }
  } finally {
    sandbox.child.kill('SIGTERM');
    await sandbox.exited;
  }
  const mem = memoryVerdict(memory.stop());
  report(
    'sync-race',
    {
      rounds: ROUNDS,
      neededAnotherRun: secondRuns,
      raceRunsExit1: lostRace,
      seconds: Math.round((Date.now() - started) / 1000),
    },
    mem,
  );
  expect(mem.flat, JSON.stringify(mem)).toBe(true);
});
