// `sched webhooks sync` run in-process against the real sandbox (and, for failures part-way,
// a scripted fault server). What is asserted is what a CI job would see: exit codes, stdout,
// stderr, and which requests reached the server.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSched, type RunOptions } from '../../helpers/run.js';
import { fakePrompter } from '../../helpers/command-harness.js';
import { useConfigDir } from '../../helpers/config-dir.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { envelope, f, startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { EVENT_NAMES } from '../../../src/api/types.js';
import { OUTPUT_FORMATS } from '../../../src/output/formats.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/sync', import.meta.url));
// Distinctive values: if either shows up in any output, a secret leaked.
const SECRET = 'sk_SYNC_never-print-me_7f3a9c';
const LITERAL = 'lit_FILE_secret-do-not-log_41b2';

const BOOKED = 'https://hooks.example.com/sched/booked';
const CHANGES = 'https://hooks.example.com/sched/changes';

let sb: TestSandbox;
let dir: string;
const config = useConfigDir('sched-sync-config-');

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sched-sync-'));
  sb.state.webhooks.clear();
  sb.requests.length = 0;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function env(extra: Record<string, string | undefined> = {}) {
  return { ...sb.env, SCHED_CONFIG_DIR: config.path, SYNC_TEST_SECRET: SECRET, ...extra };
}

function sync(args: string[], opts: RunOptions = {}) {
  return runSched(['webhooks', 'sync', ...args], { env: env(), ...opts });
}

async function fileWith(name: string, doc: unknown): Promise<string> {
  const p = path.join(dir, name);
  await writeFile(p, typeof doc === 'string' ? doc : JSON.stringify(doc, null, 2));
  return p;
}

async function fixture(name: string): Promise<string> {
  const p = path.join(dir, name);
  await copyFile(path.join(FIXTURES, name), p);
  return p;
}

/** What the sandbox holds: url -> sorted events, plus the stored secrets. */
function serverState() {
  return [...sb.state.webhooks.values()]
    .map((w) => ({ url: w.url, events: [...w.events].sort(), secret: w.secret, uuid: w.uuid }))
    .sort((a, b) => a.url.localeCompare(b.url));
}

