// The recording as a journal (issue 40): `events replay` appends one outcome line per delivery it
// sent, the lines `listen --record` wrote stay byte-exact, and `--failed` means "whose latest
// outcome failed" — so a second `replay --failed` after one that succeeded sends nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { chmod, link, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { captureOf, type CapturedDelivery } from '../../../src/domain/webhooks/listen/capture.js';
import { OUTCOME_KIND } from '../../../src/domain/webhooks/listen/journal.js';
import { receiversClosedAfterEach, type Receiver } from '../../helpers/receiver.js';
import { BIN, runSched } from '../../helpers/run.js';
import { unavailable } from '../../helpers/skip.js';
import { PRLIMIT, schedWithFileLimit } from '../../helpers/file-size-limit.js';

let dir: string | undefined;
const startReceiver = receiversClosedAfterEach();
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const body = (uuid: string) =>
  JSON.stringify({ event: 'meetingScheduled', uuid, data: { uuid: `m-${uuid}` } });

/** A delivery line as `listen --record --forward-to` writes it, with its forwards' statuses. */
function recorded(uuid: string, forwards?: number[]): string {
  const c: CapturedDelivery = captureOf(
    {
      method: 'POST',
      path: '/hook',
      rawHeaders: ['Content-Type', 'application/json'],
      body: Buffer.from(body(uuid)),
    },
    {
      receivedAt: new Date('2026-11-27T10:00:00Z'),
      event: 'meetingScheduled',
      uuid,
      signature: 'unchecked',
      signatureReason: null,
      forwards: forwards?.map((status) => ({ url: 'http://127.0.0.1:1/app', status, attempts: 3 })),
    },
  );
  return JSON.stringify(c) + '\n';
}

async function recording(text: string, mode = 0o600): Promise<string> {
  dir ??= await mkdtemp(join(tmpdir(), 'sched-journal-'));
  const file = join(dir, `rec-${Math.random().toString(36).slice(2)}.ndjson`);
  await writeFile(file, text, { mode });
  await chmod(file, mode);
  return file;
}

async function receiver(statuses?: number[]): Promise<Receiver> {
  const r = await startReceiver({ statuses });
  return r;
}

interface Outcome {
  kind: string;
  line: number;
  uuid: string | null;
  to: string;
  status: number | null;
  at: string;
}

/** The outcome lines after the recording's own `original` bytes (which must be unchanged). */
async function outcomes(file: string, original: string): Promise<Outcome[]> {
  const text = await readFile(file, 'utf8');
  expect(text.slice(0, original.length)).toBe(original);
  return text
    .slice(original.length)
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Outcome);
}

