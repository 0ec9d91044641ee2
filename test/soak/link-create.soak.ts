// `sched link create <uuid> --count N` (10,000; 100,000 at full scale), the binary, against a server
// that answers every request with 429 in short bursts, one every eighth of the run (counted in
// links processed, not wall time, so a fast machine meets them too; Retry-After longer than a
// burst, so a request never meets more bursts than its retries): every link the server minted is printed
// exactly once, nothing else is, none twice, and the process's memory stays flat.
import { expect, it } from 'vitest';
import { startBulkServer } from '../bulk/bulk-server.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { count, memoryVerdict, report, sampleMemory, spawnLong } from './soak.js';

const LINKS = count(10_000, 100_000);
const TYPE = '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c';
/** After every BURST_EVERY links processed, the server answers everything 429 for BURST_MS. */
const BURST_EVERY = Math.floor(LINKS / 8);
const BURST_MS = 150;
const config = useConfigDir('sched-soak-link-');

it(`link create --count ${LINKS} with 429 bursts: every link printed once, flat memory`, async () => {
  const srv = await startBulkServer();
  let bursts = 0;
  const timers = new Set<NodeJS.Timeout>();
  srv.set({
    onProcessed: (n) => {
      if (n % BURST_EVERY !== 0 || n >= LINKS) return;
      bursts += 1;
      srv.set({ maxInFlight: 0, retryAfter: '0.4' });
      const t = setTimeout(() => {
        timers.delete(t);
        srv.set({ maxInFlight: undefined });
      }, BURST_MS);
      timers.add(t);
    },
  });
  const printed: string[] = [];
  const started = Date.now();
  try {
    const proc = spawnLong(
      ['link', 'create', TYPE, '--count', String(LINKS)],
      { ...srv.env, SCHED_CONFIG_DIR: config.path },
      (line) => printed.push(line),
    );
    const memory = sampleMemory(proc.pid, () => srv.created.length / LINKS);
    const end = await proc.exited;
    const seconds = (Date.now() - started) / 1000;
    // Its heap settles over the first few thousand links; judge after that.
    const mem = memoryVerdict(memory.stop(), { warmUp: 0.3 });

    expect(end.code, proc.stderr()).toBe(0);
    const created = srv.created.map((c) => c.url);
    // The server created each code once (its codes are numbered), and exactly those were printed.
    expect(created).toHaveLength(LINKS);
    expect(printed).toHaveLength(LINKS);
    expect(new Set(printed).size).toBe(LINKS);
    expect([...printed].sort()).toEqual([...created].sort());
    expect(srv.created.every((c) => c.meetingType === TYPE)).toBe(true);
    const limited = srv.rateLimited();
    expect(bursts).toBe(7);
    expect(limited).toBeGreaterThan(0);
    report(
      'link-create',
      { links: LINKS, answered429: limited, bursts, seconds: Math.round(seconds) },
      mem,
    );
    expect(mem.flat, JSON.stringify(mem)).toBe(true);
  } finally {
    for (const t of timers) clearTimeout(t);
    await srv.close();
  }
});
