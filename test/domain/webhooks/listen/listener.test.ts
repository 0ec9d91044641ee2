// The listener driven by a test, without a terminal or the command: its typed events, its
// notes and its summary; counting, forwarding, registration and clean-up on every way out.
import { afterEach, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import {
  Listener,
  type ListenerConfig,
  type ListenerEvent,
} from '../../../../src/domain/webhooks/listen/listener.js';
import type { WebhookApi } from '../../../../src/domain/webhooks/listen/register.js';
import type { EventName } from '../../../../src/api/types.js';
import { startReceiver, type Receiver } from '../../../helpers/receiver.js';
import { until } from '../../../helpers/until.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Chalk } from 'chalk';
import { eventText } from '../../../../src/domain/webhooks/listen/render.js';
import { CaptureFile } from '../../../../src/domain/webhooks/listen/capture.js';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SECRET = 'driver-secret';
const sign = (b: string) => createHmac('sha256', SECRET).update(b).digest('base64');
const body = (uuid: string, event = 'meetingScheduled') =>
  JSON.stringify({ event, uuid, data: { uuid: `m-${uuid}` } });

const running: Listener[] = [];
const apps: Receiver[] = [];
const gates: Array<() => void> = [];
/** A promise the test releases; released anyway after a test, so a failure cannot hang. */
function gate() {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  gates.push(release);
  return { held, release };
}
afterEach(async () => {
  gates.splice(0).forEach((release) => release());
  await Promise.all(running.splice(0).map((l) => l.close()));
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

function fakeApi(opts: { existing?: string; secret?: string } = {}) {
  const calls: string[] = [];
  const api: WebhookApi = {
    list: async function* () {
      if (opts.existing) yield { uuid: 'w-0', url: opts.existing, events: [] } as never;
    },
    create: async (input) => {
      calls.push(`create ${input.url}`);
      return { uuid: 'w-1', url: input.url, events: input.events, secret: opts.secret } as never;
    },
    remove: async (uuid) => {
      calls.push(`remove ${uuid}`);
      return 'deleted';
    },
  };
  return { api, calls };
}

function drive(
  over: Partial<ListenerConfig> = {},
  onEvent: (e: ListenerEvent) => Promise<void> | void = () => {},
) {
  const events: ListenerEvent[] = [];
  const notes: string[] = [];
  const ac = new AbortController();
  const l = new Listener(
    {
      port: 0,
      host: '127.0.0.1',
      secret: SECRET,
      kept: undefined,
      forwardTo: [],
      forwardAll: false,
      limit: undefined,
      maxTimeS: undefined,
      capture: undefined,
      recordUnverified: false,
      register: undefined,
      timeoutMs: 5000,
      signal: ac.signal,
      ...over,
    },
    {
      event: (e) => {
        events.push(e);
        return onEvent(e);
      },
      note: (line) => notes.push(line),
    },
  );
  running.push(l);
  return { l, events, notes, ac };
}

async function post(port: number, b: string, headers: Record<string, string> = {}) {
  const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: b, headers });
  await res.text();
  return res.status;
}

describe('the listener, driven without a terminal', () => {
  it('emits delivery then settled for each, and counts only verified ones toward the limit', async () => {
    const { l, events } = drive({ limit: 1 });
    const port = await l.listen();
    const done = l.run();
    expect(await post(port, body('forged'))).toBe(200);
    await until(() => events.length === 2, 'the forged one');
    expect(l.stopping).toBe(false);
    expect(await post(port, body('real'), { 'webhook-signature': sign(body('real')) })).toBe(200);
    const summary = await done;
    expect(summary).toMatchObject({ reason: 'count', count: 2, counted: 1, skipped: 0 });
    expect(events.map((e) => `${e.kind} ${e.record.uuid} ${e.record.signature}`)).toEqual([
      'delivery forged missing',
      'settled forged missing',
      'delivery real valid',
      'settled real valid',
    ]);
  });

  it('forwards only verified deliveries; a failed forward names the replay', async () => {
    const app = await startReceiver({ statuses: [500, 500, 500] });
    apps.push(app);
    const { l, events, notes } = drive({ forwardTo: [{ url: new URL(app.url) }], limit: 1 });
    const port = await l.listen();
    const done = l.run();
    await post(port, body('u'));
    await post(port, body('v'), { 'webhook-signature': sign(body('v')) });
    const summary = await done;
    const settled = events.filter((e) => e.kind === 'settled');
    expect(settled[0]).toMatchObject({ notForwarded: 'missing' });
    expect(settled[1]!.kind === 'settled' && settled[1]!.forwards?.[0]?.status).toBe(500);
    expect(summary.unforwarded).toEqual(['v']);
    expect(notes).toContain(
      '  not delivered to the app (record deliveries with --record <file> to replay them later)',
    );
    expect(app.received).toHaveLength(3);
  });

  it('a driver whose rendering throws: the delivery fails alone, noted, and the listener goes on', async () => {
    const { l, events, notes } = drive({}, (e) => {
      if (e.kind === 'delivery' && e.record.uuid === 'boom') throw new Error('render failed');
    });
    const port = await l.listen();
    const done = l.run();
    await post(port, body('boom'), { 'webhook-signature': sign(body('boom')) });
    await until(() => notes.length === 1, 'the note');
    expect(notes).toEqual(['error: could not handle a delivery: render failed']);
    await post(port, body('fine'), { 'webhook-signature': sign(body('fine')) });
    await until(() => events.some((e) => e.record.uuid === 'fine'), 'the next one');
    l.interrupt();
    expect((await done).reason).toBe('stopped');
  });

  it('the --register webhook is deleted when the driver fails after registering (an unexpected error)', async () => {
    const { api, calls } = fakeApi();
    const { l } = drive({
      register: { url: 'https://t.example/h', events: ['meetingScheduled'], api: async () => api },
    });
    await l.listen();
    const failingDriver = async () => {
      await l.register();
      throw new Error('injected');
    };
    // What the command does on every way out: ctx.defer(() => listener.close()).
    await expect(failingDriver().finally(() => l.close())).rejects.toThrow('injected');
    expect(calls).toEqual(['create https://t.example/h', 'remove w-1']);
  });

  it('stops on the signal, on --max-time, and says per-request notes a few times only', async () => {
    const { l, notes, ac } = drive({ secret: undefined });
    const port = await l.listen();
    const done = l.run();
    for (let i = 0; i < 12; i++) {
      await fetch(`http://127.0.0.1:${port}/x`, { method: 'DELETE' });
    }
    ac.abort();
    expect((await done).reason).toBe('stopped');
    expect(notes.filter((n) => /answered 405$/.test(n))).toHaveLength(6);
    expect(notes.at(-1)).toBe('note: 7 more requests answered 405');

    const timed = drive({ maxTimeS: 0.05, limit: 3 });
    await timed.l.listen();
    expect(await timed.l.run()).toMatchObject({ reason: 'max-time', counted: 0 });
  });

  it('overlapping deliveries: the heading and forward results stay together', async () => {
    // The app answers "slow" late: the second delivery settles first.
    const app = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const slow = Buffer.concat(chunks).includes('slow');
        setTimeout(() => res.writeHead(204).end(), slow ? 400 : 0);
      });
    });
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    const url = new URL(`http://127.0.0.1:${(app.address() as AddressInfo).port}/hook`);
    let out = '';
    const c = new Chalk({ level: 0 });
    const { l } = drive({ secret: undefined, forwardTo: [{ url }], limit: 2 }, (e) => {
      out += eventText(e, false, c);
    });
    const port = await l.listen();
    const done = l.run();
    await Promise.all([post(port, body('slow')), post(port, body('fast'))]);
    await done;
    app.close();
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/m-fast /);
    expect(lines[1]).toMatch(/↳ forwarded to .*: 204/);
    expect(lines[2]).toMatch(/m-slow /);
    expect(lines[3]).toMatch(/↳ forwarded to .*: 204/);
  });
});

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function recording(maxBytes?: number) {
  const dir = await mkdtemp(join(tmpdir(), 'sched-listener-'));
  dirs.push(dir);
  const file = join(dir, 'deliveries.ndjson');
  const capture = await CaptureFile.open(file, maxBytes);
  const lines = async () =>
    (await readFile(file, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { file, capture, lines };
}

/** Answers with the exact status, headers and body the sender sees. */
async function postRaw(port: number, b: string, headers: Record<string, string> = {}) {
  const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: b, headers });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    retryAfter: res.headers.get('retry-after'),
    text: await res.text(),
  };
}

