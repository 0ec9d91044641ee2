// Issue 38, "the class, not only the cases" (finding 4, the terminal part): a key and a webhook
// secret planted in every field of every server answer never appear whole, nor in any piece of
// 6 or more characters, wherever text reaches a person: table cells, wrapped and record
// layouts, TSV, CSV, JSON, NDJSON, --quiet lines, hints, stop summaries and errors, at widths
// 40, 60, 90 and 200, and MCP frames. (Not `--record`, byte-exact by contract, nor
// `--secret-out`, the secret's own file.) The webhook secret is one the command
// knows: given for `webhooks add` (SCHED_WEBHOOK_SECRET) and in `webhooks sync`'s file; a
// command that never held a secret cannot know what to mask.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runSched } from '../helpers/run.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { envelope, f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { leakedPieces } from '../helpers/leak.js';
import { mcpResult, mcpSession } from '../helpers/mcp-stdin.js';
import { FORMAT_ROWS, OUTPUT_FORMATS } from '../../src/output/formats.js';

const KEY = 'sk_live_Q7xP2mZr9TkWb4LnYc8VhJd3Fs6Gq';
const SECRET = 'whsec_Mv4Lq9Tz2Xc7Rb5Nk8Wp3Yd6Hs1Jf0';
const UUID = '3f1c9a4e-8a52-4f0e-9d7b-2c5e6a1b0d11';
const MT_PATH = '/api/users/me/meeting-types';

/** Text holding both, as a name holds them (wrapped), and each alone (a value kept whole). */
const planted = (n: number) =>
  [`Intro call ${n} with ${KEY} and ${SECRET} end`, KEY, SECRET, `x${KEY}${SECRET}`][n % 4]!;

function meetingType(n: number): Record<string, unknown> {
  return {
    uuid: n === 0 ? UUID : planted(n),
    name: planted(n),
    slug: n === 0 ? 'intro' : planted(n + 1),
    description: planted(n + 2),
    duration: 30,
    [planted(n + 3)]: planted(n),
  };
}

function webhook(n: number): Record<string, unknown> {
  return {
    uuid: n === 0 ? UUID : planted(n),
    url: `https://hooks.example.com/${planted(n)}`,
    events: ['meetingScheduled', planted(n + 1)],
    secret: planted(n + 2),
    created_at: planted(n + 3),
  };
}

const failure = (status: number) =>
  f.json(status, {
    code: status,
    message: planted(0),
    errors: { [planted(1)]: [planted(2), planted(3)], url: [planted(0)] },
  });

function plantEverywhere(srv: FaultServer): void {
  srv.clear();
  srv.on('GET', MT_PATH, (req) => {
    const page = Number(req.query.get('page') ?? 1);
    const types = [0, 1, 2, 3].map((n) => meetingType(n + 4 * (page - 1)));
    return f.json(200, envelope(types, { path: MT_PATH, page, pages: 2, total: 8 }));
  });
  srv.on('GET', '/api/webhooks', f.json(200, envelope([0, 1, 2, 3].map(webhook))));
  srv.on('POST', '/api/webhooks', f.json(201, webhook(0)));
  srv.on('DELETE', '/api/webhooks/*', f.status(204), f.status(204), failure(403));
  srv.on(
    'POST',
    '/api/single-use-link',
    f.json(201, { code: planted(1), url: `https://x.example/s/${planted(0)}` }),
    f.json(201, { code: planted(2), url: `https://x.example/s/${KEY}` }),
    failure(403),
  );
}

const config = useConfigDir('sched-sec-everywhere-');
let srv: FaultServer;
let syncFile: string;
beforeAll(async () => {
  srv = await startFaultServer();
  syncFile = path.join(config.path, 'hooks.json');
  writeFileSync(
    syncFile,
    JSON.stringify({
      webhooks: [
        { url: 'https://hooks.example.com/a', events: ['meetingScheduled'], secretEnv: 'HOOK' },
      ],
    }),
  );
});
afterAll(async () => {
  await srv.close();
});

