// The output side as a fault class (issue 40): every command of the tree × {stdout on a full
// device, stdout closed before the first write, stderr on a full device, a reader slower than
// the work}, on the built CLI, against the sandbox, with the server's requests counted.
//
// What each fault must end in:
//   - stdout full (/dev/full): one `error: could not write to stdout (... ENOSPC)` line, exit 1;
//     a command that changed the account says what it did on that line; no request after the
//     failure but those in flight (never more than a healthy run; a bulk one stops early).
//   - stdout closed early (`| head -0`): a read-only command stops quietly with 0; one that
//     changed the account still says what it did, exit 1.
//   - stderr full: a note that cannot be written never turns success into failure: the exit
//     code and stdout of a healthy run.
//   - a slow reader: nothing lost (the healthy run's stdout), and the work waits for the reader
//     instead of filling memory (the bulk row: requests stop while the reader does not read).
// Never a stack trace. A command added to the tree without a row here fails the first test.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLeaves } from './command-tree.js';
import { SCHED_COMMAND } from '../helpers/run.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { mcpSession } from '../helpers/mcp-stdin.js';
import { unavailable } from '../helpers/skip.js';
import { createHmac } from 'node:crypto';

type Fault = 'healthy' | 'stdout full' | 'stdout closed' | 'stderr full' | 'slow reader';

interface Row {
  /** The command of the tree (its path), and what makes this row different. */
  name: string;
  /** Arguments; `setup` runs first (state the command needs) and may return more. */
  argv: (s: Setup) => string[];
  stdin?: string;
  env?: Record<string, string>;
  /** Changes the account (or the sandbox's state): says what it did when stdout fails. */
  changes?: RegExp;
  /** Writes nothing to stdout (its words are notes on stderr): stdout faults change nothing. */
  noStdout?: true;
  /** Many changes in a row: a failed write stops them (fewer requests than a healthy run). */
  bulk?: true;
  /** After the run: the account as the fault must leave it. */
  after?: (fault: Fault) => void;
  /** Runs until stopped: SIGINT after this many ms. */
  stopAfterMs?: number;
  /** What the row needs before it runs (webhooks to list or delete, a link, a meeting). */
  needs?: Array<'webhooks' | 'link' | 'meeting'>;
  /** Shell completion: whatever happens, exit 0 and nothing on stderr. */
  completion?: true;
  /** Requests a failure may add to a healthy run's: the undo of a change (default 0). */
  undo?: number;
}

/** How many webhooks of the sandbox have `url`. */
function hooksAt(url: string): number {
  return [...sb.state.webhooks.values()].filter((w) => w.url === url).length;
}

interface Setup {
  code: string;
  meeting: string;
  file: string;
  recording: string;
}

let sb: TestSandbox;
let rx: Receiver;
const config = useConfigDir('sched-output-faults-');
const noDevFull = unavailable(!existsSync('/dev/full') && 'no /dev/full here (a Linux device)');
const SECRET = 'output-fault-secret-0123456789';
const HOOK = 'https://hooks.example.com/output-faults';
const PAYLOAD = '{"event":"meetingScheduled","data":{}}';
const SIGNATURE = createHmac('sha256', SECRET).update(PAYLOAD).digest('base64');

beforeAll(async () => {
  sb = await startTestSandbox();
  rx = await startReceiver();
});
afterAll(async () => {
  await sb?.close();
  await rx?.close();
});