const signed = (uuid: string, event = 'meetingScheduled') => ({
  'webhook-signature': sign(body(uuid, event)),
});

describe("the listener's rules, one by one", () => {
  it('while the --count-th delivery is handled: a kept one is told to retry (503), another event is accepted', async () => {
    const { held, release } = gate();
    const { l, events } = drive({ limit: 1, kept: ['meetingScheduled'] }, (e) => {
      if (e.kind === 'delivery') return held;
    });
    const port = await l.listen();
    const done = l.run();
    expect(await postRaw(port, body('last'), signed('last'))).toEqual({
      status: 200,
      type: 'application/json',
      retryAfter: null,
      text: '{"received":true}',
    });
    await until(() => events.length === 1, 'the last delivery under way');
    expect(await postRaw(port, body('late'), signed('late'))).toEqual({
      status: 503,
      type: 'text/plain',
      retryAfter: '5',
      text: 'the listener is stopping\n',
    });
    const other = await postRaw(
      port,
      body('other', 'meetingCancelled'),
      signed('other', 'meetingCancelled'),
    );
    expect(other.status).toBe(200);
    release();
    expect(await done).toMatchObject({ reason: 'count', count: 1, counted: 1, skipped: 1 });
    expect(events.map((e) => e.record.uuid)).toEqual(['last', 'last']);
  });

  it('records an unverified delivery it does not forward at once, as headers and verdict', async () => {
    const app = await startReceiver();
    apps.push(app);
    const rec = await recording();
    const { l, events } = drive({ forwardTo: [{ url: new URL(app.url) }], capture: rec.capture });
    const port = await l.listen();
    const done = l.run();
    await post(port, body('forged'));
    await post(port, body('tampered'), { 'webhook-signature': sign(body('other')) });
    await until(() => events.filter((e) => e.kind === 'settled').length === 2, 'both settled');
    l.interrupt();
    await done;
    expect(app.received).toHaveLength(0);
    const lines = await rec.lines();
    expect(lines.map((d) => `${d.uuid} ${d.signature}`)).toEqual([
      'forged missing',
      'tampered invalid',
    ]);
    for (const line of lines) {
      expect(line).not.toHaveProperty('body');
      expect(line).not.toHaveProperty('forwards');
    }
  });

  it('a delivery one of two apps took is delivered; one no app took and without a uuid is named so', async () => {
    // 404 is not retried: the forward fails at once.
    const down = await startReceiver();
    down.respond = { status: 404, body: 'no such hook' };
    const up = await startReceiver();
    apps.push(down, up);
    const { l, notes } = drive({
      secret: undefined,
      forwardTo: [{ url: new URL(down.url) }, { url: new URL(up.url) }],
      capture: (await recording()).capture,
      limit: 1,
    });
    const port = await l.listen();
    const done = l.run();
    await post(port, body('half'));
    const summary = await done;
    expect([down.received.length, up.received.length]).toEqual([1, 1]);
    expect(summary.unforwarded).toEqual([]);
    expect(notes.filter((n) => n.includes('not delivered'))).toEqual([]);

    const lone = drive({
      secret: undefined,
      forwardTo: [{ url: new URL(down.url) }],
      capture: (await recording()).capture,
      limit: 1,
    });
    const port2 = await lone.l.listen();
    const loneDone = lone.l.run();
    await post(port2, JSON.stringify({ event: 'meetingScheduled', data: {} }));
    expect((await loneDone).unforwarded).toEqual(['']);
    expect(lone.notes).toEqual(['  not delivered to the app']);
  });

  it('a flood of unverified deliveries does not make a real retry look new', async () => {
    const { l, events } = drive({ seenLimit: 3 });
    const port = await l.listen();
    const done = l.run();
    await post(port, body('real'), signed('real'));
    for (const u of ['f1', 'f2', 'f3', 'f4']) await post(port, body(u));
    await post(port, body('real'), signed('real'));
    // An unverified one with a real uuid shows as a duplicate too; its own uuid is not kept.
    await post(port, body('f9'), signed('f9'));
    await post(port, body('f9'));
    await until(() => events.length === 16, 'every delivery settled');
    l.interrupt();
    await done;
    const shown = events
      .filter((e) => e.kind === 'delivery')
      .map((e) => `${e.record.uuid} ${e.record.duplicate}`);
    expect(shown).toEqual([
      'real false',
      'f1 false',
      'f2 false',
      'f3 false',
      'f4 false',
      'real true',
      'f9 false',
      'f9 true',
    ]);
    // The other way round: verified ones do not push an unverified uuid out either.
    const other = drive({ seenLimit: 3 });
    const p3 = await other.l.listen();
    const d3 = other.l.run();
    await post(p3, body('plain'));
    for (const u of ['v1', 'v2', 'v3', 'v4']) await post(p3, body(u), signed(u));
    await post(p3, body('plain'));
    await until(() => other.events.length === 12, 'all settled');
    other.l.interrupt();
    await d3;
    expect(
      other.events.filter((e) => e.kind === 'delivery').map((e) => e.record.duplicate),
    ).toEqual([false, false, false, false, false, true]);
    // Within one kind the oldest is forgotten first (the bound is per kind).
    const again = drive({ seenLimit: 3, secret: undefined });
    const p2 = await again.l.listen();
    const d2 = again.l.run();
    for (const u of ['a', 'b', 'c', 'd', 'a']) await post(p2, body(u));
    await until(() => again.events.length === 10, 'all settled');
    again.l.interrupt();
    await d2;
    expect(
      again.events.filter((e) => e.kind === 'delivery').map((e) => e.record.duplicate),
    ).toEqual([false, false, false, false, false]);
  });

  it('--register: verifies with the secret the service chose, and says a webhook already points there', async () => {
    const chosen = drive({
      register: {
        url: 'https://t.example/h',
        events: ['meetingScheduled'],
        api: async () => fakeApi({ secret: 'service-chosen', existing: 'https://t.example/h' }).api,
      },
    });
    await chosen.l.register();
    expect(chosen.l.verifyingWith).toBe('service-chosen');
    expect(chosen.notes).toEqual([
      expect.stringMatching(/^note: webhook w-0 already points at https:\/\/t\.example\/h; /),
    ]);
    const kept = drive({
      register: {
        url: 'https://t.example/h',
        events: ['meetingScheduled'],
        api: async () => fakeApi({ secret: '' }).api,
      },
    });
    await kept.l.register();
    expect(kept.l.verifyingWith).toBe(SECRET);
    const none = drive({
      register: {
        url: 'https://t.example/h',
        events: ['meetingScheduled'],
        api: async () => fakeApi().api,
      },
    });
    await none.l.register();
    expect(none.l.verifyingWith).toBe(SECRET);
  });

  it('closed by its driver while running: run() ends "stopped", leaving no --max-time timer behind', async () => {
    const { l } = drive({ maxTimeS: 3600 });
    await l.listen();
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const done = l.run();
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before + 1);
    await l.close();
    expect((await done).reason).toBe('stopped');
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before);
  });

  it('over 128 connections at once: 503 to more, said once', async () => {
    const { l, notes } = drive();
    const port = await l.listen();
    const done = l.run();
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 128; i++) {
        const s = connect(port, '127.0.0.1');
        sockets.push(s);
        await new Promise((r) => s.once('connect', r));
      }
      await until(() => true, 'connected');
      for (let i = 0; i < 2; i++) {
        const res = await postRaw(port, body(`x${i}`)).catch(() => undefined);
        expect(res?.status ?? 503).toBe(503);
      }
      await until(() => notes.length > 0, 'the busy note');
    } finally {
      for (const s of sockets) s.destroy();
    }
    l.interrupt();
    await done;
    expect(notes).toEqual([
      'note: over 128 connections at once; answering 503 to more (senders retry later)',
    ]);
  });

  it('over 32 MiB of deliveries held at once: 503 to more, said once', async () => {
    const { held, release } = gate();
    const { l, notes, events } = drive({ secret: undefined }, (e) => {
      if (e.kind === 'delivery') return held;
    });
    const port = await l.listen();
    const done = l.run();
    const big = (u: string) =>
      JSON.stringify({
        event: 'meetingScheduled',
        uuid: u,
        pad: 'x'.repeat(5 * 1024 * 1024 - 100),
      });
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await postRaw(port, big(`b${i}`))).status);
    await until(() => events.length === 6, 'six held');
    for (let i = 6; i < 8; i++) answers.push((await postRaw(port, big(`b${i}`))).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 200, 503, 503]);
    release();
    l.interrupt();
    await done;
    expect(notes).toEqual([
      'note: over 32 MiB of deliveries held at once; answering 503 to more (senders retry later)',
    ]);
  });

  it('per-request notes are counted by kind past the first five', async () => {
    let calls = 0;
    const kept = ['meetingScheduled'] as EventName[];
    // A fault in judging a request (here the --event list itself): answered 500, noted, going on.
    Object.defineProperty(kept, 'some', {
      value: () => {
        calls += 1;
        throw new Error(`judging failed ${calls}`);
      },
    });
    const { l, notes } = drive({ kept, secret: undefined });
    const port = await l.listen();
    const done = l.run();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await postRaw(port, body(`e${i}`))).status);
    const tooLarge = () =>
      new Promise<number>((resolve, reject) => {
        const req = request({
          port,
          host: '127.0.0.1',
          method: 'POST',
          headers: { 'content-length': String(6 * 1024 * 1024) },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on('error', reject);
        req.flushHeaders();
      });
    for (let i = 0; i < 7; i++) statuses.push(await tooLarge());
    l.interrupt();
    await done;
    expect(statuses).toEqual([...Array(7).fill(500), ...Array(7).fill(413)]);
    expect(notes).toEqual([
      ...[1, 2, 3, 4, 5].map(
        (n) =>
          `error: could not handle a request (answered 500; still listening): judging failed ${n}`,
      ),
      'note: further requests that could not be handled are counted, not shown one by one',
      ...Array(5).fill('note: refused a 6291456-byte body (over 5242880 bytes) with 413'),
      'note: further bodies refused with 413 are counted, not shown one by one',
      'note: 2 more requests that could not be handled',
      'note: 2 more bodies refused with 413',
    ]);
  });

  it('a driver failing on every delivery: the failures are counted past the first five', async () => {
    const { l, notes } = drive({ secret: undefined }, () => {
      throw new Error('render failed');
    });
    const port = await l.listen();
    const done = l.run();
    for (let i = 0; i < 7; i++) await post(port, body(`r${i}`));
    await until(() => notes.length === 6, 'the notes');
    l.interrupt();
    await done;
    expect(notes).toEqual([
      ...Array(5).fill('error: could not handle a delivery: render failed'),
      'note: further deliveries that could not be handled are counted, not shown one by one',
      'note: 2 more deliveries that could not be handled',
    ]);
  });

  it('an invalid signature: the line names the cause; another lead goes to the notes, none when there is none', async () => {
    const { l, notes, events } = drive({ secret: `${SECRET} ` });
    const port = await l.listen();
    const done = l.run();
    // A valid one (signed with the secret as given, space and all): nothing to say.
    const exact = createHmac('sha256', `${SECRET} `).update(body('ok')).digest('base64');
    await post(port, body('ok'), { 'webhook-signature': exact });
    // Five invalid signatures with no lead beyond the cause: nothing on stderr.
    for (let i = 0; i < 5; i++) await post(port, body(`w${i}`), { 'webhook-signature': 'AAAA' });
    await until(() => events.length === 12, 'six settled');
    expect(events[0]!.record.signature).toBe('valid');
    expect(notes).toEqual([]);
    // The secret sent as the signature, by a sender whose secret had a space: two leads.
    for (let i = 0; i < 6; i++) {
      await post(port, body(`s${i}`), { 'webhook-signature': SECRET });
    }
    await until(() => events.length === 24, 'six more settled');
    l.interrupt();
    await done;
    expect(events[12]!.record.signatureReason).toMatch(/^the signature value is the secret itself/);
    const lead =
      '  check: the secret has leading or trailing whitespace (a copied newline?); trimming it does not make it match either';
    expect(notes).toEqual([
      ...Array(5).fill(lead),
      'note: further leads on invalid signatures are counted, not shown one by one',
      'note: 1 more leads on invalid signatures',
    ]);
  });

  it('without a secret: says once that deliveries are signed, and nothing for unsigned ones', async () => {
    const { l, notes, events } = drive({ secret: undefined });
    const port = await l.listen();
    const done = l.run();
    await post(port, body('plain'));
    await until(() => events.length === 2, 'the unsigned one');
    expect(notes).toEqual([]);
    await post(port, body('a'), signed('a'));
    await post(port, body('b'), signed('b'));
    await until(() => events.length === 6, 'the signed ones');
    l.interrupt();
    await done;
    expect(notes).toEqual([
      'note: deliveries are signed; give --secret (or SCHED_WEBHOOK_SECRET) to check them',
    ]);
  });

  it('a recording that fills up: said once, the listener goes on; one that cannot be written: it stops', async () => {
    const full = await recording(1000);
    const a = drive({ secret: undefined, capture: full.capture });
    const port = await a.l.listen();
    const done = a.l.run();
    for (const u of ['1', '2', '3']) await post(port, body(u));
    await until(() => a.events.length === 6, 'three settled');
    a.l.interrupt();
    await done;
    const kept = await full.lines();
    expect(kept.map((d) => d.uuid)).toEqual(['1']);
    expect(a.notes).toEqual([
      `note: stopped recording to ${full.file}: it reached ${1000 / 1024 / 1024} MiB, the most a recording holds; no longer recording`,
    ]);

    const broken = await recording();
    await broken.capture.close();
    const b = drive({ secret: undefined, capture: broken.capture });
    const p2 = await b.l.listen();
    const d2 = b.l.run();
    await post(p2, body('4'));
    // Stopped by itself (no interrupt here); the command says why (the capture's error).
    await d2;
    expect(b.notes).toEqual([]);
    expect(broken.capture.error).toBeInstanceOf(Error);
    expect(broken.capture.failed).toBe('file closed');
  });
});
