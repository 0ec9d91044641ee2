// The class behind issue 30's worst findings: input whose shape (depth, size, count) no test had
// tried. Every reader of outside input — recording lines (`events replay`), sync files, API
// answers (parsed and paged by the client), config files — meets adversarial generators:
// nesting to 100,000, sizes at and just past each cap, invalid UTF-8, many tiny items. Each run
// finishes (the test's timeout bounds the time; the caps bound the memory) and fails the
// documented way: an exit code from the contract and one `error:` line, never "unexpected
// failure", never a stack trace. (The listener's own body is covered with the listener.)
import fs from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fc } from '../helpers/fc.js';
import { runSched, type RunResult } from '../helpers/run.js';
import { f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { MAX_RECORDING_LINE_BYTES } from '../../src/commands/events/replay.js';
import { MAX_SYNC_FILE_BYTES } from '../../src/domain/webhooks/sync/parse.js';
import { MAX_CONFIG_BYTES } from '../../src/config/trust.js';

const RUNS = { numRuns: 25 };
let dir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'sched-hostile-inputs-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileOf(bytes: Buffer | string, name = 'in'): string {
  const p = path.join(dir, `${name}-${++n}`);
  writeFileSync(p, bytes, { mode: 0o600 });
  return p;
}

/** Exit codes of the contract, one error line first, no crash. */
function expectDocumented(r: RunResult, codes: readonly number[]): void {
  expect(codes, r.stderr).toContain(r.code);
  expect(r.stderr).not.toMatch(/unexpected failure|RangeError|Maximum call stack|\n\s+at /);
  if (r.code !== 0) expect(r.stderr).toMatch(/^error: [^\n]+\n/);
}

const deep = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

/** Shapes no test tried: deep, large, invalid UTF-8, many tiny items. */
const hostileText = fc.oneof(
  fc.integer({ min: 1, max: 100_000 }).map((d) => Buffer.from(deep(d))),
  fc
    .integer({ min: 1, max: 100_000 })
    .map((d) => Buffer.from(deep(d, '{"a":', '}').replace(/}+$/, (m) => '1' + m))),
  fc.uint8Array({ minLength: 1, maxLength: 512 }).map((a) => Buffer.from(a)),
  fc.constantFrom(
    Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
    Buffer.from('{"a":"\ud800"}'),
    Buffer.from([0xc3, 0x28]),
  ),
  fc.integer({ min: 1, max: 200_000 }).map((k) => Buffer.from('[' + '0,'.repeat(k) + '0]')),
  fc.integer({ min: 1, max: 50_000 }).map((k) => Buffer.from('{}\n'.repeat(k))),
);

describe('recording lines (events replay)', () => {
  const TO = 'http://127.0.0.1:9/never';
  it('any hostile line: exit 2 naming the line, nothing crashes', async () => {
    await fc.assert(
      fc.asyncProperty(hostileText, async (bytes) => {
        const r = await runSched(['events', 'replay', fileOf(bytes), '--to', TO]);
        expectDocumented(r, [2]);
        expect(r.stderr).toMatch(/line \d+|holds no recorded delivery/);
      }),
      RUNS,
    );
  }, 120_000);

  it('a line at the cap is read; one byte past it is refused as too long', async () => {
    const at = fileOf('{"x":"' + 'a'.repeat(MAX_RECORDING_LINE_BYTES - 8) + '"}\n');
    const r1 = await runSched(['events', 'replay', at, '--to', TO]);
    expectDocumented(r1, [2]);
    expect(r1.stderr).toContain('line 1 has no "kind"');
    const past = fileOf('{"x":"' + 'a'.repeat(MAX_RECORDING_LINE_BYTES - 7) + '"}\n');
    const r2 = await runSched(['events', 'replay', past, '--to', TO]);
    expectDocumented(r2, [2]);
    expect(r2.stderr).toContain('line 1 is longer than 31 MiB');
  }, 60_000);
});

