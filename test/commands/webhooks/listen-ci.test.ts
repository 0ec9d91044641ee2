// `webhooks listen` for scripts and CI: --count and --max-time end it by themselves, the ready
// line (and with --json the first stdout line) says when to trigger, and --record keeps every
// delivery for `events replay`.
import { afterEach, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import {
  chmod,
  chown,
  lstat,
  mkdtemp,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli.js';
import { createBufferIO, type BufferIO } from '../../helpers/buffer-io.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { until } from '../../helpers/until.js';
import { runsElsewhere } from '../../helpers/skip.js';
import { isPrivateGroup } from '../../../src/platform-dirs.js';

const IS_ROOT = process.platform !== 'win32' && process.getuid?.() === 0;
/** As root, "another user" is uid 65534 (nobody), as in test/config/trust-refusals.test.ts. */
const OTHER_UID = 65534;
/** A group shared by system users (daemon on Debian): never anyone's private group. */
const SHARED_GID = 1;
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const SECRET = 'ci-secret-5521';
const sign = (body: string | Buffer) => createHmac('sha256', SECRET).update(body).digest('base64');
const delivery = (event: string, uuid: string) =>
  JSON.stringify({ event, uuid, data: { uuid: `m-${uuid}` } });

interface Started {
  io: BufferIO;
  done: Promise<number>;
  url: string;
  stop(): Promise<number>;
}

async function listen(argv: string[], env: Record<string, string> = {}): Promise<Started> {
  const ac = new AbortController();
  const io = createBufferIO({ env });
  let exited: number | undefined;
  const done = runCli(['webhooks', 'listen', '--port', '0', ...argv], {
    io,
    env,
    signal: ac.signal,
  }).then((c) => (exited = c));
  await until(
    () => /^ready/m.test(io.stderrText()) || exited !== undefined,
    'ready',
    io.stderrText,
  );
  const url = /listening on (http:\/\/\S+)/.exec(io.stderrText())![1]!;
  return {
    io,
    done,
    url,
    stop: () => {
      ac.abort('SIGINT');
      return done;
    },
  };
}

const post = (url: string, body: string | Buffer, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'user-agent': 'SimplyMeet.me', ...headers },
  }).then(async (r) => ({ status: r.status, text: await r.text() }));

const jsonLines = (io: BufferIO) =>
  io
    .stdoutText()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

let dir: string | undefined;
let receivers: Receiver[] = [];
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
});

describe('webhooks listen --count / --max-time', () => {
  it('--json: the first line says where it listens; --count n stops after n kept deliveries, exit 0', async () => {
    const l = await listen(['--json', '--count', '2', '--event', 'meetingScheduled']);
    expect(l.io.stderrText()).toMatch(/^ready; stopping after 2 deliveries, or on Ctrl-C$/m);
    expect(l.io.stdoutText()).toBe(`{"listening":"${l.url}"}\n`);
    expect((await post(l.url, delivery('meetingScheduled', 'a'))).status).toBe(200);
    // Another event is answered 200 and skipped: it does not count.
    expect((await post(l.url, delivery('meetingCancelled', 'b'))).status).toBe(200);
    expect((await post(l.url, delivery('meetingScheduled', 'c'))).status).toBe(200);
    expect(await l.done).toBe(0);
    const out = jsonLines(l.io);
    expect(out.map((o) => o.listening ?? o.uuid)).toEqual([l.url, 'a', 'c']);
    expect(l.io.stderrText()).toMatch(/stopped listening on .* after 2 deliveries\n$/);
  });

  it('waits for the last delivery’s forwards before it stops; one arriving meanwhile gets 503', async () => {
    const app = await startReceiver();
    receivers.push(app);
    app.respond = { status: 200, body: 'ok', delayMs: 400 };
    const l = await listen(['--count', '1', '--forward-to', app.url]);
    expect((await post(l.url, delivery('meetingScheduled', 'a'))).status).toBe(200);
    // The first is still being forwarded: the listener is stopping and says so with a 503,
    // so the sender tries again later instead of losing it.
    expect(await post(l.url, delivery('meetingScheduled', 'b'))).toEqual({
      status: 503,
      text: 'the listener is stopping\n',
    });
    expect(await l.done).toBe(0);
    expect(app.received).toHaveLength(1);
    expect(l.io.stdoutText()).toMatch(/forwarded to .*: 200 in \d+ ms\n$/);
  });

  it('--max-time with --count: exit 1 naming how many arrived', async () => {
    const l = await listen(['--count', '3', '--max-time', '0.5']);
    expect(l.io.stderrText()).toMatch(
      /^ready; stopping after 3 deliveries or after 0\.5 s at most, or on Ctrl-C$/m,
    );
    await post(l.url, delivery('meetingScheduled', 'a'));
    expect(await l.done).toBe(1);
    expect(l.io.stderrText()).toMatch(/error: only 1 of 3 deliveries arrived within 0\.5 s\n$/);
  });

  it('--max-time alone: a clean stop, exit 0', async () => {
    const l = await listen(['--max-time', '0.2']);
    expect(await l.done).toBe(0);
    expect(l.io.stderrText()).toMatch(/after 0 deliveries\n$/);
  });

  it('refuses a bad --count or --max-time before it listens (exit 2)', async () => {
    for (const argv of [
      ['--count', '0'],
      ['--count', 'x'],
      ['--max-time', '0'],
      ['--max-time', '-1'],
      ['--forward-unverified'],
    ]) {
      const io = createBufferIO();
      expect(await runCli(['webhooks', 'listen', '--port', '0', ...argv], { io, env: {} })).toBe(2);
      expect(io.stderrText()).not.toMatch(/listening/);
    }
  });
});

