// `sched link create` in-process against the sandbox (and a scripted fault server for failures
// and Ctrl-C part-way): output shapes, slug resolution, exactly how many links were minted.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { runSched, SCHED_COMMAND, type RunOptions } from '../../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { f, startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import type { Choice } from '../../../src/prompt.js';
import { fakePrompter, lines, useSandbox } from '../../helpers/command-harness.js';

const INTRO = '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c'; // seeded "intro-call"
const DISCOVERY = 'a7c3e1f0-52d4-4b6a-8e9f-0a1b2c3d4e5f'; // seeded "discovery-session"
const MISSING = '00000000-0000-4000-8000-000000000000';

const h = useSandbox();
const link = (args: string[], opts: RunOptions = {}) => h.run(['link', 'create', ...args], opts);

const posts = () => h.sb.requests.filter((r) => r.method === 'POST');

/** The meeting type each printed URL was minted for, from the sandbox's own records. */
function typeOf(url: string): string {
  const code = url.split('/s/')[1]!;
  return h.sb.state.links.get(code)!.meeting_type_uuid;
}

describe('sched link create', () => {
  it('by UUID: one POST, the URL alone on stdout, nothing looked up', async () => {
    const r = await link([INTRO]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\/\S+\n$/);
    expect(r.stderr).toBe('');
    expect(h.sb.requests.map((q) => q.method)).toEqual(['POST']);
    expect(posts()[0]!.body).toEqual({ meeting_type_uuid: INTRO });
    expect(typeOf(r.stdout.trim())).toBe(INTRO);
  });

  it('by slug: resolved through the meeting-type list', async () => {
    const r = await link(['intro-call']);
    expect(r.code).toBe(0);
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.body).toEqual({ meeting_type_uuid: INTRO });
    expect(h.sb.requests[0]!.method).toBe('GET');
  });

  it('several types and --count: one listing for all slugs, N POSTs each, output in argument order', async () => {
    const r = await link(['discovery-session', INTRO, 'intro-call', '--count', '4']);
    expect(r.code).toBe(0);
    const urls = lines(r.stdout);
    expect(urls).toHaveLength(12);
    expect(new Set(urls).size).toBe(12);
    expect(posts()).toHaveLength(12);
    expect(h.sb.requests.filter((q) => q.method === 'GET')).toHaveLength(1);
    expect(urls.map(typeOf)).toEqual([
      ...Array(4).fill(DISCOVERY),
      ...Array(4).fill(INTRO),
      ...Array(4).fill(INTRO),
    ]);
    expect(h.sb.state.links.size).toBe(12);
  });

  it('--count 50 --concurrency 3: exactly 50 links, no duplicates, in order', async () => {
    const r = await link([INTRO, '--count', '50', '--concurrency', '3']);
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toHaveLength(50);
    expect(new Set(lines(r.stdout)).size).toBe(50);
    expect(posts()).toHaveLength(50);
    expect(h.sb.state.links.size).toBe(50);
  });

  it('--json with one link: the {code,url} object exactly as the API returned it', async () => {
    const r = await link([INTRO, '--json']);
    expect(r.code).toBe(0);
    const obj = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(obj).sort()).toEqual(['code', 'url']);
    expect(obj.url).toBe(`${h.sb.publicUrl}/s/${obj.code}`);
  });

  it('--json with more than one link: an array; one meeting type keeps the API objects as they are', async () => {
    const three = await link([INTRO, '--count', '3', '--json']);
    const arr3 = JSON.parse(three.stdout) as Array<Record<string, unknown>>;
    expect(arr3).toHaveLength(3);
    for (const o of arr3) expect(Object.keys(o).sort()).toEqual(['code', 'url']);
  });

  it('--json: the shape follows what was asked, never how many came back', async () => {
    const cases: Array<[string[], 'object' | number]> = [
      [[INTRO], 'object'],
      [[INTRO, '--count', '1'], 1],
      [[INTRO, '--count', '2'], 2],
      [[INTRO, DISCOVERY], 2],
      [[INTRO, DISCOVERY, '--count', '1'], 2],
    ];
    for (const [args, shape] of cases) {
      const r = await link([...args, '--json']);
      expect(r.code, args.join(' ')).toBe(0);
      const v = JSON.parse(r.stdout) as unknown;
      if (shape === 'object') expect(Array.isArray(v), args.join(' ')).toBe(false);
      else expect(v, args.join(' ')).toHaveLength(shape);
    }
  });

  it("a script's `--count \"$N\" --json | jq -r '.[].url'` works for N=1 (the real process)", async () => {
    const r = await execa(
      'bash',
      [
        '-c',
        'set -o pipefail; N=1; "$@" link create intro-call --count "$N" --json | jq -r \'.[].url\'',
        'sh',
        ...SCHED_COMMAND,
      ],
      { env: { ...h.sb.env, SCHED_CONFIG_DIR: '/nonexistent-sched-config' }, reject: false },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\/\S+$/);
  });

  it('several meeting types: --json and -o ndjson say which meeting type each link is for', async () => {
    const r = await link([INTRO, 'Discovery session', '--count', '2', '--json']);
    expect(r.code).toBe(0);
    const arr = JSON.parse(r.stdout) as Array<Record<string, string>>;
    expect(arr).toHaveLength(4);
    expect(arr.map((o) => [o.meeting_type, o.meeting_type_uuid])).toEqual([
      [INTRO, INTRO],
      [INTRO, INTRO],
      ['Discovery session', DISCOVERY],
      ['Discovery session', DISCOVERY],
    ]);
    // What a script reads is true: each link is for the meeting type it names.
    for (const o of arr) {
      expect(typeOf(o.url!)).toBe(o.meeting_type_uuid);
      expect(Object.keys(o)).toEqual(['code', 'url', 'meeting_type', 'meeting_type_uuid']);
    }
    const n = await link(['intro-call', DISCOVERY, '-o', 'ndjson']);
    const objs = lines(n.stdout).map((l) => JSON.parse(l) as Record<string, string>);
    expect(objs.map((o) => o.meeting_type)).toEqual(['intro-call', DISCOVERY]);
    expect(objs.map((o) => typeOf(o.url!))).toEqual([INTRO, DISCOVERY]);
  });

  it('-o ndjson: one API object per line; -o csv: type, uuid, url, code', async () => {
    const n = await link([INTRO, '--count', '2', '-o', 'ndjson']);
    expect(lines(n.stdout).map((l) => Object.keys(JSON.parse(l)).sort())).toEqual([
      ['code', 'url'],
      ['code', 'url'],
    ]);
    const c = await link(['intro-call', '--count', '2', '-o', 'csv']);
    const rows = c.stdout.split('\r\n');
    expect(rows[0]).toBe('meeting_type,meeting_type_uuid,url,code');
    expect(rows[1]).toMatch(new RegExp(`^intro-call,${INTRO},http://\\S+/s/(\\S+),\\S+$`));
    expect(rows).toHaveLength(4);
  });

  it('--quiet and a terminal still print bare URLs, one per line', async () => {
    for (const opts of [{ tty: true }, {}]) {
      const r = await link([INTRO, '--count', '2', '-q'], opts);
      expect(lines(r.stdout).every((l) => /^http:\/\/\S+\/s\/\S+$/.test(l))).toBe(true);
    }
    const t = await link([INTRO], { tty: true });
    expect(t.stdout).toMatch(/^http:\/\/\S+\/s\/\S+\n$/);
  });

  it('a progress bar on stderr only when stderr is a terminal, erased at the end', async () => {
    const r = await link([INTRO, '--count', '30'], { tty: true, stdoutIsTTY: false });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('\rCreating links [====================] 30/30');
    expect(r.stderr.endsWith('\r\x1b[K')).toBe(true);
    expect(lines(r.stdout)).toHaveLength(30);
    expect(r.stdout).not.toContain('\r');
    // stdout on the same terminal: the URLs stay clean, the bar is erased around each one.
    const both = await link([INTRO, '--count', '30'], { tty: true });
    expect(both.stderr).toContain('30/30');
    expect(lines(both.stdout)).toHaveLength(30);
    expect(both.stdout).not.toContain('\r');
    expect(both.stdout).not.toContain('\x1b');
    expect(both.stdout).not.toContain('[=');
    const piped = await link([INTRO, '--count', '30']);
    expect(piped.stderr).toBe('');
  });

  it('by name as people see it, case and spacing forgiven; an upper-case UUID is the same UUID', async () => {
    for (const ref of ['Intro call', 'INTRO CALL', ' intro  call ', 'Intro-Call']) {
      h.sb.requests.length = 0;
      const r = await link([ref]);
      expect(r.code, `${ref}: ${r.stderr}`).toBe(0);
      expect(typeOf(r.stdout.trim())).toBe(INTRO);
    }
    h.sb.requests.length = 0;
    const r = await link([INTRO.toUpperCase(), '-o', 'csv']);
    expect(r.code).toBe(0);
    expect(h.sb.requests.map((q) => q.method)).toEqual(['POST']);
    expect(posts()[0]!.body).toEqual({ meeting_type_uuid: INTRO });
    expect(r.stdout).toContain(`,${INTRO},`);
  });

  it.each([['intro_call'], ['Intro-Cal'], ['intro-calll'], ['intro cal'], ['Discovery-sesion']])(
    'a near miss (%s): exit 2, "did you mean" the closest slug first, nothing created',
    async (ref) => {
      const r = await link([ref]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`error: no meeting type with slug or name "${ref}"`);
      const first = /did you mean "([^"]+)"/.exec(r.stderr)?.[1];
      expect(first).toBe(ref.toLowerCase().startsWith('d') ? 'discovery-session' : 'intro-call');
      expect(posts()).toHaveLength(0);
    },
  );

  it('an unknown slug is exit 2 naming it, with suggestions, and nothing is created', async () => {
    const r = await link(['intro', 'nope-nothing']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no meeting type with slug or name "intro", "nope-nothing"/);
    expect(r.stderr).toContain('did you mean "intro-call"?');
    expect(r.stdout).toBe('');
    expect(posts()).toHaveLength(0);
  });

  it('many unknown references: each named, suggestions for the first five only (a bounded search)', async () => {
    const refs = [
      'intro-cal1',
      'intro-cal2',
      'intro-cal3',
      'intro-cal4',
      'intro-cal5',
      'technical-deep-dve',
    ];
    const r = await link(refs);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`"technical-deep-dve"`);
    // The same suggestion is said once; the sixth reference is not searched.
    expect(r.stderr.match(/did you mean "intro-call"\?/g)).toHaveLength(1);
    expect(r.stderr).not.toContain('did you mean "technical-deep-dive"');
    expect(posts()).toHaveLength(0);
  });

  it('a name with spaces given unquoted: one "did you mean", and a hint to quote it', async () => {
    const r = await link(['intro', 'call']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: no meeting type with slug or name "intro", "call" (8 meeting types checked)\n' +
        '  did you mean "intro-call"? (Intro call)\n' +
        "hint: a name with spaces is one argument: quote it, e.g. 'intro call'\n",
    );
    expect(posts()).toHaveLength(0);
  });

  it('a UUID the API does not know: exit 2 with the field message, stdout empty', async () => {
    const r = await link([MISSING]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(MISSING);
    expect(r.stderr).toMatch(/meetingTypeUuid/);
    expect(r.stdout).toBe('');
    const many = await link([MISSING, '--count', '3']);
    expect(many.code).toBe(2);
    expect(many.stderr).toContain('no links were created (3 asked for)');
  });

  it('no argument without a terminal: exit 2 saying why there is no pick list and what to give; no request', async () => {
    const HINT =
      'hint: give a meeting-type slug, name or UUID, e.g. `sched link create intro-call --count 5 -o csv > links.csv`; `sched types list` shows them\n';
    const NO_LIST = 'error: no meeting type given, and no pick list to choose one from: ';
    // `... | sched link create --count 5 -o csv > links.csv`: no terminal to read an answer from.
    const piped = await link(['--count', '5', '-o', 'csv', '--no-color'], {
      tty: true,
      stdinIsTTY: false,
      stdoutIsTTY: false,
    });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toBe(`${NO_LIST}stdin is not a terminal\n${HINT}`);
    expect(piped.stdout).toBe('');
    const noInput = await link(['--no-input', '--no-color'], { tty: true });
    expect(noInput.code).toBe(2);
    expect(noInput.stderr).toBe(`${NO_LIST}--no-input was given\n${HINT}`);
    expect(h.sb.requests).toHaveLength(0);
  });

  it('no argument on a terminal: a pick list of meeting types (name, duration, slug)', async () => {
    let offered: Choice<unknown>[] = [];
    const prompter = fakePrompter({
      select: async <T>(_m: string, choices: Choice<T>[]) => {
        offered = choices;
        return choices.find((c) => String(c.name).includes('discovery-session'))!.value;
      },
    });
    const r = await link(['--count', '2'], { tty: true, prompter });
    expect(r.code).toBe(0);
    expect(offered).toHaveLength(h.sb.state.meetingTypes.length);
    expect(offered.map((c) => c.name)).toContain('Discovery session · 45 min · discovery-session');
    expect(lines(r.stdout).map(typeOf)).toEqual([DISCOVERY, DISCOVERY]);
  });
});