/** `cat <text> | sched events replay /dev/stdin <args>`: the recording on a real pipe. */
async function piped(text: string, args: string[]) {
  const file = await recording(text);
  const r = await execa(
    'sh',
    [
      '-c',
      'f=$1 node=$2 bin=$3; shift 3; cat "$f" | "$node" "$bin" events replay /dev/stdin "$@"',
      ...['sh', file, process.execPath, BIN, ...args],
    ],
    { reject: false, env: { NO_COLOR: '1' }, stripFinalNewline: false },
  );
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

describe('events replay: the recording is a journal', () => {
  it('a second --failed after a replay that succeeded sends nothing, and says so', async () => {
    const original = recorded('lost', [500]) + recorded('took', [200]);
    const file = await recording(original);
    const app = await receiver();

    const first = await runSched(['events', 'replay', file, '--failed', '--to', app.url]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^line 1 {2}meetingScheduled lost {2}200 OK in \d+ ms\n$/);
    expect(app.received.map((r) => r.body.toString())).toEqual([body('lost')]);
    const [o, ...more] = await outcomes(file, original);
    expect(more).toEqual([]);
    expect(o).toMatchObject({
      kind: OUTCOME_KIND,
      line: 1,
      uuid: 'lost',
      to: app.url,
      status: 200,
    });
    expect(Number.isNaN(Date.parse(o!.at))).toBe(false);

    const second = await runSched(['events', 'replay', file, '--failed', '--to', app.url]);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('');
    expect(second.stderr).toBe(
      `nothing to replay: no delivery in "${file}" failed at its latest try (1 delivery that failed was replayed since with a 2xx answer)\n`,
    );
    expect(app.received).toHaveLength(1);
    expect(await outcomes(file, original)).toHaveLength(1);
  });

  it('--failed follows the latest outcome: a failed replay is sent again, a fixed one is not', async () => {
    const original = recorded('a', [500]) + recorded('b', [200]) + recorded('c');
    const file = await recording(original);
    const down = await receiver([503, 503]);
    // Every delivery (no --failed): a and b fail at the app (503), c gets 200.
    const all = await runSched(['events', 'replay', file, '--to', down.url, '--json']);
    expect(all.code).toBe(1);
    expect((await outcomes(file, original)).map((o) => [o.line, o.uuid, o.status])).toEqual([
      [1, 'a', 503],
      [2, 'b', 503],
      [3, 'c', 200],
    ]);
    // b's forward went through, but its latest outcome (the replay) failed: --failed sends it.
    const app = await receiver();
    const again = await runSched(['events', 'replay', file, '--failed', '--to', app.url]);
    expect(again.code, again.stderr).toBe(0);
    expect(app.received.map((r) => r.body.toString())).toEqual([body('a'), body('b')]);
    const none = await runSched(['events', 'replay', file, '--failed', '--to', app.url]);
    expect(none.code).toBe(0);
    expect(none.stderr).toMatch(/^nothing to replay: .* \(2 deliveries that failed were replayed/);
    expect(app.received).toHaveLength(2);
  });

  it('a replay that gets no answer records null and the error; --last counts deliveries only', async () => {
    const original = recorded('x', [500]) + recorded('y', [500]);
    const file = await recording(original);
    const r = await runSched(['events', 'replay', file, '--to', 'http://127.0.0.1:1/hook']);
    expect(r.code).toBe(1);
    const [o] = await outcomes(file, original);
    expect(o).toMatchObject({ line: 1, uuid: 'x', status: null });
    expect((o as unknown as { error: string }).error).toMatch(/\S/);
    const app = await receiver();
    const last = await runSched([
      'events',
      'replay',
      file,
      '--failed',
      '--last',
      '1',
      '--to',
      app.url,
    ]);
    expect(last.code).toBe(0);
    expect(app.received.map((x) => x.body.toString())).toEqual([body('y')]);
  });

  it('an outcome whose line holds another delivery (an edited file) is ignored', async () => {
    const stale = JSON.stringify({
      kind: OUTCOME_KIND,
      at: '2026-11-27T10:00:00Z',
      line: 1,
      uuid: 'someone-else',
      to: 'http://x/',
      status: 200,
    });
    const file = await recording(recorded('a', [500]) + stale + '\n');
    const app = await receiver();
    const r = await runSched(['events', 'replay', file, '--failed', '--to', app.url]);
    expect(r.code, r.stderr).toBe(0);
    expect(app.received).toHaveLength(1);
  });

  it('a malformed outcome line is refused naming its line, nothing sent', async () => {
    const bad = JSON.stringify({ kind: OUTCOME_KIND, line: 'one', uuid: 'a' });
    const file = await recording(recorded('a', [500]) + bad + '\n');
    const app = await receiver();
    const r = await runSched(['events', 'replay', file, '--to', app.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: ".*" is not a recording of .*: line 2 has no delivery line\n/,
    );
    expect(app.received).toHaveLength(0);
  });

  it('a recording that does not end with a line break gets its outcome on a line of its own', async () => {
    const original = recorded('a', [500]).trimEnd();
    const file = await recording(original);
    const app = await receiver();
    expect((await runSched(['events', 'replay', file, '--to', app.url])).code).toBe(0);
    const text = await readFile(file, 'utf8');
    expect(text.startsWith(original + '\n')).toBe(true);
    expect(await outcomes(file, original + '\n')).toHaveLength(1);
    // ...and it still reads: --failed now has nothing to send.
    const again = await runSched(['events', 'replay', file, '--failed', '--to', app.url]);
    expect(again.stderr).toMatch(/^nothing to replay/);
  });

  it('--failed from a pipe holds only what failed, and refuses what failed only in a later replay', async () => {
    const outcome = (line: number, uuid: string, status: number) =>
      JSON.stringify({ kind: OUTCOME_KIND, at: 'now', line, uuid, to: 'http://x/', status }) + '\n';
    const app = await receiver();
    const fixed = recorded('a', [500]) + recorded('b', [500]) + outcome(1, 'a', 200);
    const ok = await piped(fixed, ['--failed', '--to', app.url]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(app.received.map((x) => x.body.toString())).toEqual([body('b')]);
    expect(ok.stderr).toMatch(/warning: this replay's outcomes are not recorded in "\/dev\/stdin"/);

    const later = recorded('a', [200]) + outcome(1, 'a', 500);
    const no = await piped(later, ['--failed', '--to', app.url]);
    expect(no.code).toBe(2);
    expect(no.stderr).toMatch(/line 1 failed only in a replay after it\nhint: save the recording/);
    expect(app.received).toHaveLength(1);
  });
});

describe('events replay: appending outcomes follows the rule of --record', () => {
  const refused = async (file: string, original: string, why: string) => {
    const app = await receiver();
    const r = await runSched(['events', 'replay', file, '--to', app.url]);
    // Still sent (a shared fixture is replayed as before), said once, the file untouched.
    expect(r.code, r.stderr).toBe(0);
    expect(app.received).toHaveLength(1);
    expect(r.stderr).toContain(
      `warning: this replay's outcomes are not recorded in "${file}": ${why}; a later --failed will not know of them\n`,
    );
    expect(await readFile(file, 'utf8')).toBe(original);
  };

  it('readable by others: not appended to', async () => {
    const original = recorded('a');
    await refused(
      await recording(original, 0o644),
      original,
      'it is readable by others (mode 0644), and a reader may have it open already',
    );
  });

  it('with another hard link: not appended to', async () => {
    const original = recorded('a');
    const file = await recording(original);
    await link(file, file + '.other');
    await refused(file, original, 'it has other hard links (another name for the same file)');
  });

  it('a symbolic link: not appended to (the file it names is read)', async () => {
    const original = recorded('a');
    const file = await recording(original);
    const named = join(dir!, 'named.ndjson');
    await symlink(file, named);
    const app = await receiver();
    const r = await runSched(['events', 'replay', named, '--to', app.url]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`in "${named}": it is a symbolic link;`);
    expect(await readFile(file, 'utf8')).toBe(original);
  });
});

describe.skipIf(unavailable(!PRLIMIT && 'prlimit (util-linux) is not installed'))(
  'events replay: an outcome that cannot be appended',
  () => {
    it('stops sending, says what was sent on one line, exit 1, the recording still reads', async () => {
      const original = recorded('a', [500]) + recorded('b', [500]) + recorded('c', [500]);
      const file = await recording(original);
      const app = await receiver();
      // The file may grow by one outcome line, not two: Node ignores SIGXFSZ, the write fails.
      const cap = Buffer.byteLength(original) + 150;
      const run = await schedWithFileLimit(cap, ['events', 'replay', file, '--to', app.url]);
      expect(run.code, run.stderr).toBe(1);
      expect(app.received.map((x) => x.body.toString())).toEqual([body('a'), body('b')]);
      expect(run.stdout).toMatch(/^line 1 .*200 OK.*\nline 2 .*200 OK.*\n$/);
      expect(run.stderr).toBe(
        [
          'replaying 3 deliveries to ' + app.url + ' with their recorded signatures',
          `error: could not write to recording "${file}" (the file is too large, EFBIG): 2 of 3 deliveries were replayed; the outcome of line 2 (200) was not recorded`,
          '  the other 1 was not sent',
          '',
        ].join('\n'),
      );
      // No part of line 2's outcome was left behind: the recording still reads.
      expect((await outcomes(file, original)).map((o) => o.line)).toEqual([1]);
      const again = await runSched(['events', 'replay', file, '--failed', '--to', app.url]);
      expect(again.code, again.stderr).toBe(0);
      expect(app.received.slice(2).map((x) => x.body.toString())).toEqual([body('b'), body('c')]);
    });
  },
);
