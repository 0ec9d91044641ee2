// Issue 20, point 7: paging has an end. A server announcing a billion pages (or sending more
// items a page than asked for, or an endless list of webhooks) is stopped with a clear error,
// exit 1, after a bounded number of requests; sync never holds an unbounded list.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HELD_ITEMS, MAX_PAGES } from '../../src/api/paginate.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { envelope, f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runSched } from '../helpers/run.js';
import { fakePrompter } from '../helpers/command-harness.js';
import { connectMcp } from '../helpers/mcp.js';

const config = useConfigDir('sched-sec-paging-');
let srv: FaultServer;
let dir: string;
beforeAll(async () => {
  srv = await startFaultServer();
  dir = await mkdtemp(path.join(tmpdir(), 'sched-sec-paging-'));
  await writeFile(
    path.join(dir, 'hooks.json'),
    JSON.stringify({
      webhooks: [
        { url: 'https://example.com/h', events: ['meetingScheduled'], secret: 'a-secret' },
      ],
    }),
  );
});
afterAll(async () => {
  await srv.close();
  await rm(dir, { recursive: true, force: true });
});

const TYPES = '/api/users/me/meeting-types';
const HOOKS = '/api/webhooks';

/** Every page full (as many items as asked for), claiming `pages` pages and no total. */
function endless(pathName: string, pages: number, perPage?: number) {
  let n = 0;
  return (req: { query: URLSearchParams }) => {
    const page = Number(req.query.get('page') ?? 1);
    const limit = perPage ?? Number(req.query.get('limit') ?? 10);
    const items = Array.from({ length: limit }, () => {
      n++;
      const uuid = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      return pathName === TYPES
        ? { uuid, slug: `t${n}`, name: `Type ${n}`, duration: 15 }
        : { uuid, url: `https://example.com/${n}`, events: ['meetingScheduled'] };
    });
    const body = envelope(items, { page, pages, limit, path: pathName });
    delete body.total;
    return f.json(200, body);
  };
}

const env = () => ({
  SCHED_BASE_URL: srv.baseUrl,
  SCHED_API_KEY: 'k',
  SCHED_CONFIG_DIR: config.path,
});