const ROWS: Row[] = [
  { name: 'auth login', argv: () => ['auth', 'login', '--with-key'], noStdout: true },
  { name: 'auth status', argv: () => ['auth', 'status', '--json'] },
  { name: 'auth logout', argv: () => ['auth', 'logout'], noStdout: true },
  { name: 'profiles ls', argv: () => ['profiles', 'ls', '--json'] },
  { name: 'types list', argv: () => ['types', 'list', '--all'] },
  { name: 'types get', argv: () => ['types', 'get', 'intro-call', '--json'] },
  {
    name: 'link create',
    argv: () => ['link', 'create', 'intro-call', '--count', '60', '--concurrency', '4'],
    changes: /: \d+ links? (was|were) minted; \d+ (was|were) written to stdout$/,
    bulk: true,
  },
  {
    name: 'webhooks add',
    argv: () => ['webhooks', 'add', '--url', HOOK, '--secret', SECRET],
    changes: /: webhook \S+ was created$/,
  },
  {
    name: 'webhooks add (a generated secret)',
    argv: () => ['webhooks', 'add', '--url', HOOK],
    changes: /: the new webhook \S+ was deleted, since its signing secret could not be kept$/,
    // The DELETE that undoes the webhook nobody has the secret of: a step of a change begun.
    undo: 1,
    after: (fault) => {
      // Nobody got the secret: the webhook must not stay.
      if (fault === 'stdout full' || fault === 'stdout closed') {
        expect(hooksAt(HOOK), fault).toBe(0);
      }
    },
  },
  { name: 'webhooks ls', argv: () => ['webhooks', 'ls'], needs: ['webhooks'] },
  {
    name: 'webhooks rm',
    argv: () => ['webhooks', 'rm', '--all', '--yes'],
    needs: ['webhooks'],
    changes: /: \d+ webhooks? (was|were) deleted; \d+ (was|were) written to stdout$/,
    bulk: true,
  },
  {
    name: 'webhooks sync',
    argv: (s) => ['webhooks', 'sync', '--file', s.file],
    env: { HOOK_SECRET: SECRET },
    changes: /: the sync was applied \(1 created, /,
  },
  {
    name: 'webhooks listen',
    argv: () => ['webhooks', 'listen', '--port', '0', '--json', '--max-time', '1'],
  },
  {
    name: 'webhooks listen --register',
    argv: () => [
      ...['webhooks', 'listen', '--port', '0', '--json', '--max-time', '1'],
      ...['--register', 'https://public.example.com/h', '--secret', SECRET],
    ],
    // Registered for its lifetime: deleted on the way out whatever stdout did.
    after: (fault) => expect(hooksAt('https://public.example.com/h'), fault).toBe(0),
  },
  { name: 'events sample', argv: () => ['events', 'sample', 'meetingScheduled'] },
  {
    name: 'events send',
    argv: () => ['events', 'send', 'meetingScheduled', '--to', rx.url, '--json'],
  },
  {
    name: 'events replay',
    argv: (s) => ['events', 'replay', s.recording, '--to', rx.url, '--json'],
  },
  { name: 'sig sign', argv: () => ['sig', 'sign', '--secret', SECRET], stdin: PAYLOAD },
  {
    name: 'sig verify',
    argv: () => ['sig', 'verify', '--signature', SIGNATURE, '--secret', SECRET, '--json'],
    stdin: PAYLOAD,
  },
  { name: 'sandbox', argv: () => ['sandbox', '--port', '0'], stopAfterMs: 1500 },
  {
    name: 'sandbox book',
    argv: (s) => ['sandbox', 'book', s.code],
    needs: ['link'],
    changes: /: booked meeting \S+ in the sandbox$/,
  },
  {
    name: 'sandbox cancel',
    argv: (s) => ['sandbox', 'cancel', s.meeting],
    needs: ['meeting'],
    changes: /: cancelled meeting \S+ in the sandbox$/,
  },
  {
    name: 'sandbox reschedule',
    argv: (s) => ['sandbox', 'reschedule', s.meeting, '--at', '2031-01-02T10:00:00Z'],
    needs: ['meeting'],
    changes: /: rescheduled meeting \S+ in the sandbox$/,
  },
  { name: 'sandbox meetings', argv: () => ['sandbox', 'meetings'], needs: ['meeting'] },
  { name: 'sandbox deliveries', argv: () => ['sandbox', 'deliveries'], needs: ['meeting'] },
  { name: 'api', argv: () => ['api', 'users/me/meeting-types'] },
  {
    name: 'api -X POST',
    argv: () => [
      ...['api', '-X', 'POST', 'webhooks', '-f', `url=${HOOK}`],
      ...['-f', 'events[]=meetingScheduled', '-f', `secret=${SECRET}`],
    ],
    changes: /: POST \/?webhooks was answered 201$/,
  },
  { name: 'mcp', argv: () => ['mcp'], stdin: mcpSession('list_meeting_types', {}) },
  { name: 'completion', argv: () => ['completion', 'bash'] },
  // Under a TAB key: never an error, never a word on stderr (the completion contract).
  { name: '__complete', argv: () => ['__complete', 'meeting-types'], completion: true },
  { name: 'help', argv: () => ['help', 'webhooks', 'sync'] },
];

/** The state every row starts from: 30 webhooks, a link to book, a booked meeting, files. */
async function setup(row: Row): Promise<Setup> {
  sb.state.webhooks.clear();
  sb.state.links.clear();
  sb.state.meetings.clear();
  const needs = new Set(row.needs ?? []);
  for (let i = 0; i < (needs.has('webhooks') ? 30 : 0); i++) {
    await sb.api('/webhooks', {
      method: 'POST',
      body: JSON.stringify({ url: `${HOOK}/${i}`, events: ['meetingScheduled'], secret: SECRET }),
    });
  }
  const typeUuid = [...sb.state.meetingTypesByUuid.keys()][0]!;
  const mint = async () => {
    const res = await sb.api('/single-use-link', {
      method: 'POST',
      body: JSON.stringify({ meeting_type_uuid: typeUuid }),
    });
    return ((await res.json()) as { code: string }).code;
  };
  const code = needs.has('link') ? await mint() : '';
  let meeting = '';
  if (needs.has('meeting')) {
    const booked = await sb.api('/_sandbox/book', {
      method: 'POST',
      body: JSON.stringify({ code: await mint(), name: 'Ada', email: 'ada@example.com' }),
    });
    meeting = ((await booked.json()) as { meeting: { uuid: string } }).meeting.uuid;
  }
  const file = path.join(config.path, 'hooks.json');
  writeFileSync(
    file,
    JSON.stringify({
      webhooks: [{ url: `${HOOK}/new`, events: ['meetingScheduled'], secretEnv: 'HOOK_SECRET' }],
    }),
  );
  const recording = path.join(config.path, 'capture.ndjson');
  writeFileSync(
    recording,
    Array.from({ length: 3 }, (_, i) =>
      JSON.stringify({
        kind: 'sched.webhook-delivery/1',
        receivedAt: '2026-01-05T10:00:00Z',
        method: 'POST',
        path: '/hook',
        headers: [['content-type', 'application/json']],
        body: PAYLOAD,
        bytes: PAYLOAD.length,
        event: 'meetingScheduled',
        uuid: `d-${i}`,
        signature: 'unchecked',
      }),
    ).join('\n') + '\n',
  );
  sb.requests.length = 0;
  return { code, meeting, file, recording };
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  requests: number;
}

/** Runs the built CLI with its streams set up for `fault`. */
async function runWith(row: Row, fault: Fault): Promise<Ran> {
  const s = await setup(row);
  const full = fault === 'stdout full' || fault === 'stderr full' ? openSync('/dev/full', 'w') : -1;
  const [command, ...pre] = SCHED_COMMAND;
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...sb.env,
    SCHED_CONFIG_DIR: config.path,
    SCHED_API_KEY: row.name === 'auth login' ? undefined : sb.apiKey,
    NO_COLOR: '1',
    FORCE_COLOR: undefined,
    CI: undefined,
    ...row.env,
  };
  const child = spawn(command!, [...pre, ...row.argv(s)], {
    env,
    stdio: [
      'pipe',
      fault === 'stdout full' ? full : 'pipe',
      fault === 'stderr full' ? full : 'pipe',
    ],
  });
  if (full !== -1) closeSync(full);
  child.stdin!.end(row.name === 'auth login' ? `${sb.apiKey}\n` : (row.stdin ?? ''));
  let stdout = '';
  let stderr = '';
  if (fault === 'stdout closed') child.stdout!.destroy();
  else if (child.stdout) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => (stdout += c));
    if (fault === 'slow reader') {
      child.stdout.pause();
      setTimeout(() => child.stdout!.resume(), 400);
    }
  }
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (c: string) => (stderr += c));
  const stop = row.stopAfterMs
    ? setTimeout(() => child.kill('SIGINT'), row.stopAfterMs)
    : undefined;
  const watchdog = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  clearTimeout(stop);
  clearTimeout(watchdog);
  // Let the sandbox finish recording what reached it.
  await new Promise((r) => setTimeout(r, 50));
  return { code, stdout, stderr, requests: sb.requests.length };
}

