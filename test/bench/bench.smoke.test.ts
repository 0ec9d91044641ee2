// A small run of `npm run bench` (--quick): it completes and reports every row, with its checks
// (link count, no duplicate codes, NDJSON line counts) passing. Timings are never asserted:
// machines are noisy, and the real run is `npm run bench` (see BENCHMARKS.md).
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = fileURLToPath(new URL('../../scripts/bench.mjs', import.meta.url));

interface Row {
  name: string;
  value: string;
  met?: string;
  why?: string;
  duplicates?: number;
}

function runBench(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BENCH, ...args],
      { timeout: 90_000, maxBuffer: 10 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('npm run bench --quick', () => {
  it('completes and prints every row with the machine it ran on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sched-bench-smoke-'));
    try {
      const json = join(dir, 'bench.json');
      // dist/ is built by the test setup; --no-build keeps the run short.
      const r = await runBench(['--quick', '--no-build', '--json', json]);
      expect(r.code, r.stderr).toBe(0);

      for (const row of [
        'sched --version',
        'sched --help',
        'sched sig verify',
        'sched types list --json (1 request)',
        'node:http GET script (the limit)',
        'sched types list --all -o ndjson (200 types)',
        'sched link create --count 20',
        'peak RSS, types list --all -o ndjson (200 types)',
        'peak RSS, types list --all -o ndjson (1000 types)',
        'peak RSS, webhooks listen, 30 senders stalling on 5 MB bodies',
      ]) {
        expect(r.stdout).toContain(`| ${row} `);
      }
      expect(r.stdout).toMatch(/machine: .+, \d+ cores/);
      expect(r.stdout).toMatch(/node v\d+\.\d+\.\d+/);

      const report = JSON.parse(readFileSync(json, 'utf8')) as { rows: Row[] };
      // Every row was measured and passed its checks; only a missing curl may leave the
      // comparisons with curl out.
      for (const row of report.rows) {
        expect(row.value, `${row.name}: ${row.why}`).not.toBe('not available');
        if (row.why !== undefined) expect(row.why, row.name).toMatch(/^(curl|jq) not found/);
      }
      const links = report.rows.find((row) => row.name.startsWith('sched link create'));
      if (links?.value !== 'not available') expect(links?.duplicates).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 100_000);
});
