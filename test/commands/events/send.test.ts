import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSched } from '../../helpers/run.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { refusedPort } from '../../helpers/ports.js';
import { startRawReceiver } from '../../helpers/hostile.js';
import { until } from '../../helpers/until.js';
import { startProxy } from '../../helpers/fault-server.js';

const FIXTURE = new URL('../../fixtures/real-delivery.json', import.meta.url).pathname;
const SECRET = 'shh-3b1f0c9a';
/** The first keys of `events send --json`'s line, in the contract's order; then what differs. */
const SENT_KEYS = ['status', 'ms', 'url', 'event', 'uuid', 'signed'];

function independentlyValid(secret: string, body: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  const got = Buffer.from(header, 'base64');
  return got.length === expected.length && timingSafeEqual(got, expected);
}

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());
beforeEach(() => {
  rx.received.length = 0;
  rx.respond = { status: 200, body: 'ok' };
});

describe('sched events send', () => {
  it('POSTs a signed sample delivery with the service headers', async () => {
    const r = await runSched([
      'events',
      'send',
      'meetingScheduled',
      '--to',
      rx.url,
      '--secret',
      SECRET,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^200 OK in \d+ ms\n$/);
    expect(r.stderr).toMatch(
      /^sent meetingScheduled [0-9a-f-]{36} \(\d+ bytes, signed\) to http:\/\/127\.0\.0\.1:\d+\/hook\n$/,
    );
    expect(rx.received).toHaveLength(1);
    const got = rx.received[0]!;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/hook');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe('SimplyMeet.me');
    expect(got.headers['content-length']).toBe(String(got.body.length));
    expect(independentlyValid(SECRET, got.body, got.headers['webhook-signature'] as string)).toBe(
      true,
    );
    const payload = JSON.parse(got.body.toString('utf8')) as {
      event: string;
      uuid: string;
      data: { uuid: string };
    };
    expect(payload.event).toBe('meetingScheduled');
    expect(r.stderr).toContain(payload.uuid);
  });

  it('sends --payload-file byte for byte, signed with SCHED_WEBHOOK_SECRET, as Harmonizely', async () => {
    const r = await runSched(
      [
        '--json',
        'events',
        'send',
        'meetingScheduled',
        '--to',
        rx.url,
        '--payload-file',
        FIXTURE,
        '--service-name',
        'Harmonizely',
      ],
      { env: { SCHED_WEBHOOK_SECRET: SECRET } },
    );
    expect(r.code, r.stderr).toBe(0);
    const got = rx.received[0]!;
    expect(got.body.equals(readFileSync(FIXTURE))).toBe(true);
    expect(got.headers['user-agent']).toBe('Harmonizely');
    expect(independentlyValid(SECRET, got.body, got.headers['webhook-signature'] as string)).toBe(
      true,
    );
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      status: 200,
      url: rx.url,
      event: 'meetingScheduled',
      uuid: '0b6a6a53-6f5e-4c1e-9d2a-3f0e8f7c2b11',
      signed: true,
      bytes: got.body.length,
      response: 'ok',
    });
    expect(typeof out.ms).toBe('number');
    // The contract's shape, in its order.
    expect(Object.keys(out)).toEqual([...SENT_KEYS, 'bytes', 'response']);
  });

  it('sends no signature header without a secret', async () => {
    const r = await runSched(['events', 'send', 'meetingCancelled', '--to', rx.url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/unsigned/);
    expect(rx.received[0]!.headers['webhook-signature']).toBeUndefined();
    const payload = JSON.parse(rx.received[0]!.body.toString()) as {
      event: string;
      data: { canceled_at: string };
    };
    expect(payload.event).toBe('meetingCancelled');
    expect(payload.data.canceled_at).toBeTruthy();
  });

  it('exits 1 when the receiver answers non-2xx, showing its answer', async () => {
    rx.respond = { status: 400, body: 'invalid signature' };
    const r = await runSched([
      'events',
      'send',
      'meetingRescheduled',
      '--to',
      rx.url,
      '--secret',
      'x',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^400 Bad Request in \d+ ms\n$/);
    expect(r.stderr).toMatch(/the receiver answered 400 Bad Request, not 2xx/);
    expect(r.stderr).toMatch(/answer: invalid signature/);
    const j = await runSched(['--json', 'events', 'send', 'meetingRescheduled', '--to', rx.url]);
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout)).toMatchObject({ status: 400, response: 'invalid signature' });
  });

  it('exits 1 with a clear line when nothing listens, or the receiver is too slow', async () => {
    const port = await refusedPort();
    const r = await runSched([
      'events',
      'send',
      'meetingScheduled',
      '--to',
      `http://127.0.0.1:${port}/x`,
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/no answer from http:\/\/127\.0\.0\.1:\d+\/x: connection refused/);

    rx.respond = { status: 200, body: 'late', delayMs: 3000 };
    const t = await runSched([
      '--timeout',
      '0.3',
      'events',
      'send',
      'meetingScheduled',
      '--to',
      rx.url,
    ]);
    expect(t.code).toBe(1);
    expect(t.stderr).toMatch(/no answer within 0\.3 s/);
    expect(t.stderr).toMatch(/--timeout/);
  });

  it('checks the event and the URL before sending anything (exit 2)', async () => {
    for (const argv of [
      ['events', 'send', 'meetingBooked', '--to', rx.url],
      ['events', 'send', 'meetingScheduled', '--to', 'localhost:3000/hook'],
      ['events', 'send', 'meetingScheduled', '--to', 'ftp://example.com/x'],
      ['events', 'send', 'nope', '--to', rx.url, '--payload-file', FIXTURE],
      [
        'events',
        'send',
        'meetingScheduled',
        '--to',
        rx.url,
        '--payload-file',
        '/nonexistent/body.json',
      ],
    ]) {
      const r = await runSched(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect(rx.received).toHaveLength(0);
  });

  it('warns when the payload file names another event but sends it unchanged', async () => {
    const r = await runSched([
      'events',
      'send',
      'meetingCancelled',
      '--to',
      rx.url,
      '--payload-file',
      FIXTURE,
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/payload says "event":"meetingScheduled", not meetingCancelled/);
    expect(rx.received[0]!.body.equals(readFileSync(FIXTURE))).toBe(true);
  });
});

describe('sched events send: the edges', () => {
  it('a payload file that is not JSON: sent unchanged, with a note; no uuid in the line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sched-send-'));
    try {
      const file = path.join(dir, 'body.txt');
      writeFileSync(file, 'plain text');
      const r = await runSched([
        'events',
        'send',
        'meetingScheduled',
        '--to',
        rx.url,
        '--payload-file',
        file,
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe(
        `note: "${file}" is not a JSON object; sending it unchanged anyway\n` +
          `sent meetingScheduled (10 bytes, unsigned) to ${rx.url}\n`,
      );
      expect(rx.received[0]!.body.toString()).toBe('plain text');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--json when nothing answers: one object with status null and the reason, exit 1', async () => {
    const url = `http://127.0.0.1:${await refusedPort()}/x`;
    const r = await runSched(['--json', 'events', 'send', 'meetingScheduled', '--to', url]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: null,
      url,
      event: 'meetingScheduled',
      signed: false,
      error: 'connection refused (is the receiver running?)',
    });
    expect(Object.keys(JSON.parse(r.stdout) as object)).toEqual([...SENT_KEYS, 'error']);
  });

  it('HTTP_PROXY carries a delivery to a remote receiver, never to a loopback one', async () => {
    const port = Number(new URL(rx.url).port);
    const proxy = await startProxy({ host: '127.0.0.1', port });
    try {
      const env = { HTTP_PROXY: proxy.url, NO_PROXY: '' };
      // A host that does not resolve: only the proxy can deliver it.
      const remote = await runSched(
        ['events', 'send', 'meetingScheduled', '--to', 'http://receiver.sched-test.invalid/hook'],
        { env },
      );
      expect(remote.code, remote.stderr).toBe(0);
      expect(proxy.connects).toEqual(['receiver.sched-test.invalid:80']);
      expect(rx.received).toHaveLength(1);
      // The user's own machine: straight there (a proxy cannot reach it).
      const local = await runSched(['events', 'send', 'meetingScheduled', '--to', rx.url], { env });
      expect(local.code, local.stderr).toBe(0);
      expect(proxy.connects).toHaveLength(1);
      expect(rx.received).toHaveLength(2);
    } finally {
      await proxy.close();
    }
  });

  it('Ctrl-C while waiting for the answer: exit 130, and it may have arrived', async () => {
    rx.respond = { status: 200, body: 'late', delayMs: 5000 };
    const ac = new AbortController();
    const pending = runSched(['events', 'send', 'meetingScheduled', '--to', rx.url], {
      signal: ac.signal,
    });
    await until(() => rx.received.length === 1, 'the delivery to arrive');
    ac.abort('SIGINT');
    const r = await pending;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain(`error: interrupted before ${rx.url} answered`);
    expect(r.stderr).toContain('the delivery may or may not have reached the receiver');
  });

  it('a redirect is not followed, and said so; an empty answer and status text add nothing', async () => {
    const raw = await startRawReceiver(
      'HTTP/1.1 302 Found\r\nlocation: https://elsewhere.example/hook\r\ncontent-length: 0\r\n\r\n',
    );
    const bare = await startRawReceiver('HTTP/1.1 599 \r\ncontent-length: 0\r\n\r\n');
    try {
      const r = await runSched(['events', 'send', 'meetingScheduled', '--to', raw.url]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('error: the receiver answered 302 Found, not 2xx\n');
      expect(r.stderr).toContain(
        '  redirected to https://elsewhere.example/hook (a webhook sender does not follow redirects)\n',
      );
      expect(r.stderr).not.toContain('answer:');
      const b = await runSched(['events', 'send', 'meetingScheduled', '--to', bare.url]);
      expect(b.code).toBe(1);
      expect(b.stdout).toMatch(/^599 in \d+ ms\n$/);
      expect(b.stderr).toContain('error: the receiver answered 599, not 2xx\n');
    } finally {
      await raw.close();
      await bare.close();
    }
  });
});

describe('sched events sample|send --override / --edit', () => {
  it('sample: the fields are set before printing; a typo is refused naming the fields (exit 2)', async () => {
    const r = await runSched([
      'events',
      'sample',
      'meetingScheduled',
      '--override',
      'data.invitee.email=grace@example.com',
      '--override',
      'data.answers[1].value=0',
      '--override-new',
      'data.invitee.company="ACME"',
    ]);
    expect(r.code).toBe(0);
    const p = JSON.parse(r.stdout) as {
      data: { invitee: Record<string, unknown>; answers: Array<{ value: unknown }> };
    };
    expect(p.data.invitee).toMatchObject({ email: 'grace@example.com', company: 'ACME' });
    expect(p.data.answers[1]!.value).toBe(0);

    const typo = await runSched(['events', 'sample', 'meetingScheduled', '--override', 'dat.x=1']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      'error: --override "dat.x=1": the payload has no field "dat" (did you mean "data"?); its fields: event, uuid, data',
    );
    expect(typo.stdout).toBe('');
  });

  it('send: the changed body is what is signed and sent; nothing is sent on a bad path', async () => {
    const r = await runSched(
      [
        'events',
        'send',
        'meetingCancelled',
        '--to',
        rx.url,
        '--override',
        'data.invitee.timezone=Asia/Tokyo',
      ],
      { env: { SCHED_WEBHOOK_SECRET: SECRET } },
    );
    expect(r.code).toBe(0);
    const got = rx.received[0]!;
    const body = JSON.parse(got.body.toString()) as { data: { invitee: { timezone: string } } };
    expect(body.data.invitee.timezone).toBe('Asia/Tokyo');
    expect(independentlyValid(SECRET, got.body, got.headers['webhook-signature'] as string)).toBe(
      true,
    );

    // A payload file is changed too (its JSON, re-serialised), and signed as sent.
    const dir = mkdtempSync(path.join(tmpdir(), 'sched-override-'));
    try {
      const file = path.join(dir, 'body.json');
      writeFileSync(file, readFileSync(FIXTURE));
      const f = await runSched(
        ['events', 'send', 'meetingScheduled', '--to', rx.url, '--payload-file', file],
        { env: { SCHED_WEBHOOK_SECRET: SECRET } },
      );
      expect(f.code).toBe(0);
      const withOverride = await runSched(
        [
          'events',
          'send',
          'meetingScheduled',
          '--to',
          rx.url,
          '--payload-file',
          file,
          '--override',
          'uuid=changed-1',
        ],
        { env: { SCHED_WEBHOOK_SECRET: SECRET } },
      );
      expect(withOverride.code).toBe(0);
      const sent = rx.received[2]!;
      expect((JSON.parse(sent.body.toString()) as { uuid: string }).uuid).toBe('changed-1');
      expect(
        independentlyValid(SECRET, sent.body, sent.headers['webhook-signature'] as string),
      ).toBe(true);
      writeFileSync(file, 'not json');
      const notJson = await runSched([
        'events',
        'send',
        'meetingScheduled',
        '--to',
        rx.url,
        '--payload-file',
        file,
        '--override',
        'uuid=x',
      ]);
      expect(notJson.code).toBe(2);
      expect(notJson.stderr).toContain(`--override needs a JSON payload: "${file}" is not JSON`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    const bad = await runSched([
      'events',
      'send',
      'meetingCancelled',
      '--to',
      rx.url,
      '--override',
      'data.nope=1',
    ]);
    expect(bad.code).toBe(2);
    expect(rx.received).toHaveLength(3);
  });

  it('--edit opens $VISUAL/$EDITOR on the payload on a terminal; what is saved is signed and sent', async () => {
    const env = {
      SCHED_WEBHOOK_SECRET: SECRET,
      NO_COLOR: '1',
      PATH: process.env.PATH ?? '',
      // An "editor" that changes the invitee's name in the file it is given.
      EDITOR: "sed -i 's/Ada Lovelace/Grace Hopper/'",
    };
    const r = await runSched(['events', 'send', 'meetingScheduled', '--to', rx.url, '--edit'], {
      env,
      tty: true,
    });
    expect(r.code, r.stderr).toBe(0);
    const got = rx.received[0]!;
    expect(got.body.toString()).toContain('"full_name":"Grace Hopper"');
    expect(got.body.toString()).not.toContain('Ada Lovelace');
    expect(independentlyValid(SECRET, got.body, got.headers['webhook-signature'] as string)).toBe(
      true,
    );

    // $VISUAL comes first; an editor that fails, or saves something that is not JSON, sends nothing.
    const failed = await runSched(
      ['events', 'send', 'meetingScheduled', '--to', rx.url, '--edit'],
      {
        env: { ...env, VISUAL: 'false' },
        tty: true,
      },
    );
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('error: the editor (false) exited with 1; nothing was sent');
    const broken = await runSched(
      ['events', 'send', 'meetingScheduled', '--to', rx.url, '--edit'],
      {
        env: { ...env, EDITOR: 'sh -c \'echo "{oops" > "$1"\' sh' },
        tty: true,
      },
    );
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(
      /error: the edited payload is not JSON \(line 1, column 2: .*\); nothing was sent/,
    );
    // Not on a terminal: a usage error pointing at --override.
    const piped = await runSched(['events', 'send', 'meetingScheduled', '--to', rx.url, '--edit'], {
      env,
    });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('--edit opens an editor, which needs a terminal');
    expect(rx.received).toHaveLength(1);
  });
});