async function precreate(url: string, events: string[]): Promise<string> {
  const res = await sb.api('/webhooks', {
    method: 'POST',
    body: JSON.stringify({ url, events, secret: 'old-secret' }),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { uuid: string };
  return body.uuid;
}

function mutations() {
  return sb.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.pathname}`);
}

describe('sched webhooks sync (sandbox)', () => {
  it('converges from empty, then a second run sends nothing but GETs', async () => {
    const file = await fixture('webhooks.json');
    const first = await sync(['--file', file]);
    expect(first.stderr).toMatch(/\+ create +https:\/\/hooks\.example\.com\/sched\/booked/);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('2 created, 0 replaced, 0 deleted, 0 unchanged\n');
    expect(serverState()).toEqual([
      { url: BOOKED, events: ['meetingScheduled'], secret: SECRET, uuid: expect.any(String) },
      {
        url: CHANGES,
        events: ['meetingCancelled', 'meetingRescheduled'],
        secret: SECRET,
        uuid: expect.any(String),
      },
    ]);

    sb.requests.length = 0;
    const second = await sync(['--file', file, '--prune']);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('0 created, 0 replaced, 0 deleted, 2 unchanged\n');
    expect(second.stderr).toMatch(/Already in sync/);
    expect(sb.requests.length).toBeGreaterThan(0);
    expect(sb.requests.every((r) => r.method === 'GET')).toBe(true);
  });

  it('reads YAML, picked by extension', async () => {
    const r = await sync(['--file', await fixture('webhooks.yaml'), '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { created: Array<{ url: string; secret: unknown }> };
    expect(out.created.map((w) => w.url)).toEqual([BOOKED, CHANGES]);
    expect(out.created.every((w) => w.secret === null)).toBe(true);
    expect(serverState().map((w) => w.url)).toEqual([BOOKED, CHANGES]);
  });

  it('reads the file from stdin with --file - (YAML by content)', async () => {
    const yaml = `webhooks:\n  - url: ${BOOKED}\n    events: [meetingScheduled]\n    secretEnv: SYNC_TEST_SECRET\n`;
    const r = await sync(['--file', '-'], { stdin: yaml });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('1 created, 0 replaced, 0 deleted, 0 unchanged\n');
  });

  it('replaces a webhook whose events differ: creates the new one before deleting the old', async () => {
    const old = await precreate(BOOKED, ['meetingScheduled', 'meetingCancelled']);
    const unchanged = await precreate(CHANGES, ['meetingRescheduled', 'meetingCancelled']);
    sb.requests.length = 0;
    const r = await sync(['--file', await fixture('webhooks.json'), '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      created: unknown[];
      replaced: Array<{
        old: string;
        new: { uuid: string; url: string; events: string[]; secret: unknown };
      }>;
      deleted: string[];
      unchanged: Array<{ uuid: string; secret: unknown }>;
    };
    expect(out.created).toEqual([]);
    expect(out.deleted).toEqual([]);
    expect(out.replaced).toEqual([
      {
        old,
        new: expect.objectContaining({ url: BOOKED, events: ['meetingScheduled'], secret: null }),
      },
    ]);
    expect(out.unchanged).toEqual([expect.objectContaining({ uuid: unchanged, secret: null })]);
    expect(mutations()).toEqual(['POST /api/webhooks', `DELETE /api/webhooks/${old}`]);
    expect(serverState().map((w) => [w.url, w.events])).toEqual([
      [BOOKED, ['meetingScheduled']],
      [CHANGES, ['meetingCancelled', 'meetingRescheduled']],
    ]);
    // An unchanged webhook keeps its secret: sync cannot see secrets, so it never touches them.
    expect(serverState()[1]?.secret).toBe('old-secret');
  });

  it('leaves webhooks not in the file alone, and deletes them with --prune', async () => {
    const stray = await precreate('https://old.example.com/hook', ['meetingScheduled']);
    const file = await fixture('webhooks.json');

    const keep = await sync(['--file', file]);
    expect(keep.code).toBe(0);
    expect(keep.stderr).toMatch(new RegExp(`! keep +https://old\\.example\\.com/hook .*${stray}`));
    expect(keep.stderr).toMatch(/--prune deletes/);
    expect(serverState().map((w) => w.uuid)).toContain(stray);

    sb.requests.length = 0;
    const prune = await sync(['--file', file, '--prune', '--json']);
    expect(prune.code).toBe(0);
    expect(JSON.parse(prune.stdout)).toMatchObject({ created: [], replaced: [], deleted: [stray] });
    expect(mutations()).toEqual([`DELETE /api/webhooks/${stray}`]);
    expect(serverState().map((w) => w.url)).toEqual([BOOKED, CHANGES]);
  });

  it('deletes duplicates at a URL of the file only with --prune', async () => {
    const first = await precreate(BOOKED, ['meetingScheduled']);
    const dup = await precreate(BOOKED, ['meetingScheduled']);
    sb.requests.length = 0;
    const file = await fileWith('one.json', {
      webhooks: [{ url: BOOKED, events: ['meetingScheduled'], secretEnv: 'SYNC_TEST_SECRET' }],
    });
    const without = await sync(['--file', file]);
    expect(without.stdout).toBe('0 created, 0 replaced, 0 deleted, 1 unchanged\n');
    expect(without.stderr).toMatch(
      new RegExp(`${dup}: a duplicate at this URL; --prune deletes it`),
    );
    expect(mutations()).toEqual([]);

    const withPrune = await sync(['--file', file, '--prune', '--json']);
    expect(JSON.parse(withPrune.stdout)).toMatchObject({
      deleted: [dup],
      unchanged: [expect.objectContaining({ uuid: first })],
    });
  });

  it('--dry-run prints the plan and the planned result, and sends no change', async () => {
    const stray = await precreate('https://old.example.com/hook', ['meetingScheduled']);
    const old = await precreate(BOOKED, ['meetingCancelled']);
    sb.requests.length = 0;
    const r = await sync([
      '--file',
      await fixture('webhooks.json'),
      '--prune',
      '--dry-run',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(mutations()).toEqual([]);
    expect(JSON.parse(r.stdout)).toEqual({
      dryRun: true,
      created: [{ url: CHANGES, events: ['meetingCancelled', 'meetingRescheduled'], secret: null }],
      replaced: [{ old, new: { url: BOOKED, events: ['meetingScheduled'], secret: null } }],
      deleted: [stray],
      unchanged: [],
    });
    expect(r.stderr).toMatch(
      /~ replace +https:\/\/hooks\.example\.com\/sched\/booked +\[meetingCancelled\] -> \[meetingScheduled\]/,
    );
    expect(r.stderr).toMatch(/- delete +https:\/\/old\.example\.com\/hook/);
    expect(r.stderr).toMatch(/dry run: nothing was changed/);

    const human = await sync(['--file', await fixture('webhooks.json'), '--dry-run']);
    expect(human.stdout).toBe('dry run: 1 to create, 1 to replace, 0 to delete, 0 unchanged\n');
    expect(mutations()).toEqual([]);
  });

  it('--quiet: the result on stdout, nothing on stderr, with or without --dry-run', async () => {
    const file = await fixture('webhooks.json');
    const dry = await sync(['--file', file, '--dry-run', '-q']);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toBe('');
    expect(dry.stdout).toBe('dry run: 2 to create, 0 to replace, 0 to delete, 0 unchanged\n');
    const real = await sync(['--file', file, '-q', '--json']);
    expect(real.code).toBe(0);
    expect(real.stderr).toBe('');
    expect(JSON.parse(real.stdout).created).toHaveLength(2);
    expect(serverState().map((w) => w.url)).toEqual([BOOKED, CHANGES]);
  });

  it('colours the plan on a terminal and keeps it plain otherwise', async () => {
    const file = await fixture('webhooks.json');
    const tty = await sync(['--file', file, '--dry-run'], { tty: true });
    expect(tty.stderr).toContain('\x1b[32m+ create');
    const plain = await sync(['--file', file, '--dry-run']);
    expect(plain.stderr).not.toContain('\x1b[');
    expect(plain.stderr).toMatch(
      /^ {2}\+ create +https:\/\/hooks\.example\.com\/sched\/booked +\[meetingScheduled\]$/m,
    );
  });

  it('never prints a secret, in any output format, on a terminal or not', async () => {
    const envFile = await fixture('webhooks.json');
    const literalFile = await fileWith('literal.json', {
      webhooks: [
        { url: 'https://lit.example.com/h', events: ['meetingScheduled'], secret: LITERAL },
      ],
    });
    const runs: Array<{ globals: string[]; extra: string[]; tty: boolean }> = [];
    for (const output of OUTPUT_FORMATS) {
      for (const tty of [false, true]) {
        runs.push({ globals: ['-o', output], extra: [], tty });
        runs.push({ globals: ['-o', output], extra: ['--dry-run'], tty });
        // --yes: a prune that deletes every webhook would ask on the terminal.
        runs.push({ globals: ['-o', output, '--verbose'], extra: ['--prune', '--yes'], tty });
      }
    }
    for (const { globals, extra, tty } of runs) {
      sb.state.webhooks.clear();
      // Something to replace and something to prune, so every kind of output line appears.
      await precreate(BOOKED, ['meetingCancelled']);
      await precreate('https://stray.example.com/h', ['meetingCancelled']);
      for (const file of [envFile, literalFile]) {
        const r = await runSched([...globals, 'webhooks', 'sync', '--file', file, ...extra], {
          env: env(),
          tty,
        });
        const label = `${[...globals, ...extra].join(' ')} tty=${tty} ${path.basename(file)}`;
        expect(r.code, `${label}\n${r.stderr}`).toBe(0);
        expect(r.stdout + r.stderr, label).not.toContain(SECRET);
        expect(r.stdout + r.stderr, label).not.toContain(LITERAL);
      }
    }
    // The secret did reach the server (the last run pruned all but the literal file's webhook).
    expect(serverState().map((w) => w.secret)).toEqual([LITERAL]);
  });

  it('warns about a literal secret in the file, without showing it', async () => {
    const file = await fileWith(
      'literal.yaml',
      `webhooks:\n  - url: https://lit.example.com/h\n    events: [meetingScheduled]\n    secret: ${LITERAL}\n`,
    );
    const r = await sync(['--file', file]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: webhooks\[0\]\.secret: .*use secretEnv instead/);
    expect(r.stderr).not.toContain(LITERAL);
  });

  it('stops with exit 2 and sends nothing when a secretEnv variable is unset', async () => {
    const r = await runSched(['webhooks', 'sync', '--file', await fixture('webhooks.json')], {
      env: env({ SYNC_TEST_SECRET: undefined }),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'webhooks[0].secretEnv: environment variable SYNC_TEST_SECRET is not set',
    );
    expect(r.stderr).toContain(
      'webhooks[1].secretEnv: environment variable SYNC_TEST_SECRET is not set',
    );
    expect(r.stderr).toMatch(/nothing was sent/);
    expect(r.stderr).toContain(
      'hint: set SYNC_TEST_SECRET: webhooks are created with that secret (--dry-run plans without them)',
    );
    expect(r.stdout).toBe('');
    expect(sb.requests).toEqual([]);
  });

  it('--dry-run plans without the secretEnv variables set (a plan job has no secrets)', async () => {
    await precreate(BOOKED, ['meetingCancelled']);
    sb.requests.length = 0;
    const file = await fixture('webhooks.json');
    const r = await runSched(['webhooks', 'sync', '--file', file, '--dry-run', '--json'], {
      env: env({ SYNC_TEST_SECRET: undefined }),
    });
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as { created: unknown[]; replaced: unknown[] };
    expect(plan.created).toHaveLength(1);
    expect(plan.replaced).toHaveLength(1);
    expect(r.stderr).toContain(
      'dry run without SYNC_TEST_SECRET set: planned anyway (the API never returns secrets); the real run needs it',
    );
    expect(r.stderr).toContain('dry run: nothing was changed');
    expect(mutations()).toEqual([]);
    // An empty variable is the same as an unset one.
    const empty = await runSched(['webhooks', 'sync', '--file', file, '--dry-run'], {
      env: env({ SYNC_TEST_SECRET: '' }),
    });
    expect(empty.code).toBe(0);
    expect(mutations()).toEqual([]);
  });

  describe('a plan that deletes every webhook', () => {
    const STRAYS = ['https://stray.example.com/a', 'https://stray.example.com/b'];
    const other = () =>
      fileWith('other.json', {
        webhooks: [{ url: BOOKED, events: ['meetingScheduled'], secretEnv: 'SYNC_TEST_SECRET' }],
      });

    it('asks on a terminal, listing them; "no" changes nothing (exit 1)', async () => {
      for (const u of STRAYS) await precreate(u, ['meetingCancelled']);
      sb.requests.length = 0;
      let asked = '';
      const r = await sync(['--file', await other(), '--prune', '--no-color'], {
        tty: true,
        prompter: fakePrompter({
          confirm: async (message) => {
            asked = message;
            return false;
          },
        }),
      });
      expect(asked).toBe('Delete 2 webhooks?');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        'warning: the plan deletes every webhook of the account (2): none has a URL of ',
      );
      expect(r.stderr).not.toContain('Sending');
      expect(r.stderr).toMatch(
        /This deletes 2 webhooks \(every webhook of the account, as \S+other\.json says\):/,
      );
      for (const u of STRAYS)
        expect(r.stderr).toMatch(new RegExp(`^  \\S{36}  ${u}  cancelled$`, 'm'));
      expect(r.stderr).toContain('Cancelled; nothing was changed.');
      expect(mutations()).toEqual([]);
      expect(serverState().map((w) => w.url)).toEqual(STRAYS);
    });

    it('--yes skips the question; no terminal: a file that lists webhooks is done, with the warning', async () => {
      for (const tty of [true, false]) {
        sb.state.webhooks.clear();
        for (const u of STRAYS) await precreate(u, ['meetingCancelled']);
        const r = await sync(['--file', await other(), '--prune', ...(tty ? ['--yes'] : [])], {
          tty,
          prompter: fakePrompter({}),
        });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain('the plan deletes every webhook of the account (2)');
        expect(serverState().map((w) => w.url)).toEqual([BOOKED]);
      }
    });

    it('no terminal: a file that lists none is refused (exit 2, nothing sent) unless --prune-all', async () => {
      const none = await fileWith('none.json', { webhooks: [] });
      for (const extra of [[], ['--yes'], ['--quiet']]) {
        sb.state.webhooks.clear();
        for (const u of STRAYS) await precreate(u, ['meetingCancelled']);
        sb.requests.length = 0;
        const r = await sync(['--file', none, '--prune', ...extra]);
        expect(r.code, extra.join(' ')).toBe(2);
        expect(r.stderr).toMatch(
          /none\.json lists no webhooks: refusing to delete every webhook of the account \(2\) without --prune-all; nothing was changed/,
        );
        expect(r.stderr).toMatch(/hint: check \S+none\.json .*run again with --prune-all/);
        expect(mutations()).toEqual([]);
        expect(serverState().map((w) => w.url)).toEqual(STRAYS);
      }
      const all = await sync(['--file', none, '--prune-all', '--json']);
      expect(all.code, all.stderr).toBe(0);
      expect(serverState()).toEqual([]);
    });

    it('a dry run of a file that lists none plans it and says what the real run needs', async () => {
      for (const u of STRAYS) await precreate(u, ['meetingCancelled']);
      const r = await sync([
        '--file',
        await fileWith('none.json', { webhooks: [] }),
        '--prune',
        '--dry-run',
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        'refuses to leave the account with no webhook unless given --prune-all',
      );
      expect(serverState().map((w) => w.url)).toEqual(STRAYS);
    });

    it('--dry-run asks nothing', async () => {
      for (const u of STRAYS) await precreate(u, ['meetingCancelled']);
      const r = await sync(['--file', await other(), '--prune', '--dry-run'], {
        tty: true,
        prompter: fakePrompter({}),
      });
      expect(r.code).toBe(0);
      expect(serverState().map((w) => w.url)).toEqual(STRAYS);
    });
  });

  it('reports every problem of an invalid file at once, exit 2, nothing sent', async () => {
    const r = await sync(['--file', await fixture('invalid.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('invalid.yaml has 4 problems; nothing was sent');
    expect(r.stderr).toContain(
      `webhooks[0].events[0]: unknown event "meetingBooked"; allowed: ${EVENT_NAMES.join(', ')}`,
    );
    expect(r.stderr).toContain(
      'webhooks[1]: unknown key "colour"; allowed: url, events, secret, secretEnv',
    );
    expect(r.stderr).toContain(
      'webhooks[1].url: must be an absolute http(s) URL without spaces; got "not-a-url"',
    );
    expect(r.stderr).toContain(
      'webhooks[1].secretEnv: environment variable SYNC_UNSET_VARIABLE is not set',
    );
    expect(sb.requests).toEqual([]);
  });

  it('names syntax errors with line and column, and a missing file, with exit 2', async () => {
    const bad = await fileWith('bad.json', '{\n  "webhooks": [\n    {"url": "x",}\n  ]\n}\n');
    const r = await sync(['--file', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${bad}:3:17: not valid JSON: trailing commas are not allowed in JSON`,
    );

    const missing = await sync(['--file', path.join(dir, 'nope.yaml')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*nope\.yaml"?: no such file/);
    expect(sb.requests).toEqual([]);
  });

  it('writes one line per result with -o ndjson and a CSV table with -o csv', async () => {
    const stray = await precreate('https://old.example.com/hook', ['meetingScheduled']);
    const file = await fixture('webhooks.json');
    const nd = await sync(['--file', file, '--prune', '-o', 'ndjson']);
    expect(nd.code).toBe(0);
    const lines = nd.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { action: string });
    expect(lines.map((l) => l.action)).toEqual(['created', 'created', 'deleted']);
    expect(lines[2]).toEqual({ action: 'deleted', uuid: stray });

    const csv = await sync(['--file', file, '-o', 'csv']);
    expect(csv.stdout.split('\r\n')).toEqual([
      'action,uuid,url,events,replaces',
      expect.stringMatching(new RegExp(`^unchanged,[0-9a-f-]{36},${BOOKED},meetingScheduled,$`)),
      expect.stringMatching(
        /^unchanged,[0-9a-f-]{36},.*changes,meetingCancelled meetingRescheduled,$/,
      ),
      '',
    ]);
  });
});

describe('sched webhooks sync: failures part-way', () => {
  let srv: FaultServer;
  beforeEach(async () => {
    srv = await startFaultServer();
  });
  afterEach(async () => {
    await srv.close();
  });

  const created = (uuid: string, url: string, events: string[]) =>
    f.json(201, { url, events, secret: SECRET, created_at: '2025-01-01T00:00:00+00:00', uuid });

  function run(args: string[], opts: RunOptions = {}) {
    return runSched(['webhooks', 'sync', ...args], {
      env: { ...env(), SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: 'k-test' },
      ...opts,
    });
  }

  it('a 5xx part-way reports what was done and what was not, and exits 1', async () => {
    const stale = {
      url: 'https://old.example.com/hook',
      events: ['meetingScheduled'],
      secret: null,
      created_at: '2024-01-01T00:00:00+00:00',
      uuid: '00000000-0000-4000-8000-0000000000aa',
    };
    srv.on('GET', '/api/webhooks', f.json(200, envelope([stale])));
    srv.on(
      'POST',
      '/api/webhooks',
      created('11111111-1111-4111-8111-111111111111', BOOKED, ['meetingScheduled']),
      f.json(500, { message: 'Internal error' }),
    );
    const r = await run(['--file', await fixture('webhooks.json'), '--prune', '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /webhooks\[1\] \(https:\/\/hooks\.example\.com\/sched\/changes\) failed: /,
    );
    expect(r.stderr).toContain('done:     created 11111111-1111-4111-8111-111111111111 ' + BOOKED);
    expect(r.stderr).toContain(`failed:   create ${CHANGES}`);
    expect(r.stderr).toContain(
      `not done: delete ${stale.uuid} https://old.example.com/hook (not in the file)`,
    );
    expect(r.stderr).toMatch(/run `sched webhooks sync --file .* --prune` again/);
    expect(srv.count('DELETE')).toBe(0);
    // stdout still says what changed, marked incomplete.
    expect(JSON.parse(r.stdout)).toMatchObject({
      incomplete: true,
      created: [{ uuid: '11111111-1111-4111-8111-111111111111', secret: null }],
      deleted: [],
    });
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('a connection cut after a create was sent says its outcome is unknown, and exits 1', async () => {
    srv.on('GET', '/api/webhooks', f.json(200, envelope([])));
    srv.on('POST', '/api/webhooks', f.reset());
    const r = await run(['--file', await fixture('webhooks.json')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('done:     nothing was changed');
    expect(r.stderr).toMatch(new RegExp(`unknown: +create ${BOOKED}.*may have been applied`));
    expect(r.stderr).toContain(`not done: create ${CHANGES}`);
    // A POST whose outcome is unknown is never retried: that could create a duplicate.
    expect(srv.count('POST')).toBe(1);
    expect(r.stdout).toBe('');
  });

  it('a 422 on an entry names the entry and exits 2', async () => {
    srv.on('GET', '/api/webhooks', f.json(200, envelope([])));
    srv.on(
      'POST',
      '/api/webhooks',
      f.json(422, {
        message: 'Invalid arguments',
        errors: { url: ['This value is not a valid URL.'] },
      }),
    );
    const r = await run(['--file', await fixture('webhooks.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /webhooks\[0\] \(https:\/\/hooks\.example\.com\/sched\/booked\) failed: /,
    );
    expect(r.stderr).toContain('This value is not a valid URL.');
    expect(r.stderr).toContain('done:     nothing was changed');
    expect(r.stderr).toContain(`not done: create ${CHANGES}`);
    expect(srv.count('POST')).toBe(1);
  });

  it('a webhook someone else deleted first is gone, whether 404 comes at once or after a 5xx', async () => {
    const hook = (n: number) => ({
      url: `https://old.example.com/${n}`,
      events: ['meetingScheduled'],
      secret: null,
      created_at: '2024-01-01T00:00:00+00:00',
      uuid: `00000000-0000-4000-8000-00000000000${n}`,
    });
    srv.on('GET', '/api/webhooks', f.json(200, envelope([hook(1), hook(2)])));
    srv.on(
      'DELETE',
      `/api/webhooks/${hook(1).uuid}`,
      f.json(404, { code: 404, message: 'Not found.' }),
    );
    // The first DELETE may have reached the server before its 503: the 404 after it is a success.
    srv.on('DELETE', `/api/webhooks/${hook(2).uuid}`, f.status(503), f.json(404, { code: 404 }));
    const r = await run([
      '--file',
      await fileWith('none.json', { webhooks: [] }),
      '--prune-all',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ deleted: [hook(1).uuid, hook(2).uuid] });
    for (const n of [1, 2]) {
      expect(r.stderr).toContain(
        `${hook(n).uuid}  ${hook(n).url}  (not in the file; it was already gone)`,
      );
    }
  });

  it('a list whose total disagrees with what was read: a warning to run again', async () => {
    const hook = {
      url: BOOKED,
      events: ['meetingScheduled'],
      secret: null,
      created_at: '2024-01-01T00:00:00+00:00',
      uuid: '00000000-0000-4000-8000-0000000000bb',
    };
    srv.on('GET', '/api/webhooks', f.json(200, envelope([hook], { total: 3 })));
    const r = await run([
      '--file',
      await fileWith('one.json', {
        webhooks: [{ url: BOOKED, events: ['meetingScheduled'], secretEnv: 'SYNC_TEST_SECRET' }],
      }),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'the webhook list changed while it was read (1 read, 3 reported); run sync again to check',
    );
    expect(srv.count('POST') + srv.count('DELETE')).toBe(0);
  });

  it('the hint to run again quotes a file name the shell would split', async () => {
    srv.on('GET', '/api/webhooks', f.json(200, envelope([])));
    srv.on('POST', '/api/webhooks', f.json(500, { message: 'Internal error' }));
    const file = await fileWith("my hooks's.json", {
      webhooks: [{ url: BOOKED, events: ['meetingScheduled'], secretEnv: 'SYNC_TEST_SECRET' }],
    });
    const r = await run(['--file', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `run \`sched webhooks sync --file '${file.replace("'", "'\\''")}'\` again`,
    );
  });

  it('Ctrl-C part-way reports what was done, what may have happened, and exits 130', async () => {
    const ac = new AbortController();
    srv.on('GET', '/api/webhooks', f.json(200, envelope([])));
    srv.on(
      'POST',
      '/api/webhooks',
      created('22222222-2222-4222-8222-222222222222', BOOKED, ['meetingScheduled']),
      () => {
        ac.abort('SIGINT');
        return f.hang();
      },
    );
    const r = await run(['--file', await fixture('webhooks.json')], { signal: ac.signal });
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('done:     created 22222222-2222-4222-8222-222222222222 ' + BOOKED);
    expect(r.stderr).toMatch(new RegExp(`unknown: +create ${CHANGES}.*may have been applied`));
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });
});

describe('sched webhooks sync when stdout fails (issue 40)', () => {
  it.each(['ENOSPC', 'EPIPE'])(
    '%s: a replace still finishes (create, then delete); the error says the sync was applied',
    async (code) => {
      const old = await precreate(BOOKED, ['meetingCancelled']);
      sb.requests.length = 0;
      const file = await fixture('webhooks.json');
      const r = await sync(['--file', file, '--prune'], { stdoutFails: { code, writes: 0 } });
      expect(r.code).toBe(1);
      // Every step ran: the creates (one of them a replace's), then the replace's delete.
      expect(mutations()).toEqual([
        'POST /api/webhooks',
        'POST /api/webhooks',
        `DELETE /api/webhooks/${old}`,
      ]);
      expect(serverState().map((w) => w.url)).toEqual([BOOKED, CHANGES]);
      const last = r.stderr.trimEnd().split('\n').at(-1);
      expect(last).toMatch(
        new RegExp(
          `^error: could not write to stdout \\(.*${code}\\): the sync was applied \\(1 created, 1 replaced, 0 deleted, 0 unchanged\\)$`,
        ),
      );
      expect(r.stderr).not.toContain(SECRET);
    },
  );

  it('a dry run (nothing changed) whose reader left: the quiet stop, exit 0', async () => {
    const r = await sync(['--file', await fixture('webhooks.json'), '--dry-run'], {
      stdoutFails: { code: 'EPIPE', writes: 0 },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/error:/);
    expect(mutations()).toEqual([]);
  });
});