/** The commands that print what the server answered, each with its own arguments. */
const COMMANDS: string[][] = [
  ['types', 'list'],
  ['types', 'list', '--all'],
  ['types', 'get', 'intro'],
  ['webhooks', 'ls'],
  ['link', 'create', UUID, '--count', '4'],
  ['link', 'create', UUID],
  ['webhooks', 'add', '--url', 'https://hooks.example.com/a'],
  ['webhooks', 'rm', '--all', '--yes'],
  ['webhooks', 'sync', '--file', '', '--prune', '--yes'],
  ['api', 'users/me/meeting-types'],
];

/** The ways each is printed: the terminal at four widths, a pipe, each machine format. */
const LAYOUTS: Array<{ label: string; args: string[]; tty?: number }> = [
  ...[40, 60, 90, 200].map((w) => ({ label: `terminal ${w}`, args: [], tty: w })),
  { label: 'pipe (TSV)', args: [] },
  { label: 'quiet', args: ['-q'] },
  // Each format not for people (csv, json, ndjson, …), from the format table.
  ...OUTPUT_FORMATS.filter((o) => !FORMAT_ROWS[o].human).map((o) => ({
    label: o,
    args: ['-o', o],
  })),
  { label: 'json on a terminal', args: ['--json'], tty: 60 },
  { label: 'table asked', args: ['-o', 'table'], tty: 40 },
];

async function run(argv: string[], tty?: number, stdin?: string) {
  const args = argv.map((a, i) => (a === '' && argv[i - 1] === '--file' ? syncFile : a));
  return runSched(args, {
    stdin,
    tty: tty !== undefined,
    columns: tty,
    env: {
      SCHED_BASE_URL: srv.baseUrl,
      SCHED_API_KEY: KEY,
      SCHED_WEBHOOK_SECRET: SECRET,
      HOOK: SECRET,
      SCHED_CONFIG_DIR: config.path,
      ...(tty !== undefined ? { COLUMNS: String(tty) } : {}),
    },
  });
}

function expectNoPiece(r: { stdout: string; stderr: string }, label: string): void {
  for (const s of [KEY, SECRET]) {
    expect(leakedPieces(r.stdout, s), `${label}: stdout\n${r.stdout}`).toEqual([]);
    expect(leakedPieces(r.stderr, s), `${label}: stderr\n${r.stderr}`).toEqual([]);
  }
}

describe('a key and a webhook secret in every field of every answer never show', () => {
  for (const argv of COMMANDS) {
    it(argv.filter(Boolean).slice(0, 3).join(' ') + ` (${argv.length} words)`, async () => {
      let printed = 0;
      for (const layout of LAYOUTS) {
        plantEverywhere(srv);
        const r = await run([...argv, ...layout.args], layout.tty);
        printed += r.stdout.length;
        expectNoPiece(r, `${argv.join(' ')} ${layout.label} (exit ${r.code})`);
      }
      expect(printed).toBeGreaterThan(0);
    });
  }

  it('errors: a 401, a 403 and a 422 whose every field holds them, at every width', async () => {
    for (const status of [401, 403, 422]) {
      for (const tty of [40, 60, 90, 200, undefined]) {
        srv.clear();
        srv.on('*', '/api/*', failure(status));
        for (const argv of [
          ['types', 'list'],
          ['webhooks', 'add', '--url', 'https://hooks.example.com/a'],
          ['link', 'create', UUID],
        ]) {
          const r = await run(argv, tty);
          expect(r.code).not.toBe(0);
          expectNoPiece(r, `${argv.join(' ')} ${status} ${tty ?? 'pipe'}`);
        }
      }
    }
  });

  it('MCP frames: every tool that reads an answer, and its errors', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['list_meeting_types', {}],
      ['list_meeting_types', { all: true }],
      ['list_webhooks', {}],
      ['create_single_use_link', { meeting_type: UUID }],
    ];
    for (const [tool, args] of calls) {
      for (const fail of [undefined, 401, 422]) {
        plantEverywhere(srv);
        if (fail) srv.on('*', '/api/*', failure(fail));
        const r = await run(['mcp', '--allow-write'], undefined, mcpSession(tool, args));
        expect(mcpResult(r.stdout).content.length, `${tool} ${fail}`).toBeGreaterThan(0);
        expectNoPiece(r, `mcp ${tool} ${fail ?? 'ok'}`);
      }
    }
  });
});