describe('a walk past the documented maximum of pages stops at once', () => {
  it.each([
    ['types list --all', ['types', 'list', '--all'], TYPES],
    ['types list --all -o ndjson', ['types', 'list', '--all', '-o', 'ndjson'], TYPES],
    ['api --paginate', ['api', '/users/me/meeting-types', '--paginate'], TYPES],
    ['webhooks ls --all', ['webhooks', 'ls', '--all'], HOOKS],
    ['webhooks sync --dry-run', ['webhooks', 'sync', '--file', 'FILE', '--dry-run'], HOOKS],
    ['webhooks rm --all', ['webhooks', 'rm', '--all', '--yes'], HOOKS],
  ])('%s: 1e9 pages announced, exit 1 naming the limit', async (_what, argv, route) => {
    srv.clear();
    srv.on('GET', route, endless(route, 1e9));
    const args = argv.map((a) => (a === 'FILE' ? path.join(dir, 'hooks.json') : a));
    const r = await runSched(args, { env: env() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^error: .*1000000000 pages.*at most 10000 pages/m);
    expect(srv.count('GET')).toBeLessThanOrEqual(1);
    expect(srv.count('POST') + srv.count('DELETE')).toBe(0);
  });

  it('a page with more items than asked for is refused', async () => {
    srv.clear();
    srv.on('GET', TYPES, endless(TYPES, 3, 5000));
    const r = await runSched(['types', 'list', '--all', '-o', 'ndjson'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: .*5000 items.*50 asked for/m);
  });
});

describe('a list read whole before acting is bounded', () => {
  it.each([
    ['webhooks sync --dry-run', ['webhooks', 'sync', '--file', 'FILE', '--dry-run']],
    ['webhooks rm --all', ['webhooks', 'rm', '--all', '--yes']],
    ['webhooks add --if-absent', ['webhooks', 'add', '--url', 'https://e.com/h', '--if-absent']],
  ])('%s: past the most held, exit 1 after a bounded walk', async (_what, argv) => {
    srv.clear();
    srv.on('GET', HOOKS, endless(HOOKS, MAX_PAGES));
    const args = argv.map((a) => (a === 'FILE' ? path.join(dir, 'hooks.json') : a));
    const r = await runSched(args, { env: env() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^error: .*more than ${MAX_HELD_ITEMS} `, 'm'));
    // 50 a page, a few pages in flight when it stops.
    expect(srv.count('GET')).toBeLessThanOrEqual(MAX_HELD_ITEMS / 50 + 8);
    expect(srv.count('POST') + srv.count('DELETE')).toBe(0);
  });
});

// Issue 38, finding 3: looking a meeting type up by slug or name (link create, types get, the
// pick list; MCP's create_single_use_link resolves through link create's resolver) reads the
// whole list, held: a server announcing 2,000 pages used to be read to 100,000 items. It stops
// past the promised 10,000, with one error line and a hint, after a bounded walk.
describe('a meeting-type lookup holds at most the promised items', () => {
  let asked = 0;
  const cases: Array<[string, string[], { tty?: boolean }]> = [
    ['link create <name>', ['link', 'create', 'No such type'], {}],
    ['link create <slug> <slug>', ['link', 'create', 'nope-a', 'nope-b', '--count', '2'], {}],
    ['types get <name>', ['types', 'get', 'No such type'], {}],
    ['link create (the pick list)', ['link', 'create', '--no-color'], { tty: true }],
  ];
  it.each(cases)('%s: exit 1 past 10,000 items, one error line, no link', async (_w, argv, o) => {
    srv.clear();
    srv.on('GET', TYPES, endless(TYPES, 2000));
    const prompter = fakePrompter({
      select: async () => {
        asked++;
        throw new Error('the pick list was shown');
      },
    });
    const r = await runSched(argv, { env: env(), tty: o.tty, prompter });
    expect(r.code, r.stderr).toBe(1);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
    expect(errors).toEqual([
      `error: GET ${TYPES.replace('/api', '')} lists more than ${MAX_HELD_ITEMS} items; sched reads at most ${MAX_HELD_ITEMS} before acting on a whole list; stopped, nothing was changed`,
    ]);
    expect(r.stderr).toMatch(/^hint: give the meeting type by its UUID/m);
    // 50 a page: 200 pages hold the most, plus the one past it and a few in flight.
    expect(srv.count('GET')).toBeLessThanOrEqual(MAX_HELD_ITEMS / 50 + 8);
    expect(srv.count('POST')).toBe(0);
    expect(asked).toBe(0);
  });

  it('MCP create_single_use_link by name: an error result past 10,000 items, no link', async () => {
    srv.clear();
    srv.on('GET', TYPES, endless(TYPES, 2000));
    const h = await connectMcp(
      { readOnly: undefined, allowWrite: undefined, sandbox: undefined },
      env(),
    );
    try {
      const r = await h.call('create_single_use_link', { meeting_type: 'No such type' });
      expect(r.isError, r.text).toBe(true);
      expect(r.text).toContain(`lists more than ${MAX_HELD_ITEMS} items`);
    } finally {
      await h.close();
    }
    expect(srv.count('GET')).toBeLessThanOrEqual(MAX_HELD_ITEMS / 50 + 8);
    expect(srv.count('POST')).toBe(0);
  });

  it('a UUID needs no list: used as given, whatever the server announces', async () => {
    srv.clear();
    srv.on('GET', TYPES, endless(TYPES, 2000));
    const r = await runSched(
      ['link', 'create', '00000000-0000-4000-8000-000000000001', '--count', '1', '--json'],
      { env: env() },
    );
    expect(srv.count('GET')).toBe(0);
    expect(r.stderr).not.toMatch(/more than/);
  });
});