const errorLinesOf = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('error:'));
const lineCount = (s: string) => s.split('\n').filter((l) => l.trim() !== '').length;

function expectNoCrash(r: Ran, label: string): void {
  expect(r.stderr, `${label}: a stack trace`).not.toMatch(/\n\s+at .+:\d+:\d+|node:internal/);
  expect(r.stderr, label).not.toContain('unexpected failure');
}

describe.skipIf(noDevFull)('output faults × every command (built CLI)', () => {
  it('every command of the tree has a row', async () => {
    const leaves = (await commandLeaves()).map((l) => l.path).sort();
    const named = new Set(ROWS.map((r) => r.name.replace(/ (\(.*\)|-X .*|--register)$/, '')));
    expect(leaves.filter((l) => !named.has(l))).toEqual([]);
  });

  for (const row of ROWS) {
    it(
      row.name,
      async () => {
        const healthy = await runWith(row, 'healthy');
        expectNoCrash(healthy, `${row.name} healthy`);
        if (row.changes) expect(healthy.code, healthy.stderr).toBe(0);
        row.after?.('healthy');
        const label = (f: Fault) => `${row.name} | ${f}\nstderr:\n${healthy.stderr}`;

        const full = await runWith(row, 'stdout full');
        expectNoCrash(full, `${row.name} | stdout full`);
        row.after?.('stdout full');
        expect(full.requests, label('stdout full')).toBeLessThanOrEqual(
          healthy.requests + (row.undo ?? 0),
        );
        if (row.completion) {
          expect([full.code, full.stderr]).toEqual([0, '']);
        } else if (row.noStdout) {
          expect(full.code).toBe(healthy.code);
        } else {
          expect(full.code, `${label('stdout full')}\n${full.stderr}`).toBe(1);
          const errors = errorLinesOf(full.stderr);
          expect(errors, full.stderr).toHaveLength(1);
          expect(errors[0]).toMatch(
            /^error: could not write to stdout \(no space left on the device, ENOSPC\)/,
          );
          if (row.changes) expect(errors[0]).toMatch(row.changes);
          if (row.bulk) expect(full.requests).toBeLessThan(healthy.requests);
        }

        const closed = await runWith(row, 'stdout closed');
        expectNoCrash(closed, `${row.name} | stdout closed`);
        row.after?.('stdout closed');
        expect(closed.requests, label('stdout closed')).toBeLessThanOrEqual(
          healthy.requests + (row.undo ?? 0),
        );
        if (row.noStdout || row.completion) {
          expect(closed.code).toBe(healthy.code);
        } else if (row.changes) {
          expect(closed.code, closed.stderr).toBe(1);
          const errors = errorLinesOf(closed.stderr);
          expect(errors, closed.stderr).toHaveLength(1);
          expect(errors[0]).toMatch(
            /^error: could not write to stdout \(the reader closed it, EPIPE\)/,
          );
          expect(errors[0]).toMatch(row.changes);
          if (row.bulk) expect(closed.requests).toBeLessThan(healthy.requests);
        } else {
          // The quiet stop: what the command would have exited with, and no error line.
          expect(errorLinesOf(closed.stderr), closed.stderr).toEqual([]);
          expect(closed.code, closed.stderr).toBe(healthy.code);
        }

        const noStderr = await runWith(row, 'stderr full');
        row.after?.('stderr full');
        expect(noStderr.code, label('stderr full')).toBe(healthy.code);
        expect(lineCount(noStderr.stdout)).toBe(lineCount(healthy.stdout));

        const slow = await runWith(row, 'slow reader');
        expectNoCrash(slow, `${row.name} | slow reader`);
        row.after?.('slow reader');
        expect(slow.code, label('slow reader')).toBe(healthy.code);
        expect(lineCount(slow.stdout)).toBe(lineCount(healthy.stdout));
      },
      60_000,
    );
  }
});

