// The parts of `sched webhooks listen` on their own: the receiver, duplicate detection and the
// choice of forward targets. Its bounded body reads are in the table of test/http/body.test.ts.
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SeenNotifications } from '../../../../src/domain/webhooks/listen/dedupe.js';
import { forwardDelivery, targetsFor } from '../../../../src/domain/webhooks/listen/forward.js';
import { startReceiver, type Receiver } from '../../../../src/domain/webhooks/listen/receiver.js';
import { startReceiver as startRecorder } from '../../../helpers/receiver.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const x of open.splice(0)) await x.close();
});

async function receiver() {
  const bodies: Buffer[] = [];
  const rx: Receiver = await startReceiver({
    port: 0,
    host: '127.0.0.1',
    onBody(_req, body, res) {
      bodies.push(body);
      res.end('ok');
    },
  });
  open.push(rx);
  return { rx, bodies };
}

/** POSTs `body` and reads the answer. */
function send(port: number, body: Buffer): Promise<{ status?: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/',
        headers: { 'content-length': body.length },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Opens a raw connection that declares `declared` bytes, sends `sent` of them, then stalls. */
function stall(port: number, declared: number, sent: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => {
      s.write(`POST / HTTP/1.1\r\nhost: x\r\ncontent-length: ${declared}\r\n\r\n`);
      if (sent > 0) s.write(Buffer.alloc(sent, 0x61), () => resolve(s));
      else resolve(s);
    });
    s.on('error', reject);
  });
}

/** Reads what a connection is answered until it closes (or `ms` pass). */
function answerOf(s: Socket, ms = 3000): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const t = setTimeout(() => resolve(text), ms);
    s.on('data', (c: Buffer) => (text += c.toString()));
    s.on('close', () => {
      clearTimeout(t);
      resolve(text);
    });
    s.on('error', () => undefined);
  });
}

describe('the listen receiver under load', () => {
  it('bounds the bytes held across stalled connections: 503 beyond the budget, each one reported', async () => {
    const busy: unknown[] = [];
    const bodies: Buffer[] = [];
    const rx = await startReceiver({
      port: 0,
      host: '127.0.0.1',
      maxBodyBytes: 1024 * 1024,
      maxHeldBytes: 3 * 1024 * 1024,
      onBody(_req, body, res) {
        bodies.push(body);
        res.end('ok');
      },
      onBusy: (b) => busy.push(b),
    });
    open.push(rx);
    // Ten senders each declare 1 MiB, send all but one byte, and stall.
    const sockets: Socket[] = [];
    for (let i = 0; i < 10; i++) sockets.push(await stall(rx.port, 1024 * 1024, 1024 * 1024 - 1));
    const answers = await Promise.all(sockets.map((s) => answerOf(s, 1500)));
    // At most three fit the budget; the others were answered 503 at once.
    const refused = answers.filter((a) => a.startsWith('HTTP/1.1 503'));
    expect(refused.length).toBeGreaterThanOrEqual(7);
    expect(rx.heldBytes()).toBeLessThanOrEqual(3 * 1024 * 1024);
    expect(busy.length).toBe(refused.length);
    expect(busy[0]).toEqual({ kind: 'bytes', limit: 3 * 1024 * 1024 });
    for (const s of sockets) s.destroy();
    // Once the stalled senders are gone, their bytes are given back: a delivery gets in.
    await new Promise((r) => setTimeout(r, 100));
    expect(rx.heldBytes()).toBe(0);
    expect(await send(rx.port, Buffer.from('{"event":"x"}'))).toEqual({ status: 200, text: 'ok' });
    expect(bodies).toEqual([Buffer.from('{"event":"x"}')]);
  });

  it('bounds the connections: one more than the limit is answered 503 and closed', async () => {
    const busy: unknown[] = [];
    const rx = await startReceiver({
      port: 0,
      host: '127.0.0.1',
      maxConnections: 4,
      onBody: (_req, _body, res) => void res.end('ok'),
      onBusy: (b) => busy.push(b),
    });
    open.push(rx);
    const idle: Socket[] = [];
    for (let i = 0; i < 4; i++) idle.push(await stall(rx.port, 10, 0));
    const extra = await stall(rx.port, 10, 0);
    expect(await answerOf(extra)).toMatch(
      /^HTTP\/1\.1 503 Service Unavailable\r\n[\s\S]*retry-after: 5/,
    );
    expect(busy).toEqual([{ kind: 'connections', limit: 4 }]);
    for (const s of idle) s.destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect(await send(rx.port, Buffer.from('{}'))).toEqual({ status: 200, text: 'ok' });
  });

  it('counts a handled delivery against the budget until its handling settles', async () => {
    let finish!: () => void;
    const rx = await startReceiver({
      port: 0,
      host: '127.0.0.1',
      maxHeldBytes: 100,
      onBody(_req, _body, res) {
        res.end('ok');
        return new Promise<void>((r) => (finish = r));
      },
    });
    open.push(rx);
    expect(await send(rx.port, Buffer.alloc(80, 0x62))).toEqual({ status: 200, text: 'ok' });
    expect(rx.heldBytes()).toBe(80);
    // Still held while it is being handled (forwarded): a second one does not fit.
    expect((await send(rx.port, Buffer.alloc(80, 0x62))).status).toBe(503);
    finish();
    await new Promise((r) => setTimeout(r, 10));
    expect(rx.heldBytes()).toBe(0);
    expect((await send(rx.port, Buffer.alloc(80, 0x62))).status).toBe(200);
  });
});

