// The sandbox's deliveries on their own: a receiver that never answers, one that cuts its
// answer short, the record list's bound, and waiting on a delivery already settled.
import { afterEach, describe, expect, it } from 'vitest';
import { Deliveries } from '../../src/sandbox/deliveries.js';
import type { SandboxLogEvent } from '../../src/sandbox/log.js';
import { cryptoRandom } from '../../src/sandbox/random.js';
import { f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { startRawReceiver } from '../helpers/hostile.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const CAFE = 'c9e8d7b6-a5f4-4e3d-b2c1-f0e9d8c7b6a5';
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const x of open.splice(0).reverse()) await x.close();
});

/** A sandbox with one webhook to `url` and one booked meeting; its delivery, settled. */
async function bookedTo(url: string, opts: Parameters<typeof startTestSandbox>[0] = {}) {
  const sb = await startTestSandbox({ retryDelaysMs: [], ...opts });
  open.push(sb);
  const w = await sb.api('/webhooks', {
    method: 'POST',
    body: JSON.stringify({ url, events: ['meetingScheduled'] }),
  });
  expect(w.status).toBe(201);
  const link = (await (
    await sb.api('/single-use-link', {
      method: 'POST',
      body: JSON.stringify({ meeting_type_uuid: CAFE }),
    })
  ).json()) as { code: string };
  expect(
    (await sb.api('/_sandbox/book', { method: 'POST', body: JSON.stringify(link) })).status,
  ).toBe(201);
  await sb.deliveries.idle();
  return { sb, record: sb.deliveries.records[0]! };
}

describe('sandbox deliveries', () => {
  it('a receiver that never answers: the attempt fails after the timeout, once', async () => {
    const hang: FaultServer = await startFaultServer();
    open.push(hang);
    hang.on('POST', '/hook', f.hang());
    const { record } = await bookedTo(`${hang.url}/hook`, { deliveryTimeoutMs: 100 });
    expect(record.state).toBe('failed');
    expect(record.attempts.map((a) => [a.status, a.error])).toEqual([
      [null, 'no answer within 100 ms'],
    ]);
  });

  it('a receiver that cuts its 200 short still answered 200: delivered', async () => {
    const rx = await startRawReceiver('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nshort');
    open.push(rx);
    const { record } = await bookedTo(rx.url);
    expect(record.attempts.map((a) => a.status)).toEqual([200]);
    expect(record.state).toBe('delivered');
  });

  it('settled() on a delivery already settled resolves at once with it', async () => {
    const rx = await startRawReceiver('HTTP/1.1 204 No Content\r\n\r\n');
    open.push(rx);
    const { sb, record } = await bookedTo(rx.url);
    expect(await sb.deliveries.settled(record)).toBe(record);
  });

  it('keeps only the newest `keep` records', async () => {
    const rx = await startRawReceiver('HTTP/1.1 204 No Content\r\n\r\n');
    open.push(rx);
    const { sb }: { sb: TestSandbox } = await bookedTo(rx.url);
    const webhook = [...sb.state.webhooks.values()][0]!;
    const meeting = [...sb.state.meetings.values()][0]!.meeting;
    const log: SandboxLogEvent[] = [];
    const d = new Deliveries({
      serviceName: 'test',
      retryDelaysMs: [],
      timeoutMs: 5_000,
      keep: 2,
      log: (e) => log.push(e),
      random: cryptoRandom,
      now: () => new Date(),
    });
    const made = [1, 2, 3].map(() => d.enqueue(webhook, 'meetingScheduled', meeting));
    await d.idle();
    expect(d.records).toEqual([made[1], made[2]]);
    expect(log.filter((e) => e.type === 'delivery')).toHaveLength(3);
  });
});
