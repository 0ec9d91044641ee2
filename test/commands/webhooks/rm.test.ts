// `sched webhooks rm` in-process against the sandbox (and a fault server for failures part-way):
// the three modes, local checks, confirmation, --yes, 404s, partial results.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runSched, type RunOptions } from '../../helpers/run.js';
import { envelope, f, startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import type { Prompter } from '../../../src/prompt.js';
import { fakePrompter, lines, useSandbox } from '../../helpers/command-harness.js';

const URL_A = 'https://hooks.example.com/a';
const URL_B = 'https://hooks.example.com/b';
const MISSING = '00000000-0000-4000-8000-000000000000';

const h = useSandbox();
const whRm = (args: string[], opts: RunOptions = {}) => h.run(['webhooks', 'rm', ...args], opts);

async function seed(urls: string[]): Promise<string[]> {
  const uuids: string[] = [];
  for (const url of urls) {
    const res = await h.sb.api('/webhooks', {
      method: 'POST',
      body: JSON.stringify({ url, events: ['meetingScheduled'], secret: 'x' }),
    });
    uuids.push(((await res.json()) as { uuid: string }).uuid);
  }
  h.sb.requests.length = 0;
  return uuids;
}

const deletes = () => h.sb.requests.filter((r) => r.method === 'DELETE');

function confirming(answer: boolean, seen: string[] = []): Prompter {
  return fakePrompter({ confirm: async (m: string) => (seen.push(m), answer) });
}

describe('webhooks rm: choosing what to delete (checked before any request)', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['nothing', [], /give their UUIDs, --url <url>, or --all/],
    ['UUIDs and --all', [MISSING, '--all', '--yes'], /not more than one/],
    ['--url and --all', ['--url', URL_A, '--all', '--yes'], /not more than one/],
    ['a malformed UUID', [MISSING, 'abc-123'], /not a webhook UUID: "abc-123"/],
    ['a malformed --url', ['--url', 'nope', '--yes'], /--url must be an absolute http/],
    [
      '--all without --yes and no terminal',
      ['--all'],
      /--all deletes without asking only with --yes/,
    ],
    [
      '--url without --yes and no terminal',
      ['--url', URL_A],
      /--url deletes without asking only with --yes/,
    ],
  ];
  for (const [what, args, message] of cases) {
    it(`${what}: exit 2, nothing sent`, async () => {
      await seed([URL_A]);
      const r = await whRm(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
      expect(h.sb.requests).toHaveLength(0);
      expect(h.sb.state.webhooks.size).toBe(1);
    });
  }
});

describe('webhooks rm <uuid>...', () => {
  it('deletes each without asking, one UUID per line on stdout', async () => {
    const [a, b, c] = await seed([URL_A, URL_B, URL_A]);
    const r = await whRm([a!, c!], { tty: true, prompter: confirming(false) });
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([a, c]);
    expect(deletes().map((d) => d.pathname.split('/').pop())).toEqual(
      expect.arrayContaining([a, c]),
    );
    expect(deletes()).toHaveLength(2);
    expect([...h.sb.state.webhooks.keys()]).toEqual([b]);
  });

  it('--json: {"deleted":[...]}', async () => {
    const [a] = await seed([URL_A]);
    const r = await whRm([a!, '--json']);
    expect(JSON.parse(r.stdout)).toEqual({ deleted: [a] });
  });

  it('the same UUID twice is deleted once', async () => {
    const [a] = await seed([URL_A]);
    const r = await whRm([a!, a!.toUpperCase()]);
    expect(r.code).toBe(0);
    expect(deletes()).toHaveLength(1);
  });

  it('a UUID that does not exist: the others are deleted, then exit 5 naming it', async () => {
    const [a, b] = await seed([URL_A, URL_B]);
    const r = await whRm([a!, MISSING, b!, '--json']);
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stdout)).toEqual({ deleted: [a, b] });
    expect(r.stderr).toContain(`no webhook with UUID ${MISSING}`);
    expect(h.sb.state.webhooks.size).toBe(0);
  });
});

