// `sched events` through the built binary: a sample piped into `sig sign`, and a delivery from
// `events send` that verifies with openssl over the bytes the receiver got.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSched } from '../helpers/run.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { opensslSign } from '../helpers/openssl.js';
import { unavailable } from '../helpers/skip.js';
import { EVENT_NAMES } from '../../src/api/types.js';

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

describe('sched events (built binary)', () => {
  it('prints a compact sample when piped, which sig sign accepts', async () => {
    const s = await spawnSched(['events', 'sample', 'meetingRescheduled']);
    expect(s.code).toBe(0);
    expect(s.stderr).toBe('');
    const payload = JSON.parse(s.stdout) as { event: string; data: { rescheduling: unknown } };
    expect(payload.event).toBe('meetingRescheduled');
    expect(payload.data.rescheduling).not.toBeNull();
    const signed = await spawnSched(['sig', 'sign', '--secret', 'k'], { input: s.stdout });
    expect(signed.code).toBe(0);
    expect(signed.stdout).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
  });

  it('sends a delivery that verifies with openssl over the received body', async (t) => {
    const r = await spawnSched(['events', 'send', 'meetingScheduled', '--to', rx.url], {
      env: { SCHED_WEBHOOK_SECRET: 'e2e-send-secret' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^200 OK in \d+ ms\n$/);
    const got = rx.received.at(-1)!;
    const expected = opensslSign('e2e-send-secret', got.body);
    if (unavailable(!expected && 'openssl is not installed: no cross-check')) {
      t.skip();
      return;
    }
    expect(got.headers['webhook-signature']).toBe(expected);
  });

  it('exits 2 for an unknown event and 1 when the receiver fails', async () => {
    const bad = await spawnSched(['events', 'sample', 'meetingBooked']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain(EVENT_NAMES.join(', '));
    rx.respond = { status: 500, body: 'boom' };
    const fail = await spawnSched(['events', 'send', 'meetingCancelled', '--to', rx.url]);
    rx.respond = { status: 200, body: 'ok' };
    expect(fail.code).toBe(1);
    expect(fail.stderr).toMatch(/the receiver answered 500/);
  });
});
