// Bulk links and streaming lists through the built binary: a real SIGINT part-way through
// `link create --count`, a real shell pipe into `head -1`, and a rate-limited run.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { BIN, spawnSched } from '../helpers/run.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { startBulkServer, typeItem, type BulkServer } from './bulk-server.js';
import { until } from '../helpers/until.js';

const A = '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c';

let srv: BulkServer;
const config = useConfigDir('sched-bulk-e2e-');
let env: Record<string, string>;

beforeAll(async () => {
  srv = await startBulkServer();
  env = { ...srv.env, SCHED_CONFIG_DIR: config.path };
});
afterAll(async () => {
  await srv.close();
});
beforeEach(() => srv.reset());

const lines = (s: string) => s.split('\n').filter(Boolean);

describe('bulk commands (built binary)', () => {
  it('link create --count 1000 --concurrency 16: every link once, and nothing on stderr (no MaxListenersExceededWarning)', async () => {
    const r = await execa(
      process.execPath,
      [BIN, 'link', 'create', A, '--count', '1000', '--concurrency', '16'],
      { env: { ...env, NO_COLOR: '1' }, reject: false, timeout: 60_000 },
    );
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const printed = lines(String(r.stdout));
    expect(printed).toHaveLength(1000);
    expect(new Set(printed).size).toBe(1000);
    expect(srv.created).toHaveLength(1000);
  });

  it('SIGINT during link create --count: links of requests in flight printed, exit 130, the count on stderr', async () => {
    srv.set({ delayMs: () => 25 });
    const child = execa(process.execPath, [BIN, 'link', 'create', A, '--count', '500'], {
      env: { ...env, NO_COLOR: '1' },
      reject: false,
      timeout: 20_000,
      stripFinalNewline: false,
    });
    await until(() => srv.created.length >= 20, '20 links created', undefined, { unless: child });
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    const printed = lines(String(r.stdout));
    // Printed == created by the server, whatever was in flight at the signal.
    expect([...printed].sort()).toEqual(srv.created.map((c) => c.url).sort());
    expect(printed.length).toBeGreaterThanOrEqual(20);
    expect(printed.length).toBeLessThan(500);
    const stderr = String(r.stderr);
    expect(stderr).toContain(
      `interrupted: created ${printed.length} of 500 links (printed on stdout)`,
    );
    expect(stderr).toContain(`the other ${500 - printed.length} links were not created`);
    expect(stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
    // stderr is a pipe here: no progress bar, no terminal control codes.
    expect(stderr).not.toContain('\r');
    expect(stderr).not.toContain('Creating links');
  });

  it('a rate-limited link create --count 200 still mints every link exactly once', async () => {
    srv.set({ maxInFlight: 3, delayMs: () => 10, rateLimitDelayMs: 10 });
    const r = await spawnSched(['link', 'create', A, '--count', '200', '--concurrency', '8'], {
      env,
    });
    expect(r.code).toBe(0);
    const printed = lines(r.stdout);
    expect(printed).toHaveLength(200);
    expect(new Set(printed).size).toBe(200);
    expect([...printed].sort()).toEqual(srv.created.map((c) => c.url).sort());
    expect(srv.rateLimited()).toBeGreaterThan(0);
    expect(r.stderr).toContain('The service is rate limiting (429)');
  });

  for (const format of [['-o', 'ndjson'], []]) {
    const name = format.length ? 'ndjson' : 'TSV';
    it(`types list --all | head -1 (${name}) ends quietly with exit 0 and stops reading pages`, async () => {
      srv.set({ listTotal: 50_000 });
      const r = await execa(
        'bash',
        ['-c', `set -o pipefail; "$NODE" "$BIN" types list --all ${format.join(' ')} | head -1`],
        {
          env: { ...process.env, ...env, NODE: process.execPath, BIN },
          reject: false,
          timeout: 20_000,
        },
      );
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      const out = String(r.stdout).split('\n');
      expect(out).toHaveLength(1);
      expect(out[0]).toContain(typeItem(0).uuid as string);
      // 50,000 types are 1,000 pages; it stopped soon after nobody read its output.
      expect(srv.arrivals.length).toBeLessThan(100);
    });
  }
});