describe('sync files (webhooks sync --file)', () => {
  let env: Record<string, string>;
  beforeAll(() => {
    // Nothing listens: a file that passes its checks then fails to connect (exit 1).
    env = {
      SCHED_BASE_URL: 'http://127.0.0.1:9/api',
      SCHED_API_KEY: 'k-hostile-1',
      SCHED_CONFIG_DIR: dir,
    };
  });
  const yamlDeep = fc
    .integer({ min: 1, max: 100_000 })
    .map((d) => Buffer.from('- '.repeat(d) + '1\n'));
  const flowDeep = fc
    .integer({ min: 1, max: 100_000 })
    .map((d) => Buffer.from('webhooks: ' + deep(d) + '\n'));
  const manyEntries = fc
    .integer({ min: 1, max: 20_000 })
    .map((k) => Buffer.from(JSON.stringify({ webhooks: Array.from({ length: k }, () => ({})) })));
  it.each(['json', 'yaml'])(
    'any hostile .%s file: exit 2 (or 1 once valid), one line',
    async (ext) => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(hostileText, yamlDeep, flowDeep, manyEntries), async (bytes) => {
          const r = await runSched(['webhooks', 'sync', '--file', fileOf(bytes, `s.${ext}`)], {
            env,
          });
          expectDocumented(r, [1, 2]);
        }),
        RUNS,
      );
    },
    180_000,
  );

  it('at the cap it is read; one byte past it is refused before parsing', async () => {
    const body = JSON.stringify({ webhooks: [] });
    const at = fileOf(body + ' '.repeat(MAX_SYNC_FILE_BYTES - body.length), 's.json');
    expectDocumented(
      await runSched(['webhooks', 'sync', '--file', at, '--dry-run'], { env }),
      [1, 2],
    );
    const past = fileOf(body + ' '.repeat(MAX_SYNC_FILE_BYTES - body.length + 1), 's.json');
    const r = await runSched(['webhooks', 'sync', '--file', past], { env });
    expectDocumented(r, [2]);
    expect(r.stderr).toContain('too large');
  }, 60_000);
});

describe('API answers (parsed and paged by the client)', () => {
  let srv: FaultServer;
  let env: Record<string, string>;
  beforeAll(async () => {
    srv = await startFaultServer();
    env = { SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: 'k-hostile-2', SCHED_CONFIG_DIR: dir };
  });
  afterAll(() => srv.close());
  it('any hostile body for a paged list: exit 0 or 1, one line, no crash', async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileText,
        fc.constantFrom(
          ['types', 'list', '--all', '-o', 'json'],
          ['webhooks', 'ls', '-o', 'ndjson'],
          ['api', '/webhooks', '--paginate'],
        ),
        async (bytes, argv) => {
          srv.clear();
          srv.fallback(f.text(200, bytes.toString('latin1'), 'application/json'));
          const r = await runSched([...argv], { env });
          expectDocumented(r, [0, 1]);
        },
      ),
      RUNS,
    );
  }, 180_000);
});

describe('config files', () => {
  it('any hostile config.json: exit 1 or 2 naming the file, or read; never a crash', async () => {
    await fc.assert(
      fc.asyncProperty(hostileText, async (bytes) => {
        const cfg = mkdtempSync(path.join(dir, 'cfg-'));
        fs.chmodSync(cfg, 0o700);
        writeFileSync(path.join(cfg, 'config.json'), bytes, { mode: 0o600 });
        const r = await runSched(['profiles', 'ls', '-o', 'json'], {
          env: { SCHED_CONFIG_DIR: cfg },
        });
        expectDocumented(r, [0, 1, 2]);
        if (r.code !== 0) expect(r.stderr).toContain(path.join(cfg, 'config.json'));
      }),
      RUNS,
    );
  }, 120_000);

  it('past its cap a config file is not read', async () => {
    const cfg = mkdtempSync(path.join(dir, 'cfg-big-'));
    fs.chmodSync(cfg, 0o700);
    const body = JSON.stringify({ profiles: {} });
    writeFileSync(
      path.join(cfg, 'config.json'),
      body + ' '.repeat(MAX_CONFIG_BYTES - body.length + 1),
      { mode: 0o600 },
    );
    const r = await runSched(['profiles', 'ls', '-o', 'json'], { env: { SCHED_CONFIG_DIR: cfg } });
    expectDocumented(r, [1]);
    expect(r.stderr).toContain('larger than 1 MiB');
    writeFileSync(path.join(cfg, 'config.json'), body + ' '.repeat(MAX_CONFIG_BYTES - body.length));
    expectDocumented(
      await runSched(['profiles', 'ls', '-o', 'json'], { env: { SCHED_CONFIG_DIR: cfg } }),
      [0],
    );
  });
});
