// Deterministic runs: `startSandbox({ seed })` (and `sched sandbox --seed`) give the same
// UUIDs, link codes and generated times for the same calls in the same order; another seed, or
// none, gives others.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/library.js';
import { seededRandom, SEEDED_EPOCH_MS } from '../../src/sandbox/random.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

/** One scripted session: a webhook, a link, a booking, a cancellation; what it produced. */
async function session(seed: number | undefined) {
  const sb = await startSandbox({ seed, retryDelaysMs: [] });
  try {
    const api = (path: string, body: unknown) =>
      fetch(sb.baseUrl + path, {
        method: 'POST',
        headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<Record<string, unknown>>);
    const webhook = await api('/webhooks', {
      url: rx.url,
      events: ['meetingScheduled', 'meetingCancelled'],
      secret: 'whsec',
    });
    const link = await api('/single-use-link', {
      meeting_type_uuid: '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c',
    });
    const booked = await sb.book(String(link.url));
    const cancelled = await sb.cancel(booked.meeting.uuid, { reason: 'snapshot' });
    return {
      webhook,
      link: String(link.url).replace(sb.publicUrl, ''),
      meeting: cancelled.meeting,
      bodies: [...booked.deliveries, ...cancelled.deliveries].map((d) => d.body),
      signatures: [...booked.deliveries, ...cancelled.deliveries].map(
        (d) => d.headers['webhook-signature'],
      ),
      attemptTimes: cancelled.deliveries.map((d) => d.attempts[0]!.startedAt),
    };
  } finally {
    await sb.close();
  }
}

describe('seed', () => {
  it('the same seed: the same webhook, link, meeting, delivery bodies and signatures', async () => {
    const a = await session(42);
    const b = await session(42);
    expect(b).toEqual(a);
    // The generated times come from the seeded clock, not today's date.
    expect(a.webhook.created_at).toBe('2026-01-05T09:00:00+00:00');
    expect(Date.parse(a.meeting.canceled_at!)).toBeGreaterThan(SEEDED_EPOCH_MS);
    expect(a.meeting.scheduled_at).toBe('2026-01-06T10:00:00+00:00');
    expect(a.link).toMatch(/^\/s\/[A-Za-z0-9]{12}$/);
  });

  it('another seed, or none, gives other values', async () => {
    const a = await session(42);
    const c = await session(43);
    const none1 = await session(undefined);
    const none2 = await session(undefined);
    expect(c.webhook.uuid).not.toBe(a.webhook.uuid);
    expect(c.link).not.toBe(a.link);
    expect(c.meeting.uuid).not.toBe(a.meeting.uuid);
    expect(none1.meeting.uuid).not.toBe(none2.meeting.uuid);
    expect(none1.link).not.toBe(none2.link);
  });

  it('seeded UUIDs are version 4 and distinct', () => {
    const r = seededRandom(1);
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const u = r.uuid();
      expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      seen.add(u);
    }
    expect(seen.size).toBe(1000);
  });

  it('a seed that is not a whole number is refused', async () => {
    await expect(startSandbox({ seed: 1.5 })).rejects.toThrow(
      'the seed must be a whole number from 0 to 2^53 - 1, got 1.5',
    );
  });
});