describe('sched link create with ambiguous slugs', () => {
  let dup: TestSandbox;
  beforeAll(async () => {
    dup = await startTestSandbox({
      meetingTypes: [
        { name: 'Call A', slug: 'call', uuid: '11111111-1111-4111-8111-111111111111' },
        { name: 'Call B', slug: 'call', uuid: '22222222-2222-4222-8222-222222222222' },
      ],
    });
  });
  afterAll(() => dup.close());

  it('exit 2 naming the slug and listing the candidate UUIDs; nothing created', async () => {
    const r = await runSched(['link', 'create', 'call'], {
      env: { ...dup.env, SCHED_CONFIG_DIR: h.config },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ambiguous meeting type "call"');
    expect(r.stderr).toContain('11111111-1111-4111-8111-111111111111');
    expect(r.stderr).toContain('22222222-2222-4222-8222-222222222222');
    expect(dup.requests.filter((q) => q.method === 'POST')).toHaveLength(0);
  });
});

describe('sched link create cut short', () => {
  let srv: FaultServer;
  beforeAll(async () => {
    srv = await startFaultServer();
  });
  afterAll(() => srv.close());
  beforeEach(() => srv.clear());

  const env = () => h.envFor(srv.baseUrl);
  const minted = (n: number) => ({ code: `c${n}`, url: `https://book.example/s/c${n}` });

  it('a failure part-way: every link minted is printed, the error says how many, exit 1', async () => {
    let n = 0;
    srv.on('POST', '/api/single-use-link', () => {
      n += 1;
      return n <= 5 ? f.json(200, minted(n)) : f.json(500, { message: 'boom' });
    });
    const r = await runSched(['link', 'create', INTRO, '--count', '10', '--concurrency', '1'], {
      env: env(),
    });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([1, 2, 3, 4, 5].map((i) => minted(i).url));
    expect(r.stderr).toMatch(/created 5 of 10 links \(printed on stdout\)/);
    expect(r.stderr).toMatch(/the other 5 links were not created \(1 failed, 4 not attempted\)/);
    expect(srv.count('POST')).toBe(6);
  });

  it('with --json the partial result is still a valid array', async () => {
    let n = 0;
    srv.on('POST', '/api/single-use-link', () => {
      n += 1;
      return n <= 3 ? f.json(200, minted(n)) : f.json(500, { message: 'boom' });
    });
    const r = await runSched(
      ['link', 'create', INTRO, '--count', '10', '--concurrency', '1', '--json'],
      { env: env() },
    );
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([minted(1), minted(2), minted(3)]);
  });

  it('with requests in flight, those that succeed after the failure are printed too', async () => {
    let n = 0;
    srv.on('POST', '/api/single-use-link', () => {
      n += 1;
      return n === 3 ? f.json(500, { message: 'boom' }) : f.delay(20, f.json(200, minted(n)));
    });
    const r = await runSched(['link', 'create', INTRO, '--count', '40', '--concurrency', '4'], {
      env: env(),
    });
    expect(r.code).toBe(1);
    const printed = lines(r.stdout);
    expect(printed).toHaveLength(srv.count('POST') - 1);
    const m = /created (\d+) of 40 links/.exec(r.stderr);
    expect(Number(m![1])).toBe(printed.length);
  });

  it('Ctrl-C: no new request starts, links of requests in flight are printed, exit 130', async () => {
    const ac = new AbortController();
    let n = 0;
    srv.on('POST', '/api/single-use-link', () => {
      n += 1;
      if (n === 6) ac.abort('SIGINT');
      return f.delay(10, f.json(200, minted(n)));
    });
    const r = await runSched(['link', 'create', INTRO, '--count', '100', '--concurrency', '4'], {
      env: env(),
      signal: ac.signal,
    });
    expect(r.code).toBe(130);
    const printed = lines(r.stdout);
    // Every request that reached the server minted a link, and every such link was printed.
    expect(printed).toHaveLength(srv.count('POST'));
    expect(srv.count('POST')).toBeLessThan(12);
    expect(r.stderr).toContain(`interrupted: created ${printed.length} of 100 links`);
    expect(r.stderr).toContain(`the other ${100 - printed.length} links were not created`);
  });
});

describe('sched link create: more than 1,000 links', () => {
  let srv: FaultServer;
  beforeAll(async () => {
    srv = await startFaultServer();
  });
  afterAll(() => srv.close());
  beforeEach(() => {
    srv.clear();
    let n = 0;
    srv.on('POST', '/api/single-use-link', () => {
      n += 1;
      return f.json(200, { code: `c${n}`, url: `https://book.example/s/c${n}` });
    });
  });

  const env = () => h.envFor(srv.baseUrl);

  it('on a terminal: asks first; "no" creates nothing (exit 1)', async () => {
    let asked = '';
    const r = await runSched(['link', 'create', INTRO, DISCOVERY, '--count', '501'], {
      env: env(),
      tty: true,
      prompter: fakePrompter({
        confirm: async (m) => {
          asked = m;
          return false;
        },
      }),
    });
    expect(asked).toBe(
      'Create 1,002 single-use links (2 meeting types)? The API cannot delete them.',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Cancelled; no links were created.');
    expect(r.stdout).toBe('');
    expect(srv.count('POST')).toBe(0);
  });

  it('`--count 100000 > links.txt` at a terminal asks first too (the question is on stderr)', async () => {
    let asked = '';
    const r = await runSched(['link', 'create', INTRO, '--count', '100000'], {
      env: env(),
      tty: true,
      stdoutIsTTY: false,
      prompter: fakePrompter({
        confirm: async (m) => {
          asked = m;
          return false;
        },
      }),
    });
    expect(asked).toBe('Create 100,000 single-use links? The API cannot delete them.');
    expect(r.code).toBe(1);
    expect(srv.count('POST')).toBe(0);
    // In CI (CI set) nothing is asked even with terminals: it proceeds as asked, like a script.
    const ci = await runSched(['link', 'create', INTRO, '--count', '1001', '-q'], {
      env: { ...env(), CI: 'true' },
      tty: true,
      prompter: fakePrompter({}),
    });
    expect(ci.code).toBe(0);
    expect(lines(ci.stdout)).toHaveLength(1001);
  });

  it('1,000 is not asked about; --yes skips the question; no terminal: proceeds as asked', async () => {
    const never = fakePrompter({});
    const atLimit = await runSched(['link', 'create', INTRO, '--count', '1000', '-q'], {
      env: env(),
      tty: true,
      prompter: never,
    });
    expect(atLimit.code).toBe(0);
    expect(lines(atLimit.stdout)).toHaveLength(1000);
    const yes = await runSched(['link', 'create', INTRO, '--count', '1001', '--yes', '-q'], {
      env: env(),
      tty: true,
      prompter: never,
    });
    expect(yes.code).toBe(0);
    expect(lines(yes.stdout)).toHaveLength(1001);
    const piped = await runSched(['link', 'create', INTRO, '--count', '1001'], {
      env: env(),
      prompter: never,
    });
    expect(piped.code).toBe(0);
    expect(lines(piped.stdout)).toHaveLength(1001);
  });
});

describe('sched link create when stdout fails (issue 40)', () => {
  /** Every URL in `text` (stdout or stderr). */
  const urlsIn = (text: string) =>
    (text.match(/http:\/\/127\.0\.0\.1:\d+\/s\/\S+/g) ?? []).map((u) => u.split('/s/')[1]);

  it.each([
    [
      'a full disk (ENOSPC)',
      'ENOSPC',
      /could not write to stdout \(no space left on the device, ENOSPC\)/,
    ],
    [
      'a reader that left (EPIPE)',
      'EPIPE',
      /could not write to stdout \(the reader closed it, EPIPE\)/,
    ],
  ])(
    '%s: no new POST after the failure, the counts said, every minted link on stdout or stderr, exit 1',
    async (_what, code, said) => {
      const r = await link([INTRO, '--count', '200', '--concurrency', '4'], {
        stdoutFails: { code, writes: 2 },
      });
      expect(r.code).toBe(1);
      const minted = [...h.sb.state.links.keys()];
      // Stopped at once: the 2 written, the failed one, and at most those in flight then.
      expect(minted.length).toBeGreaterThanOrEqual(3);
      expect(minted.length).toBeLessThan(3 + 4 + 1);
      expect(posts()).toHaveLength(minted.length);
      const [first] = r.stderr.split('\n');
      expect(first).toMatch(said);
      expect(first).toContain(`: ${minted.length} links were minted; 2 were written to stdout`);
      expect(urlsIn(r.stdout)).toHaveLength(2);
      // The others, whole, one per line under the message: nothing minted is lost, none twice.
      expect([...urlsIn(r.stdout), ...urlsIn(r.stderr)].sort()).toEqual([...minted].sort());
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
  );

  it('--json: the same counts (the array could not be closed)', async () => {
    const r = await link([INTRO, '--count', '30', '--json'], {
      stdoutFails: { code: 'ENOSPC', writes: 0 },
    });
    expect(r.code).toBe(1);
    const n = h.sb.state.links.size;
    expect(r.stderr).toContain(`${n} links were minted; 0 were written to stdout`);
    expect(urlsIn(r.stderr)).toHaveLength(n);
  });
});