describe('webhooks rm --url / --all', () => {
  it('--url --yes deletes every webhook with that URL (across pages) and no other', async () => {
    const urls = Array.from({ length: 25 }, (_, i) => (i % 5 === 0 ? URL_A : `${URL_B}/${i}`));
    const uuids = await seed(urls);
    const r = await whRm(['--url', URL_A, '--yes']);
    expect(r.code).toBe(0);
    const expected = uuids.filter((_, i) => urls[i] === URL_A);
    expect(lines(r.stdout).sort()).toEqual([...expected].sort());
    expect(h.sb.state.webhooks.size).toBe(20);
    expect(h.sb.requests.filter((q) => q.method === 'GET').length).toBeGreaterThanOrEqual(1);
  });

  it('--all --yes --json deletes everything', async () => {
    const uuids = await seed([URL_A, URL_B, URL_A]);
    const r = await whRm(['--all', '--yes', '--json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { deleted: string[] }).deleted.sort()).toEqual(
      [...uuids].sort(),
    );
    expect(h.sb.state.webhooks.size).toBe(0);
  });

  it('on a terminal: shows what will go and asks; yes deletes', async () => {
    await seed([URL_A, URL_B]);
    const asked: string[] = [];
    const r = await whRm(['--all'], { tty: true, prompter: confirming(true, asked) });
    expect(r.code).toBe(0);
    expect(asked).toEqual(['Delete 2 webhooks?']);
    expect(r.stderr).toContain(URL_A);
    expect(r.stderr).toContain(URL_B);
    expect(h.sb.state.webhooks.size).toBe(0);
  });

  it('on a terminal: no deletes nothing', async () => {
    await seed([URL_A]);
    const r = await whRm(['--url', URL_A], { tty: true, prompter: confirming(false) });
    // A declined confirmation is not an interruption: exit 1, not 130 (was 130 before).
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('nothing was deleted');
    expect(deletes()).toHaveLength(0);
    expect(h.sb.state.webhooks.size).toBe(1);
  });

  it('nothing matches: exit 0, a note on stderr, {"deleted":[]}', async () => {
    await seed([URL_B]);
    const r = await whRm(['--url', URL_A, '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ deleted: [] });
    expect(r.stderr).toMatch(/No webhook has the URL "https:\/\/hooks.example.com\/a"/);
    h.sb.state.webhooks.clear();
    const none = await whRm(['--all', '--yes']);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('There are no webhooks');
  });
});

describe('webhooks rm cut short', () => {
  let srv: FaultServer;
  beforeAll(async () => {
    srv = await startFaultServer();
  });
  afterAll(() => srv.close());
  beforeEach(() => srv.clear());

  /** n webhooks listed on one page; returns their UUIDs. */
  function listed(n: number): string[] {
    const ids = Array.from(
      { length: n },
      (_, i) => `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`,
    );
    const items = ids.map((uuid) => ({
      uuid,
      url: URL_A,
      events: [],
      secret: null,
      created_at: '',
    }));
    srv.on('GET', '/api/webhooks', f.json(200, envelope(items)));
    return ids;
  }

  it('a failure part-way: what was deleted is printed, then the error, exit 1', async () => {
    listed(6);
    let n = 0;
    srv.on('DELETE', '/api/webhooks/*', () => {
      n += 1;
      return n <= 2 ? f.status(204) : f.json(500, { message: 'nope' });
    });
    const r = await runSched(['webhooks', 'rm', '--all', '--yes', '--json'], {
      env: h.envFor(srv.baseUrl),
    });
    expect(r.code).toBe(1);
    const deleted = (JSON.parse(r.stdout) as { deleted: string[] }).deleted;
    expect(deleted.length).toBe(2);
    expect(r.stderr).toMatch(/deleted 2 of 6 webhooks \(listed on stdout\), then: /);
  });

  it('Ctrl-C part-way: what was deleted is printed, then exit 130', async () => {
    const ids = listed(20);
    const ac = new AbortController();
    let n = 0;
    srv.on('DELETE', '/api/webhooks/*', () => {
      n += 1;
      if (n === 6) ac.abort('SIGINT');
      return n < 6 ? f.status(204) : f.delay(100, f.status(204));
    });
    const r = await runSched(['webhooks', 'rm', '--all', '--yes'], {
      env: h.envFor(srv.baseUrl),
      signal: ac.signal,
    });
    expect(r.code).toBe(130);
    const printed = lines(r.stdout);
    // Exactly what the server deleted (DELETEs in flight finish), in order.
    expect(printed).toEqual(ids.slice(0, srv.count('DELETE')));
    expect(printed.length).toBeGreaterThanOrEqual(6);
    expect(r.stderr).toContain(`interrupted: deleted ${printed.length} of 20 webhooks`);
    expect(srv.count('DELETE')).toBeLessThan(20);
  });
});

describe('webhooks rm when stdout fails (issue 40)', () => {
  const uuidsIn = (text: string) => text.match(/[0-9a-f]{8}-[0-9a-f-]{27}/g) ?? [];

  it.each(['ENOSPC', 'EPIPE'])(
    '%s: no new DELETE after the failure; how many were deleted and listed; the rest on stderr',
    async (code) => {
      const all = await seed(Array.from({ length: 30 }, (_, i) => `${URL_A}/${i}`));
      const r = await whRm(['--all', '--yes'], { stdoutFails: { code, writes: 1 } });
      expect(r.code).toBe(1);
      const gone = all.filter((u) => !h.sb.state.webhooks.has(u));
      expect(deletes()).toHaveLength(gone.length);
      // The listed one, the one whose line failed, and at most those in flight then.
      expect(gone.length).toBeLessThanOrEqual(2 + 4 + 4);
      const [first] = r.stderr.split('\n');
      expect(first).toMatch(new RegExp(`^error: could not write to stdout \\(.*${code}\\): `));
      expect(first).toContain(`${gone.length} webhooks were deleted; 1 was written to stdout`);
      expect([...uuidsIn(r.stdout), ...uuidsIn(r.stderr)].sort()).toEqual([...gone].sort());
    },
  );
});
