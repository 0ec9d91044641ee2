// Size limits and bulk work under faults: an endless answer is cut at the client's 50 MB
// ceiling (the matrix only checks an announced Content-Length), a long valid listing streams
// whole, and bulk commands that meet a fault part-way print every result the server produced,
// re-send nothing that may have been processed, and say how far they got.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { envelope, f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { useFastRetries } from './fast-retry.js';
import {
  API_KEY,
  errorLines,
  expectNoCrash,
  expectNoSecrets,
  expectOneError,
  run,
  tempDir,
  type Run,
} from './harness.js';

useFastRetries();

const MT_UUID = '3f1c9a4e-8a52-4f0e-9d7b-2c5e6a1b0d11';
const MT_PATH = '/api/users/me/meeting-types';
let srv: FaultServer;
let cfg: Awaited<ReturnType<typeof tempDir>>;

beforeEach(async () => {
  srv = await startFaultServer();
  cfg = await tempDir('limits');
});
afterEach(async () => {
  await srv.close();
  await cfg.remove();
});

const sched = (argv: string[]) =>
  run(['--verbose', ...argv], {
    env: { SCHED_CONFIG_DIR: cfg.path, SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: API_KEY },
    watchdogMs: 30_000,
  });

function clean(r: Run, label: string): void {
  expectNoCrash(r, label);
  expectNoSecrets(r, label);
}

const lines = (s: string) => s.split('\n').filter((l) => l !== '');

describe('answers larger than the 50 MB ceiling, streamed without a length', () => {
  it('GET: refused after 50 MB, not retried (exit 1)', async () => {
    srv.on('GET', MT_PATH, f.huge(52 * 1024 * 1024));
    const r = await sched(['types', 'list']);
    clean(r, 'types list');
    expectOneError(r, 1, /larger than 50 MB; refusing to read it/);
    expect(srv.count('GET')).toBe(1);
  }, 30_000);

  it('POST: refused after 50 MB, not re-sent (exit 1)', async () => {
    srv.on('POST', '/api/single-use-link', f.huge(52 * 1024 * 1024));
    const r = await sched(['link', 'create', MT_UUID]);
    clean(r, 'link create');
    expectOneError(r, 1, /larger than 50 MB/);
    expect(srv.count('POST')).toBe(1);
  }, 30_000);
});

describe('a long valid listing', () => {
  it('types list --all streams 10,000 meeting types over 100 pages, in order', async () => {
    srv.on('GET', MT_PATH, (req) => {
      const page = Number(req.query.get('page'));
      const limit = Number(req.query.get('limit'));
      const items = Array.from({ length: limit }, (_, i) => ({
        uuid: `00000000-0000-4000-8000-${String((page - 1) * limit + i).padStart(12, '0')}`,
        name: `Type ${(page - 1) * limit + i}`,
        slug: `t${(page - 1) * limit + i}`,
        duration: 30,
      }));
      return f.json(
        200,
        envelope(items, { page, pages: 100, limit, total: 100 * limit, path: MT_PATH }),
      );
    });
    const r = await sched(['types', 'list', '--all', '--limit', '100', '-o', 'ndjson']);
    clean(r, 'types list --all');
    expect(r.code, r.stderr).toBe(0);
    const out = lines(r.stdout);
    expect(out).toHaveLength(10_000);
    expect((JSON.parse(out[9_999]!) as { slug: string }).slug).toBe('t9999');
    expect(new Set(srv.requests.map((q) => q.query.get('page'))).size).toBe(100);
  }, 30_000);
});