describe('the listen receiver', () => {
  it('hands over the whole body, byte for byte', async () => {
    const { rx, bodies } = await receiver();
    const body = Buffer.from('{"event":"meetingScheduled","x":"é"}');
    expect(await send(rx.port, body)).toEqual({ status: 200, text: 'ok' });
    expect(bodies).toEqual([body]);
  });

  it('tells what it refused with 413: the declared size, for the note listen prints', async () => {
    const refused: unknown[] = [];
    const rx = await startReceiver({
      port: 0,
      host: '127.0.0.1',
      maxBodyBytes: 100,
      onBody: () => {},
      onTooLarge: (info) => refused.push(info),
    });
    open.push(rx);
    expect(await send(rx.port, Buffer.alloc(1000, 'a'))).toEqual({
      status: 413,
      text: 'payload too large\n',
    });
    expect(refused).toEqual([{ size: 1000, declared: true, maxBytes: 100 }]);
  });

  it('rejects with the listen error when the port is taken', async () => {
    const { rx } = await receiver();
    await expect(
      startReceiver({ port: rx.port, host: '127.0.0.1', onBody: () => {} }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

describe('duplicate detection', () => {
  it('flags a notification uuid seen before, with when it was first seen', () => {
    const seen = new SeenNotifications();
    const t1 = new Date('2026-01-01T10:00:00Z');
    expect(seen.check('a', t1)).toEqual({ duplicate: false, firstAt: undefined });
    expect(seen.check('a', new Date())).toEqual({ duplicate: true, firstAt: t1.toISOString() });
    expect(seen.check(undefined, t1).duplicate).toBe(false);
    expect(seen.check(undefined, t1).duplicate).toBe(false);
  });

  it('a flood of unverified deliveries cannot push a verified uuid out', () => {
    const seen = new SeenNotifications(3);
    const t = new Date('2026-01-01T10:00:00Z');
    expect(seen.check('real', t, true).duplicate).toBe(false);
    for (let i = 0; i < 100; i++) expect(seen.check(`flood-${i}`, t, false).duplicate).toBe(false);
    // The real retry (verified) is still known, and so is an unverified copy of it.
    expect(seen.check('real', new Date(), true)).toEqual({
      duplicate: true,
      firstAt: t.toISOString(),
    });
    expect(seen.check('real', new Date(), false).duplicate).toBe(true);
    // The unverified ones keep a bounded memory of their own.
    expect(seen.check('flood-99', t, false).duplicate).toBe(true);
    expect(seen.check('flood-0', t, false).duplicate).toBe(false);
  });

  it('forgets the oldest uuid once the limit is reached', () => {
    const seen = new SeenNotifications(2);
    const t = new Date();
    seen.check('a', t);
    seen.check('b', t);
    seen.check('c', t);
    expect(seen.check('a', t).duplicate).toBe(false);
    expect(seen.check('c', t).duplicate).toBe(true);
  });
});

describe('forwarding', () => {
  const all = { url: new URL('http://127.0.0.1:1/all') };
  const cancels = { url: new URL('http://127.0.0.1:1/c'), events: ['meetingCancelled'] };

  it('sends a delivery to every target for its event, in order', () => {
    expect(targetsFor([all, cancels], 'meetingCancelled')).toEqual([all, cancels]);
    expect(targetsFor([all, cancels], 'meetingScheduled')).toEqual([all]);
    expect(targetsFor([cancels], undefined)).toEqual([]);
  });

  it('re-sends the exact bytes with only the delivery headers; a 5xx is tried again, bounded', async () => {
    const a = await startRecorder();
    const b = await startRecorder({ statuses: [500, 503, 502] });
    const c = await startRecorder({ statuses: [503] });
    open.push(a, b, c);
    const body = Buffer.from('{"event":"meetingScheduled"}');
    const reports = await forwardDelivery(
      [{ url: new URL(a.url) }, { url: new URL(b.url) }, { url: new URL(c.url) }],
      {
        body,
        headers: {
          'webhook-signature': 'sig',
          'content-type': 'application/json',
          'user-agent': 'SimplyMeet.me',
          connection: 'keep-alive',
          host: 'elsewhere',
          authorization: 'Bearer x',
          'x-http-method-override': 'DELETE',
        },
      },
      { timeoutMs: 5_000, retryDelaysMs: [10, 10] },
    );
    expect(reports.map((r) => [r.url, r.status, r.attempts])).toEqual([
      [a.url, 200, 1],
      // Three tries in all, then the last answer stands.
      [b.url, 502, 3],
      [c.url, 200, 2],
    ]);
    expect(b.received).toHaveLength(3);
    const got = a.received[0]!;
    expect(got.body).toEqual(body);
    expect(got.headers['webhook-signature']).toBe('sig');
    expect(got.headers.host).not.toBe('elsewhere');
    expect(got.headers.authorization).toBeUndefined();
    expect(got.headers['x-http-method-override']).toBeUndefined();
  });

  it('does not try a 4xx again: that is the app answering', async () => {
    const a = await startRecorder({ statuses: [400] });
    open.push(a);
    const [r] = await forwardDelivery(
      [{ url: new URL(a.url) }],
      { body: Buffer.from('{}'), headers: {} },
      { timeoutMs: 5_000, retryDelaysMs: [10, 10] },
    );
    expect([r!.status, r!.attempts]).toEqual([400, 1]);
  });
});
