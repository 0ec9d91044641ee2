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
import { startReceiver, type Receiver } from '../../../helpers/receiver.js';
import { until } from '../../../helpers/until.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Chalk } from 'chalk';
import { eventText } from '../../../../src/domain/webhooks/listen/render.js';

const SECRET = 'driver-secret';
const sign = (b: string) => createHmac('sha256', SECRET).update(b).digest('base64');
const body = (uuid: string, event = 'meetingScheduled') =>
  JSON.stringify({ event, uuid, data: { uuid: `m-${uuid}` } });

const running: Listener[] = [];
const apps: Receiver[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((l) => l.close()));
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

function fakeApi() {
  const calls: string[] = [];
  const api: WebhookApi = {
    list: async function* () {},
    create: async (input) => {
      calls.push(`create ${input.url}`);
      return { uuid: 'w-1', url: input.url, events: input.events } as never;
    },
    remove: async (uuid) => {
      calls.push(`remove ${uuid}`);
      return 'deleted';
    },
  };
  return { api, calls };
}

function drive(over: Partial<ListenerConfig> = {}, onEvent: (e: ListenerEvent) => void = () => {}) {
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
        onEvent(e);
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
