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
      // dist/ is built by the test setup; --no-build keeps the run short, and the standalone
      // executable and a second Node (fetched from the registry) are left out.
      const r = await runBench([
        '--quick',
        '--no-build',
        '--no-binary',
        '--nodes',
        'current',
        '--json',
        json,
      ]);
      expect(r.code, r.stderr).toBe(0);

      const node = `Node ${process.versions.node.split('.')[0]}`;
      for (const row of [
        `${node}: node -e 0`,
        `floor GET, 1 HTTPS GET (${node})`,
        `floor --all loop, 200 types (${node})`,
        `floor POST loop, 20 links (${node})`,
        `sched --help (npm, ${node})`,
        `sched types list --json, 1 HTTPS GET (npm, ${node})`,
        'sched --help (standalone)',
        'sched types list --json, 1 HTTPS GET (standalone)',
        `sched types list --all -o ndjson, 200 types (npm, ${node})`,
        `sched link create --count 20 (npm, ${node})`,
        `peak RSS, --all 1000 types (npm, ${node})`,
        'peak RSS, webhooks listen, 30 senders stalling on 5 MB bodies',
      ]) {
        expect(r.stdout).toContain(`| ${row} `);
      }
      expect(r.stdout).toMatch(/machine: .+, \d+ cores/);
      expect(r.stdout).toMatch(/Node: v\d+\.\d+\.\d+/);
      expect(r.stdout).toMatch(/<= 1\.2x/);
      expect(r.stdout).toMatch(/<= 1\.1x/);
      // The goals are measured against the floor of the same run.
      expect(r.stdout).toMatch(
        /\| sched types list --json, 1 HTTPS GET \(npm, Node \d+\) +\| [\d.]+ +\| floor GET/,
      );

      const report = JSON.parse(readFileSync(json, 'utf8')) as { rows: Row[] };
      // Every row of the npm-installed sched was measured and passed its checks; only a missing
      // gh, curl or jq leaves a comparison out, and the standalone rows say it was not asked for.
      for (const row of report.rows) {
        if (row.name.includes('standalone')) {
          expect(row.why, row.name).toMatch(/not asked for/);
          continue;
        }
        if (row.value === 'not available') {
          expect(row.why, row.name).toMatch(/^(gh|curl|jq) not found/);
          continue;
        }
        if (row.why !== undefined) expect(row.why, row.name).toMatch(/^(gh|curl|jq) not found/);
      }
      const links = report.rows.find((row) => row.name.startsWith('sched link create'));
      if (links?.value !== 'not available') expect(links?.duplicates).toBe(0);
      const floorLinks = report.rows.find((row) => row.name.startsWith('floor POST loop'));
      expect(floorLinks?.duplicates).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 100_000);
});
