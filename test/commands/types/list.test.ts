// `sched types list` in-process against the sandbox: formats, paging hints, sorting, and
// what reached the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSched, type RunOptions } from '../../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { useSandbox } from '../../helpers/command-harness.js';
import { MAX_TEXT_CELL } from '../../../src/output/render.js';
import { envelope, f, startFaultServer } from '../../helpers/fault-server.js';

const h = useSandbox({ seedTypes: 23 });
const types = (args: string[], opts: RunOptions = {}) => h.run(['types', 'list', ...args], opts);

const gets = () => h.sb.requests.filter((r) => r.method === 'GET');

describe('sched types list', () => {
  it('piped: one TSV row per meeting type (name, slug, duration, uuid), no header', async () => {
    const r = await types([]);
    expect(r.code).toBe(0);
    const rows = r.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(10); // the API's default page size
    for (const row of rows) expect(row.split('\t')).toHaveLength(4);
    const byUuid = new Map(h.sb.state.meetingTypes.map((t) => [t.uuid, t]));
    for (const row of rows) {
      const [name, slug, duration, uuid] = row.split('\t');
      const t = byUuid.get(uuid!)!;
      expect([name, slug, Number(duration)]).toEqual([t.name, t.slug, t.duration]);
    }
    expect(r.stdout).not.toMatch(/NAME|\x1b/); // eslint-disable-line no-control-regex
  });

  it('says on stderr that more pages exist, and how to get them', async () => {
    const r = await types([]);
    expect(r.stderr).toContain('Showing page 1 of 3 (10 of 23 meeting types)');
    expect(r.stderr).toMatch(/--all.*--page 2/);
    const p3 = await types(['--page', '3']);
    expect(p3.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(p3.stderr).toBe('');
  });

  it('passes --page and --limit to the API', async () => {
    const r = await types(['--page', '2', '--limit', '5']);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(5);
    expect(gets()).toHaveLength(1);
    expect(gets()[0]!.query.get('page')).toBe('2');
    expect(gets()[0]!.query.get('limit')).toBe('5');
    expect(r.stderr).toContain('Showing page 2 of 5 (5 of 23 meeting types)');
    expect(r.stderr).toContain('--page 3');
  });

  it('--all reads every page, in order, with no hint', async () => {
    const r = await types(['--all', '--limit', '4', '--json']);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as Array<{ uuid: string }>;
    expect(list).toHaveLength(23);
    expect(new Set(list.map((t) => t.uuid)).size).toBe(23);
    expect(gets()).toHaveLength(6);
    const one = await types(['--limit', '100', '--json']);
    expect(JSON.parse(one.stdout)).toEqual(list);
    expect(r.stderr).toBe('');
  });

  it('--limit past what the service sends: said once on stderr, the listing unchanged', async () => {
    for (const args of [
      ['--limit', '1000'],
      ['--all', '--limit', '1000'],
    ]) {
      const r = await types([...args, '--json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toHaveLength(23);
      expect(r.stderr).toBe(
        '--limit 1000: the service sends at most 100 meeting types per page.\n',
      );
    }
    const within = await types(['--limit', '100', '--json']);
    expect(within.stderr).toBe('');
  });

  it('--sort field[:dir] becomes sorting[field]=dir, repeatable, asc by default', async () => {
    const r = await types(['--sort', 'duration:desc', '--sort', 'name', '--all', '--json']);
    expect(r.code).toBe(0);
    const q = gets()[0]!.url;
    expect(q).toContain('sorting[duration]=desc');
    expect(q).toContain('sorting[name]=asc');
    expect(q.indexOf('sorting[duration]')).toBeLessThan(q.indexOf('sorting[name]'));
    const list = JSON.parse(r.stdout) as Array<{ duration: number; name: string }>;
    const expected = [...list].sort((a, b) =>
      b.duration !== a.duration
        ? b.duration - a.duration
        : a.name < b.name
          ? -1
          : a.name > b.name
            ? 1
            : 0,
    );
    expect(list).toEqual(expected);
  });

  it('an invalid sort direction is a usage error before any request', async () => {
    const r = await types(['--sort', 'name:up']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--sort "name:up".*asc or desc/);
    expect(r.stdout).toBe('');
    expect(h.sb.requests).toHaveLength(0);
    expect((await types(['--sort', ':asc'])).code).toBe(2);
  });

  it('--page with --all is a usage error', async () => {
    const r = await types(['--page', '2', '--all']);
    expect(r.code).toBe(2);
    expect(h.sb.requests).toHaveLength(0);
  });

  it('--json: an array of the API objects with every field, compact when piped', async () => {
    const r = await types(['--limit', '2', '--json']);
    const list = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(list).toHaveLength(2);
    expect(Object.keys(list[0]!)).toEqual(
      expect.arrayContaining(['name', 'description', 'duration', 'slug', 'uuid']),
    );
    expect(r.stdout).toBe(JSON.stringify(list) + '\n');
    const same = await types(['--limit', '2', '-o', 'json']);
    expect(same.stdout).toBe(r.stdout);
  });

  it('--json on a terminal is pretty-printed', async () => {
    const r = await types(['--limit', '2', '--json'], { tty: true });
    expect(r.stdout).toBe(JSON.stringify(JSON.parse(r.stdout), null, 2) + '\n');
  });

  it('a page past the end: [] in JSON and a note on stderr', async () => {
    const r = await types(['--page', '9', '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('[]\n');
    expect(r.stderr).toMatch(/past the last page \(there are 3 pages\)/);
  });

  it('past the end of one page, or of none: said in those words', async () => {
    const small = await startTestSandbox({ seedTypes: 5 });
    const srv = await startFaultServer();
    try {
      const one = await runSched(['types', 'list', '--page', '4'], { env: small.env });
      expect(one.code).toBe(0);
      expect(one.stdout).toBe('');
      expect(one.stderr).toBe('Page 4 is past the last page (there is 1 page).\n');
      // A service that counts no pages at all for an empty list.
      srv.on(
        'GET',
        '/api/users/me/meeting-types',
        f.json(200, envelope([], { pages: 0, total: 0 })),
      );
      const none = await runSched(['types', 'list', '--page', '4'], {
        env: { SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: 'k' },
      });
      expect(none.stderr).toBe('Page 4 is past the last page (there are no meeting types).\n');
    } finally {
      await small.close();
      await srv.close();
    }
  });

  it('a server that gives no total: the next-page hint without a count', async () => {
    const srv = await startFaultServer();
    try {
      const item = { uuid: 'u', name: 'Intro', slug: 'intro', duration: 15 };
      const body = envelope([item], { pages: 2 }) as Record<string, unknown>;
      delete body.total;
      srv.on('GET', '/api/users/me/meeting-types', f.json(200, body));
      const r = await runSched(['types', 'list'], {
        env: { SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: 'k' },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe(
        'Showing page 1 of 2; use --all for every page, or --page 2 for the next.\n',
      );
    } finally {
      await srv.close();
    }
  });

  it('-o ndjson: one API object per line', async () => {
    const r = await types(['--all', '-o', 'ndjson']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(23);
    expect(lines.map((l) => JSON.parse(l).uuid)).toHaveLength(23);
  });

  it('-o csv: header and RFC 4180 rows', async () => {
    const r = await types(['--limit', '3', '-o', 'csv']);
    const lines = r.stdout.split('\r\n');
    expect(lines[0]).toBe('name,slug,duration,uuid');
    expect(lines).toHaveLength(5); // header, 3 rows, '' after the last CRLF
  });

  it('on a terminal: a table with a header and colour; NO_COLOR turns colour off', async () => {
    const r = await types(['--limit', '3'], { tty: true });
    expect(r.stdout.split('\n')[0]).toMatch(/NAME.*SLUG.*MIN.*UUID/);
    expect(r.stdout).toMatch(/\x1b\[/); // eslint-disable-line no-control-regex
    const plain = await types(['--limit', '3'], { tty: true, env: { NO_COLOR: '1' } });
    expect(plain.stdout).not.toMatch(/\x1b\[/); // eslint-disable-line no-control-regex
    const flag = await types(['--limit', '3', '--no-color'], { tty: true });
    expect(flag.stdout).not.toMatch(/\x1b\[/); // eslint-disable-line no-control-regex
  });

  it('--quiet: UUIDs one per line', async () => {
    const r = await types(['--limit', '4', '-q']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    for (const l of lines) expect(l).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('sched types list with hostile names', () => {
  let evil: TestSandbox;
  beforeAll(async () => {
    evil = await startTestSandbox({
      meetingTypes: [
        {
          name: '\x1b[2J\x1b[H\x1b]0;owned\x07Totally \x1b[31mnormal\x1b[0m\tcall\n',
          slug: 'evil',
          duration: 30,
        },
      ],
    });
  });
  afterAll(() => evil.close());

  it('strips escape sequences in the table and TSV, keeps them exactly in JSON', async () => {
    const env = { ...evil.env, SCHED_CONFIG_DIR: h.config };
    for (const tty of [true, false]) {
      const r = await runSched(['types', 'list'], { env: { ...env, NO_COLOR: '1' }, tty });
      // eslint-disable-next-line no-control-regex
      expect(r.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      expect(r.stdout).toContain('Totally normal call');
    }
    const j = await runSched(['types', 'list', '--json'], { env });
    expect(JSON.parse(j.stdout)[0].name).toBe(evil.state.meetingTypes[0]!.name);
  });
});

describe('sched types list with a 100,000-character name', () => {
  // Laying out cells used to cost more than quadratic time in their length (2,500 characters:
  // 2.7 s, 5,000: 17 s); a terminal now shows at most MAX_TEXT_CELL characters of one.
  const name = 'Long meeting name '.repeat(5556).slice(0, 100_000);
  let big: TestSandbox;
  beforeAll(async () => {
    big = await startTestSandbox({
      meetingTypes: [
        { name, slug: 'long', duration: 30 },
        { name: 'Intro call', slug: 'intro-call', duration: 15 },
      ],
    });
  });
  afterAll(() => big.close());

  it('the terminal table caps the name with …; the UUIDs stay whole', async () => {
    const env = { ...big.env, SCHED_CONFIG_DIR: h.config, NO_COLOR: '1' };
    const r = await runSched(['types', 'list'], { env, tty: true, columns: 120 });
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeLessThan(MAX_TEXT_CELL * 4);
    const shown = r.stdout.replace(/\s+/g, ' ');
    expect(shown).toContain(`${name.slice(0, 60)}`);
    expect(shown).toContain('…');
    for (const t of big.state.meetingTypes) expect(r.stdout).toContain(t.uuid);
    for (const l of r.stdout.trimEnd().split('\n')) expect(l.length).toBeLessThanOrEqual(120);
  });

  it('TSV, CSV and JSON carry the whole name', async () => {
    const env = { ...big.env, SCHED_CONFIG_DIR: h.config };
    const t = await runSched(['types', 'list'], { env });
    expect(t.stdout.split('\n').map((l) => l.split('\t')[0])).toContain(name);
    const c = await runSched(['types', 'list', '-o', 'csv'], { env });
    expect(c.stdout).toContain(`\r\n${name},long,30,`);
    const j = await runSched(['types', 'list', '--json'], { env });
    expect((JSON.parse(j.stdout) as Array<{ name: string }>).map((t) => t.name)).toContain(name);
  });
});

describe('sched types list failures', () => {
  it('a rejected key is exit 4 with one line on stderr and nothing on stdout', async () => {
    const r = await types([], { env: { SCHED_API_KEY: 'wrong-key' } });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stderr).not.toContain('wrong-key');
  });
});