describe('webhooks listen --record', () => {
  it('appends every delivery received, byte-exact with its headers and verdict, mode 0600', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sched-record-'));
    const file = join(dir, 'deliveries.ndjson');
    await writeFile(file, '', { mode: 0o600 });
    const l = await listen(['--record', file, '--secret', SECRET, '--event', 'meetingScheduled']);
    expect(l.io.stderrText()).toContain(`recording every delivery to ${file}`);
    const body = delivery('meetingScheduled', 'r1');
    const binary = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    await post(l.url + 'hook?x=1', body, { 'webhook-signature': sign(body), 'X-Trace': 't' });
    await post(l.url, delivery('meetingCancelled', 'r2'));
    await post(l.url, binary, { 'webhook-signature': sign(binary) });
    expect(await l.stop()).toBe(0);
    expect((await lstat(file)).mode & 0o777).toBe(0o600);
    const recs = (await readFile(file, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((x) => JSON.parse(x) as Record<string, unknown>);
    // The skipped event is recorded too: every delivery received.
    expect(recs.map((r) => r.uuid)).toEqual(['r1', 'r2', null]);
    expect(recs[0]).toMatchObject({
      kind: 'sched.webhook-delivery/1',
      method: 'POST',
      path: '/hook?x=1',
      body,
      bytes: body.length,
      event: 'meetingScheduled',
      signature: 'valid',
      signatureReason: null,
    });
    expect(recs[0]!.headers).toEqual(
      expect.arrayContaining([
        ['webhook-signature', sign(body)],
        ['X-Trace', 't'],
      ]),
    );
    // Unverified with a secret: headers and verdict, not the body (see the test of
    // --record-unverified in listen-record.test.ts).
    expect(recs[1]).toMatchObject({
      signature: 'missing',
      event: 'meetingCancelled',
      bodyOmitted: 'signature missing',
    });
    expect(recs[1]!.body).toBeUndefined();
    // Bytes that are not UTF-8 text are kept exactly, in base64.
    expect(recs[2]).toMatchObject({ bodyBase64: binary.toString('base64'), signature: 'valid' });
    expect(recs[2]!.body).toBeUndefined();
  });

  it('a delivery no forward took is named with the replay command that sends it once fixed', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sched-record-'));
    const file = join(dir, 'deliveries.ndjson');
    const app = await startReceiver();
    receivers.push(app);
    await app.close();
    const l = await listen(['--record', file, '--forward-to', app.url, '--count', '1']);
    await post(l.url, delivery('meetingScheduled', 'lost-1'));
    expect(await l.done).toBe(0);
    expect(l.io.stdoutText()).toMatch(/forward to .* failed after 3 attempts: connection refused/);
    expect(l.io.stderrText()).toContain(
      `  not delivered to the app; once fixed: sched events replay ${file} --uuid lost-1 --to ${app.url}\n`,
    );
    expect(l.io.stderrText()).toContain(
      `1 delivery was not delivered to the app; replay with \`sched events replay ${file} --uuid lost-1 --to ${app.url}\`\n`,
    );
    expect((await readFile(file, 'utf8')).match(/"uuid":"lost-1"/g)).toHaveLength(1);
  });

  // Issue 38, finding 6: an existing recording is appended to only when it is the user's own and
  // readable by no one else; a chmod afterwards would not close a reader opened before.
  /** Plants `file` (one line) with `mode` (and owner), runs listen on it: refused, untouched. */
  async function expectRecordingRefused(
    mode: number,
    why: RegExp,
    owner?: { uid: number; gid: number },
  ): Promise<void> {
    dir = await mkdtemp(join(tmpdir(), 'sched-record-'));
    await chmod(dir, 0o1777);
    const file = join(dir, 'planted.ndjson');
    await writeFile(file, 'planted\n');
    await chmod(file, mode);
    if (owner) await chown(file, owner.uid, owner.gid);
    const io = createBufferIO();
    // --max-time: without the refusal, it would listen (and record) until then, exit 0.
    const code = await runCli(
      ['webhooks', 'listen', '--port', '0', '--max-time', '1', '--record', file],
      { io, env: {} },
    );
    expect(code, io.stderrText()).toBe(2);
    expect(io.stderrText()).toMatch(
      new RegExp(
        `^error: cannot record to "${esc(file)}": ${why.source}.*; record to a new file$`,
        'm',
      ),
    );
    expect(io.stderrText()).not.toMatch(/listening/);
    expect((await stat(file)).mode & 0o777).toBe(mode);
    expect(await readFile(file, 'utf8')).toBe('planted\n');
  }

  it.each([
    [
      '0644',
      0o644,
      /it is readable by others \(mode 0644\), and a reader may have it open already/,
    ],
    ['0604', 0o604, /it is readable by others \(mode 0604\)/],
  ])(
    'refuses our own existing recording of mode %s (exit 2, nothing listens, untouched)',
    async (_mode, mode, why) => expectRecordingRefused(mode, why),
  );

  describe.skipIf(runsElsewhere(!IS_ROOT && 'not root: only root can chown (CI runs as root)'))(
    'as root: a recording of another user or group',
    () => {
      it("another user's, 0666, planted in a sticky directory: refused", async () =>
        expectRecordingRefused(0o666, /it belongs to another user \(uid 65534\)/, {
          uid: OTHER_UID,
          gid: OTHER_UID,
        }));
      it("another user's, 0600: refused", async () =>
        expectRecordingRefused(0o600, /it belongs to another user/, {
          uid: OTHER_UID,
          gid: OTHER_UID,
        }));
      it('readable by a shared group: refused', async () =>
        expectRecordingRefused(
          0o640,
          /it is readable by its group \(gid 1\), which is not your own private group \(mode 0640\)/,
          { uid: 0, gid: SHARED_GID },
        ));
    },
  );

  it.skipIf(
    runsElsewhere(!isPrivateGroup(process.getgid?.() ?? -1) && 'this user has no private group'),
  )("a recording readable by the user's own private group is used (and made 0600)", async () => {
    dir = await mkdtemp(join(tmpdir(), 'sched-record-'));
    const file = join(dir, 'mine.ndjson');
    await writeFile(file, '');
    await chmod(file, 0o640);
    const l = await listen(['--record', file]);
    expect(await l.stop()).toBe(0);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('refuses a symbolic link or a directory as the recording (exit 2, nothing listens)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sched-record-'));
    await symlink(join(dir, 'elsewhere'), join(dir, 'link.ndjson'));
    for (const [file, why] of [
      [join(dir, 'link.ndjson'), 'it is a symbolic link'],
      [dir, 'it is a directory'],
    ] as const) {
      const io = createBufferIO();
      const code = await runCli(['webhooks', 'listen', '--port', '0', '--record', file], {
        io,
        env: {},
      });
      expect(code).toBe(2);
      expect(io.stderrText()).toContain(`cannot record to "${file}": ${why}`);
      expect(io.stderrText()).not.toMatch(/listening/);
    }
  });
});