describe('a reader slower than the work (built CLI)', () => {
  it('link create: requests stop while nobody reads (memory bounded), and nothing is lost', async () => {
    const total = 5000;
    sb.state.links.clear();
    sb.requests.length = 0;
    const [command, ...pre] = SCHED_COMMAND;
    const child = spawn(
      command!,
      [...pre, 'link', 'create', 'intro-call', '--count', String(total), '-q'],
      {
        env: { ...process.env, ...sb.env, SCHED_CONFIG_DIR: config.path, CI: undefined },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.pause();
    const posts = () => sb.requests.filter((r) => r.method === 'POST').length;
    // Wait until the count stops growing: the pipe is full and the work waits for the reader.
    let last = -1;
    for (let i = 0; i < 40 && posts() !== last; i++) {
      last = posts();
      await new Promise((r) => setTimeout(r, 500));
    }
    const held = posts();
    expect(held).toBe(last);
    // A pipe holds ~64 KiB (~1,600 URLs); the work runs at most a window (16) past it.
    expect(held).toBeLessThan(total / 2);
    child.stdout.on('data', (c: string) => (stdout += c));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const urls = stdout.trim().split('\n');
    expect(urls).toHaveLength(total);
    expect(new Set(urls).size).toBe(total);
    expect(posts()).toBe(total);
  }, 60_000);
});