describe('bulk link create under faults: every minted link printed, nothing re-sent', () => {
  /** A POST handler minting numbered links; `fault(n)` may replace the n-th answer (1-based). */
  function minting(fault: (n: number) => ReturnType<typeof f.json> | undefined) {
    const minted: string[] = [];
    let n = 0;
    srv.on('POST', '/api/single-use-link', () => {
      n += 1;
      const instead = fault(n);
      if (instead) return instead;
      const url = `https://secure.simplymeet.me/s/L${n}`;
      minted.push(url);
      return f.json(200, { code: `L${n}`, url });
    });
    return minted;
  }

  it('429s part-way (with and without Retry-After) are waited out: all 40 links, each once', async () => {
    const minted = minting((n) => (n % 7 === 3 ? f.rateLimit(n % 2 ? undefined : '0') : undefined));
    const r = await sched(['link', 'create', MT_UUID, '--count', '40']);
    clean(r, 'link create');
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout).sort()).toEqual([...minted].sort());
    expect(minted).toHaveLength(40);
    const limited = srv.count('POST') - 40;
    expect(limited).toBeGreaterThan(0);
    expect(r.stderr.match(/-> 429 /g)?.length).toBe(limited);
  });

  for (const [what, fault, error] of [
    [
      'a connection reset',
      f.reset(),
      /outcome of POST http:\/\/\S+\/api\/single-use-link is unknown/,
    ],
    ['a 500', f.json(500, { message: 'boom' }), /failed with 500/],
    ['a broken answer', f.brokenJson(), /invalid JSON/],
  ] as const) {
    it(`${what} at the 12th of 40: stops, prints the links made, re-sends nothing`, async () => {
      const minted = minting((n) => (n === 12 ? fault : undefined));
      const r = await sched(['link', 'create', MT_UUID, '--count', '40', '--concurrency', '4']);
      clean(r, 'link create');
      expect(r.code).toBe(1);
      const printed = lines(r.stdout);
      // Every link the server minted is on stdout (in order): none lost, none invented.
      expect([...printed].sort()).toEqual([...minted].sort());
      expect(srv.count('POST')).toBe(minted.length + 1);
      const [line] = errorLines(r.stderr);
      expect(line).toMatch(new RegExp(`created ${printed.length} of 40 links`));
      expect(line).toMatch(error);
      expect(r.stderr).toMatch(/the other \d+ links? (was|were) not (created|shown)/);
    });
  }
});

describe('bulk deletes under faults', () => {
  const uuid = (i: number) => `0d5c7a52-9a43-4c55-8d6f-${String(i).padStart(12, '0')}`;

  it('rm of three UUIDs, one unknown: the other two deleted, exit 5 naming it', async () => {
    srv.on('DELETE', '/api/webhooks/*', (req) =>
      req.path.endsWith(uuid(2)) ? f.json(404, { message: 'Not found' }) : f.status(204),
    );
    const r = await sched(['webhooks', 'rm', uuid(1), uuid(2), uuid(3)]);
    clean(r, 'rm');
    expectOneError(r, 5, new RegExp(`no webhook with UUID ${uuid(2)}`));
    expect(lines(r.stdout).sort()).toEqual([uuid(1), uuid(3)]);
  });

  it('rm --all: a reset DELETE is retried; one already gone counts as deleted by someone else', async () => {
    const hooks = [1, 2, 3, 4].map((i) => ({
      uuid: uuid(i),
      url: `https://example.com/${i}`,
      events: ['meetingScheduled'],
      secret: null,
      created_at: 'now',
    }));
    srv.on('GET', '/api/webhooks', f.json(200, envelope(hooks)));
    const seen = new Map<string, number>();
    srv.on('DELETE', '/api/webhooks/*', (req) => {
      const n = (seen.get(req.path) ?? 0) + 1;
      seen.set(req.path, n);
      if (req.path.endsWith(uuid(2)) && n === 1) return f.reset();
      if (req.path.endsWith(uuid(3))) return f.json(404, { message: 'Not found' });
      return f.status(204);
    });
    const r = await sched(['webhooks', 'rm', '--all', '--yes']);
    clean(r, 'rm --all');
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout).sort()).toEqual([uuid(1), uuid(2), uuid(4)]);
    expect(r.stderr).toMatch(new RegExp(`1 webhook had already been deleted: ${uuid(3)}`));
  });
});
