// The service's behaviour behind the API: booking a single-use link, cancelling and
// rescheduling, each delivered to subscribed webhooks exactly as spec 6 says. Receivers are
// real HTTP servers; signatures are checked here with node:crypto, independently of the code
// under test.
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { EVENT_NAMES } from '../../src/api/types.js';

const NOW = new Date('2026-01-10T08:00:00Z');
const CAFE = 'c9e8d7b6-a5f4-4e3d-b2c1-f0e9d8c7b6a5'; // "Café-Gespräch — 30 min", 30 minutes
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Payload {
  event: string;
  uuid: string;
  data: Record<string, unknown> & {
    uuid: string;
    invitee: Record<string, unknown>;
    event_type: Record<string, unknown>;
  };
}

function hmac(secret: string, raw: Buffer): string {
  return createHmac('sha256', secret).update(raw).digest('base64');
}

let sb: TestSandbox;
const receivers: Receiver[] = [];

async function receiver(opts?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(opts);
  receivers.push(r);
  return r;
}

async function subscribe(url: string, events: string[], secret?: string): Promise<string> {
  const r = await sb.api('/webhooks', {
    method: 'POST',
    body: JSON.stringify({ url, events, ...(secret === undefined ? {} : { secret }) }),
  });
  expect(r.status).toBe(201);
  return ((await r.json()) as { uuid: string }).uuid;
}

async function mintLink(typeUuid = CAFE): Promise<{ code: string; url: string }> {
  const r = await sb.api('/single-use-link', {
    method: 'POST',
    body: JSON.stringify({ meeting_type_uuid: typeUuid }),
  });
  expect(r.status).toBe(200);
  return (await r.json()) as { code: string; url: string };
}

async function book(body: Record<string, unknown>): Promise<Response> {
  return sb.api('/_sandbox/book', { method: 'POST', body: JSON.stringify(body) });
}

async function bookOk(
  body: Record<string, unknown>,
): Promise<{ meeting: Payload['data']; notified: Array<Record<string, unknown>> }> {
  const r = await book(body);
  expect(r.status).toBe(201);
  return (await r.json()) as { meeting: Payload['data']; notified: Array<Record<string, unknown>> };
}

beforeEach(async () => {
  sb = await startTestSandbox({ now: () => NOW });
});
afterEach(async () => {
  await sb.close();
  for (const r of receivers.splice(0)) await r.close();
});

describe('booking a single-use link', () => {
  it('creates a meeting (state new) and delivers a signed meetingScheduled as spec 6 says', async () => {
    const rx = await receiver();
    await subscribe(rx.url, ['meetingScheduled'], 'whsec_abc123');
    const link = await mintLink();
    const res = await bookOk({
      code: link.code,
      name: 'Zoë Müller',
      email: 'zoe@example.com',
      timezone: 'America/New_York',
      at: '2026-03-17T14:30:00Z',
      notes: 'Über die API sprechen',
    });
    expect(res.meeting.state).toBe('new');

    const [got] = await rx.waitFor(1);
    expect(got!.method).toBe('POST');
    expect(got!.url).toBe('/hook');
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['user-agent']).toBe('SimplyMeet.me');
    expect(got!.headers['webhook-signature']).toBe(hmac('whsec_abc123', got!.body));

    const p = JSON.parse(got!.body.toString('utf8')) as Payload;
    expect(Object.keys(p)).toEqual(['event', 'uuid', 'data']);
    expect(p.event).toBe('meetingScheduled');
    expect(p.uuid).toMatch(UUID_V4);
    expect(p.data).toEqual(res.meeting);
    expect(p.data).toMatchObject({
      state: 'new',
      scheduled_at: '2026-03-17T14:30:00+00:00',
      end_date: '2026-03-17T15:00:00+00:00',
      canceled_at: null,
      pretty_scheduled_at: 'Tuesday, March 17, 2026 15:30',
      pretty_scheduled_at_in_invitee_timezone: 'Tuesday, March 17, 2026 at 10:30 AM',
      pretty_canceled_at: null,
      pretty_canceled_at_in_invitee_timezone: null,
      rescheduling: null,
      cancellation: null,
      payment: null,
    });
    expect(p.data.event_type).toMatchObject({
      name: 'Café-Gespräch — 30 min',
      slug: 'cafe-gesprach-30-min',
      duration: 30,
      is_secret: false,
      type: 'regular',
    });
    expect(p.data.event_type).not.toHaveProperty('uuid');
    expect(p.data.invitee).toMatchObject({
      first_name: 'Zoë',
      full_name: 'Zoë Müller',
      email: 'zoe@example.com',
      timezone: 'America/New_York',
      locale: 'en',
    });
    expect(p.data.answers).toEqual([
      {
        question_label: 'What would you like to discuss?',
        question_type: 'textarea',
        value: 'Über die API sprechen',
      },
      { question_label: 'I agree to the privacy policy', question_type: 'checkbox', value: 1 },
    ]);
    expect(typeof p.data.location).toBe('string');
  });

  it('reports which webhooks it notified, and delivers only to those subscribed to the event', async () => {
    const a = await receiver();
    const b = await receiver();
    const c = await receiver();
    const wa = await subscribe(a.url, ['meetingScheduled', 'meetingCancelled'], 'sa');
    const wb = await subscribe(b.url, ['meetingScheduled'], 'sb');
    await subscribe(c.url, ['meetingCancelled']);
    const res = await bookOk({ code: (await mintLink()).code, at: '2026-02-02T10:00:00Z' });
    expect(res.notified.map((n) => n.webhook_uuid).sort()).toEqual([wa, wb].sort());
    await Promise.all([a.waitFor(1), b.waitFor(1)]);
    await sb.deliveries.idle();
    expect(c.received).toHaveLength(0);
    // Each webhook's delivery is signed with its own secret, and has its own notification uuid.
    expect(a.received[0]!.headers['webhook-signature']).toBe(hmac('sa', a.received[0]!.body));
    expect(b.received[0]!.headers['webhook-signature']).toBe(hmac('sb', b.received[0]!.body));
    const ua = (JSON.parse(a.received[0]!.body.toString()) as Payload).uuid;
    const ub = (JSON.parse(b.received[0]!.body.toString()) as Payload).uuid;
    expect(ua).not.toBe(ub);
  });

  it('sends no webhook-signature header to a webhook without a secret', async () => {
    const rx = await receiver();
    await subscribe(rx.url, ['meetingScheduled']);
    await bookOk({ code: (await mintLink()).code, at: '2026-02-02T10:00:00Z' });
    const [got] = await rx.waitFor(1);
    expect(got!.headers).not.toHaveProperty('webhook-signature');
    expect(got!.headers['user-agent']).toBe('SimplyMeet.me');
  });

  it('uses the configured service name as user-agent', async () => {
    await sb.close();
    sb = await startTestSandbox({ now: () => NOW, serviceName: 'Harmonizely' });
    const rx = await receiver();
    await subscribe(rx.url, ['meetingScheduled'], 's');
    await bookOk({ code: (await mintLink()).code, at: '2026-02-02T10:00:00Z' });
    const [got] = await rx.waitFor(1);
    expect(got!.headers['user-agent']).toBe('Harmonizely');
  });

  it('invalidates the link: a second booking fails with 422 and the page says it is used', async () => {
    const link = await mintLink();
    const page = await fetch(link.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('Café-Gespräch — 30 min');
    expect(html).toContain('<form method="post"');

    await bookOk({ url: link.url, at: '2026-02-02T10:00:00Z' });
    const again = await book({ code: link.code, at: '2026-02-03T10:00:00Z' });
    expect(again.status).toBe(422);
    expect(await again.json()).toEqual({
      message: 'Invalid arguments',
      errors: { code: [`The single-use link ${link.code} has already been used.`] },
    });
    const used = await fetch(link.url);
    expect(used.status).toBe(410);
    const usedHtml = await used.text();
    expect(usedHtml).toMatch(/already been used/);
    expect(usedHtml).not.toContain('<form');
    const meetings = (await (await sb.api('/_sandbox/meetings')).json()) as { total: number };
    expect(meetings.total).toBe(1);
  });

  it('books through the HTML form, on the invitee clock, and then shows the link as used', async () => {
    const rx = await receiver();
    await subscribe(rx.url, ['meetingScheduled'], 'form-secret');
    const link = await mintLink();
    const form = new URLSearchParams({
      name: 'Ada <Lovelace>',
      email: 'ada@example.com',
      at: '2026-03-17T10:30',
      timezone: 'America/New_York',
      notes: '',
      privacy: '1',
    });
    const r = await fetch(link.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain('You are booked');
    expect(html).toContain('Ada &lt;Lovelace&gt;');
    expect(html).not.toContain('<Lovelace>');
    const [got] = await rx.waitFor(1);
    const p = JSON.parse(got!.body.toString()) as Payload;
    expect(p.data.scheduled_at).toBe('2026-03-17T14:30:00+00:00');
    expect(p.data.answers).toEqual([
      { question_label: 'I agree to the privacy policy', question_type: 'checkbox', value: 1 },
    ]);
    expect((await fetch(link.url)).status).toBe(410);
    const second = await fetch(link.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    expect(second.status).toBe(410);
  });

  it('shows the form again with errors when fields are missing, booking nothing', async () => {
    const link = await mintLink();
    const r = await fetch(link.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=&email=x%40example.com&at=2026-03-17T10%3A30&timezone=Mars%2FOlympus&privacy=1',
    });
    expect(r.status).toBe(422);
    const html = await r.text();
    expect(html).toContain('This value should not be blank.');
    expect(html).toContain('<form');
    expect((await fetch(link.url)).status).toBe(200);
  });

  it('answers an unknown link with 404, on the page and on the control endpoint', async () => {
    expect((await fetch(`${sb.publicUrl}/s/doesNotExist`)).status).toBe(404);
    const r = await book({ code: 'doesNotExist' });
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ code: 404, message: 'Not found.' });
  });

  it.each([
    [{ at: 'tomorrow' }, 'at'],
    [{ at: '2026-03-17T10:30' }, 'at'],
    [{ at: '2026-02-30T10:00:00Z' }, 'at'],
    [{ at: '2025-12-31T10:00:00Z' }, 'at'],
    [{ timezone: 'Mars/Olympus' }, 'timezone'],
    [{ email: 'not-an-email' }, 'email'],
    [{ name: 42 }, 'name'],
    [{ at: 42 }, 'at'],
    [{ at: '2026-13-01T10:00:00Z' }, 'at'],
    [{ at: '2026-03-17T24:00:00Z' }, 'at'],
    [{ at: '2026-03-17T10:60:00Z' }, 'at'],
    [{ at: '2026-03-17T10:00:60Z' }, 'at'],
    [{ at: '2026-03-17T10:00+99:99' }, 'at'],
    [{ notes: '   ' }, 'notes'],
    [{ notes: 'x'.repeat(5001) }, 'notes'],
  ])('refuses %j with 422 under %s and leaves the link valid', async (extra, key) => {
    const link = await mintLink();
    const r = await book({ code: link.code, ...extra });
    expect(r.status).toBe(422);
    const body = (await r.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(body.errors)).toEqual([key]);
    expect((await fetch(link.url)).status).toBe(200);
  });

  it('takes a start without seconds', async () => {
    const res = await bookOk({ code: (await mintLink()).code, at: '2026-03-17T10:15+01:00' });
    expect(res.meeting.scheduled_at).toBe('2026-03-17T09:15:00+00:00');
  });

  it('defaults to tomorrow 10:00 on the invitee clock and a sample invitee', async () => {
    const res = await bookOk({ code: (await mintLink()).code, timezone: 'Asia/Tokyo' });
    // NOW is 2026-01-10 08:00 UTC = 17:00 in Tokyo; tomorrow 10:00 JST = 01:00 UTC.
    expect(res.meeting.scheduled_at).toBe('2026-01-11T01:00:00+00:00');
    expect(res.meeting.invitee).toMatchObject({
      full_name: 'Jordan Rivera',
      timezone: 'Asia/Tokyo',
    });
  });

  it('needs the API key on control endpoints', async () => {
    const r = await fetch(`${sb.baseUrl}/_sandbox/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'x' }),
    });
    expect(r.status).toBe(401);
  });
});

describe('cancelling and rescheduling', () => {
  async function booked(rx: Receiver, secret: string) {
    await subscribe(rx.url, [...EVENT_NAMES], secret);
    const res = await bookOk({
      code: (await mintLink()).code,
      at: '2026-03-17T14:30:00Z',
      timezone: 'Europe/London',
    });
    await rx.waitFor(1);
    return res.meeting;
  }

  it('cancel delivers meetingCancelled with the meeting updated, once', async () => {
    const rx = await receiver();
    const m = await booked(rx, 'cx');
    const r = await sb.api(`/_sandbox/meetings/${m.uuid}/cancel`, {
      method: 'POST',
      body: JSON.stringify({ reason: 'Conflict' }),
    });
    expect(r.status).toBe(200);
    const [, got] = await rx.waitFor(2);
    expect(got!.headers['webhook-signature']).toBe(hmac('cx', got!.body));
    const p = JSON.parse(got!.body.toString()) as Payload;
    expect(p.event).toBe('meetingCancelled');
    expect(p.data).toMatchObject({
      uuid: m.uuid,
      scheduled_at: '2026-03-17T14:30:00+00:00',
      canceled_at: '2026-01-10T08:00:00+00:00',
      pretty_canceled_at: 'Saturday, January 10, 2026 09:00',
      pretty_canceled_at_in_invitee_timezone: 'Saturday, January 10, 2026 at 8:00 AM',
      cancellation: { reason: 'Conflict' },
    });
    const again = await sb.api(`/_sandbox/meetings/${m.uuid}/cancel`, {
      method: 'POST',
      body: '{}',
    });
    expect(again.status).toBe(422);
    await sb.deliveries.idle();
    expect(rx.received).toHaveLength(2);
  });

  it('reschedule delivers meetingRescheduled with new times and the previous ones', async () => {
    const rx = await receiver();
    const m = await booked(rx, 'rx');
    const r = await sb.api(`/_sandbox/meetings/${m.uuid}/reschedule`, {
      method: 'POST',
      body: JSON.stringify({ at: '2026-03-19T16:00:00+01:00' }),
    });
    expect(r.status).toBe(200);
    const [, got] = await rx.waitFor(2);
    expect(got!.headers['webhook-signature']).toBe(hmac('rx', got!.body));
    const p = JSON.parse(got!.body.toString()) as Payload;
    expect(p.event).toBe('meetingRescheduled');
    expect(p.data).toMatchObject({
      uuid: m.uuid,
      scheduled_at: '2026-03-19T15:00:00+00:00',
      end_date: '2026-03-19T15:30:00+00:00',
      pretty_scheduled_at: 'Thursday, March 19, 2026 16:00',
      pretty_scheduled_at_in_invitee_timezone: 'Thursday, March 19, 2026 at 3:00 PM',
      canceled_at: null,
      rescheduling: { previous_scheduled_at: '2026-03-17T14:30:00+00:00' },
    });
    const stored = (await (await sb.api(`/_sandbox/meetings/${m.uuid}`)).json()) as {
      scheduled_at: string;
    };
    expect(stored.scheduled_at).toBe('2026-03-19T15:00:00+00:00');
  });

  it('refuses to reschedule without a valid future time, or a cancelled meeting; 404 for unknown', async () => {
    const rx = await receiver();
    const m = await booked(rx, 'z');
    const post = (path: string, body: unknown) =>
      sb.api(path, { method: 'POST', body: JSON.stringify(body) });
    expect((await post(`/_sandbox/meetings/${m.uuid}/reschedule`, {})).status).toBe(422);
    expect((await post(`/_sandbox/meetings/${m.uuid}/reschedule`, { at: 'soon' })).status).toBe(
      422,
    );
    expect(
      (await post(`/_sandbox/meetings/${m.uuid}/reschedule`, { at: '2020-01-01T00:00:00Z' }))
        .status,
    ).toBe(422);
    // Only the invitee or the host cancels; nothing changes on a refusal.
    const robot = await post(`/_sandbox/meetings/${m.uuid}/cancel`, { canceled_by: 'robot' });
    expect(robot.status).toBe(422);
    expect(await robot.json()).toEqual({
      message: 'Invalid arguments',
      errors: { canceled_by: ['The value you selected is not a valid choice.'] },
    });
    expect(
      (await post(`/_sandbox/meetings/${m.uuid}/cancel`, { canceled_by: 'host' })).status,
    ).toBe(200);
    const r = await post(`/_sandbox/meetings/${m.uuid}/reschedule`, {
      at: '2026-04-01T10:00:00Z',
    });
    expect(r.status).toBe(422);
    const unknown = await post(
      '/_sandbox/meetings/4b1d2f0e-2f44-4c1a-9a51-0f3f6a7c8d90/cancel',
      {},
    );
    expect(unknown.status).toBe(404);
  });
});

describe('delivery behaviour', () => {
  it('retries a failing receiver with the same body, signature and notification uuid', async () => {
    const rx = await receiver({ statuses: [500, 503] });
    await subscribe(rx.url, ['meetingScheduled'], 'retry-secret');
    await bookOk({ code: (await mintLink()).code, at: '2026-02-02T10:00:00Z' });
    const got = await rx.waitFor(3);
    await sb.deliveries.idle();
    expect(got).toHaveLength(3);
    expect(got[1]!.body.equals(got[0]!.body)).toBe(true);
    expect(got[2]!.body.equals(got[0]!.body)).toBe(true);
    expect(got[2]!.headers['webhook-signature']).toBe(hmac('retry-secret', got[2]!.body));
    const log = (await (await sb.api('/_sandbox/deliveries')).json()) as {
      items: Array<{ state: string; attempts: Array<{ status: number | null }> }>;
    };
    expect(log.items).toHaveLength(1);
    expect(log.items[0]!.state).toBe('delivered');
    expect(log.items[0]!.attempts.map((a) => a.status)).toEqual([500, 503, 200]);
  });

  it('gives up after the configured retries when the receiver is down, and logs each attempt', async () => {
    const events: Array<Record<string, unknown>> = [];
    await sb.close();
    sb = await startTestSandbox({
      now: () => NOW,
      retryDelaysMs: [10, 10],
      log: (e) => {
        if (e.type === 'delivery') events.push(e);
      },
    });
    const rx = await receiver();
    const url = rx.url;
    await rx.close();
    receivers.splice(receivers.indexOf(rx), 1);
    await subscribe(url, ['meetingScheduled'], 's');
    await bookOk({ code: (await mintLink()).code, at: '2026-02-02T10:00:00Z' });
    await sb.deliveries.idle();
    expect(sb.deliveries.records[0]!.state).toBe('failed');
    expect(sb.deliveries.records[0]!.attempts).toHaveLength(3);
    expect(events.map((e) => [e.attempt, e.outcome])).toEqual([
      [1, 'retrying'],
      [2, 'retrying'],
      [3, 'failed'],
    ]);
    expect(events[0]).toMatchObject({ event: 'meetingScheduled', url, status: undefined });
  });

  it('never makes the API wait for a receiver that does not answer', async () => {
    const rx = await receiver({ hang: true });
    await subscribe(rx.url, ['meetingScheduled'], 's');
    const res = await bookOk({ code: (await mintLink()).code, at: '2026-02-02T10:00:00Z' });
    expect(res.meeting.state).toBe('new');
    await rx.waitFor(1);
    // The receiver still holds the request open, and the API keeps answering.
    expect(sb.deliveries.records[0]!.state).toBe('pending');
    expect((await sb.api('/webhooks')).status).toBe(200);
  });

  it('filters the delivery log by meeting and event', async () => {
    const rx = await receiver();
    await subscribe(rx.url, ['meetingScheduled', 'meetingCancelled'], 's');
    const a = await bookOk({ code: (await mintLink()).code, at: '2026-02-02T10:00:00Z' });
    await bookOk({ code: (await mintLink()).code, at: '2026-02-03T10:00:00Z' });
    await sb.api(`/_sandbox/meetings/${a.meeting.uuid}/cancel`, { method: 'POST', body: '{}' });
    await sb.deliveries.idle();
    const q = async (s: string) =>
      ((await (await sb.api(`/_sandbox/deliveries?${s}`)).json()) as { items: unknown[] }).items;
    expect(await q('')).toHaveLength(3);
    expect(await q(`meeting=${a.meeting.uuid}`)).toHaveLength(2);
    expect(await q('event=meetingCancelled')).toHaveLength(1);
  });
});

describe('state file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sched-sb-state-'));
  });
  afterEach(async () => {
    // Stop the sandbox before its state file's directory goes away.
    await sb.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps meetings, used links and webhook secrets across a restart; the file is 0600', async () => {
    const file = join(dir, 'state.json');
    await sb.close();
    sb = await startTestSandbox({ now: () => NOW, stateFile: file });
    expect(sb.stateLoaded).toBe(false);
    const rx = await receiver();
    await subscribe(rx.url, ['meetingCancelled'], 'kept-secret');
    const link = await mintLink();
    const { meeting } = await bookOk({ code: link.code, at: '2026-02-02T10:00:00Z' });
    await sb.close();
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    sb = await startTestSandbox({ now: () => NOW, stateFile: file });
    expect(sb.stateLoaded).toBe(true);
    expect((await fetch(`${sb.publicUrl}/s/${link.code}`)).status).toBe(410);
    const stored = await sb.api(`/_sandbox/meetings/${meeting.uuid}`);
    expect(stored.status).toBe(200);
    await sb.api(`/_sandbox/meetings/${meeting.uuid}/cancel`, { method: 'POST', body: '{}' });
    const [got] = await rx.waitFor(1);
    // The secret came back from the file: the delivery is still signed with it.
    expect(got!.headers['webhook-signature']).toBe(hmac('kept-secret', got!.body));
  });
});

describe('the booking page', () => {
  const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
  const post = (url: string, body: string) => fetch(url, { method: 'POST', headers: FORM, body });
  const filled = (extra: Record<string, string> = {}) =>
    new URLSearchParams({
      name: 'Ada <Lovelace>',
      email: 'ada@example.com',
      at: '2026-03-17T10:30',
      timezone: 'Europe/Berlin',
      privacy: '1',
      ...extra,
    }).toString();

  it('a booking the service refuses shows the form again with its reason and what was typed', async () => {
    const link = await mintLink();
    // Filled in, but the service refuses it (a date before today): 422, nothing booked.
    const r = await post(link.url, filled({ at: '2025-12-31T10:00' }));
    expect(r.status).toBe(422);
    const html = await r.text();
    expect(html).toMatch(
      /<input id="at"[^>]*value="2025-12-31T10:00">\s*<p class="error">[^<]+<\/p>/,
    );
    expect(html).toContain('value="Ada &lt;Lovelace&gt;"');
    expect(html).toContain('value="Europe/Berlin"');
    expect((await fetch(link.url)).status).toBe(200);
  });

  it.each(['2026-13-45T10:00', '2026-02-30T10:00', '2026-03-17T24:00'])(
    'a start no calendar has (%s) is refused, not rolled over into another date',
    async (at) => {
      const link = await mintLink();
      const r = await post(link.url, filled({ at }));
      expect(r.status).toBe(422);
      expect(await r.text()).toMatch(
        /<input id="at"[^>]*value="[^"]*">\s*<p class="error">[^<]+<\/p>/,
      );
      expect(((await (await sb.api('/_sandbox/meetings')).json()) as { total: number }).total).toBe(
        0,
      );
    },
  );

  it('without the privacy box ticked: its own error above the form, nothing booked', async () => {
    const link = await mintLink();
    const r = await post(link.url, filled({ privacy: '' }));
    expect(r.status).toBe(422);
    const html = await r.text();
    expect(html).toMatch(/<p class="error">Please agree to the privacy policy.<\/p>\s*<form/);
    expect(((await (await sb.api('/_sandbox/meetings')).json()) as { total: number }).total).toBe(
      0,
    );
  });

  it('a field sent twice: the last one counts; an unknown code posts to a 404', async () => {
    const link = await mintLink();
    const r = await post(link.url, `${filled()}&name=Bob`);
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(/with Bob<\/p>/);
    const gone = await post(`${sb.publicUrl}/s/doesNotExist`, filled());
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain('This link does not exist');
  });

  it('a full ISO start and notes are booked as given', async () => {
    const link = await mintLink();
    const r = await post(
      link.url,
      filled({ at: '2026-03-17T09:00:00Z', notes: 'About <pricing>' }),
    );
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('You are booked');
    const list = (await (await sb.api('/_sandbox/meetings')).json()) as {
      _embedded: { items: Array<{ scheduled_at: string; answers: Array<{ value: unknown }> }> };
    };
    const [meeting] = list._embedded.items;
    expect(meeting!.scheduled_at).toBe('2026-03-17T09:00:00+00:00');
    expect(meeting!.answers.map((a) => a.value)).toContain('About <pricing>');
  });

  it('shows a type as the state file has it, and a link whose type is gone still books', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sched-sb-page-'));
    try {
      const file = join(dir, 'state.json');
      await sb.close();
      // A type with no location, no description and a duration edited to null by hand.
      sb = await startTestSandbox({
        now: () => NOW,
        stateFile: file,
        meetingTypes: [{ name: 'Bare', uuid: CAFE, duration: null as never }],
      });
      const link = await mintLink();
      const html = await (await fetch(link.url)).text();
      expect(html).toContain('<h1>Bare</h1>');
      expect(html).toContain('<p class="muted"> min</p>');

      await sb.close();
      const state = JSON.parse(await readFile(file, 'utf8')) as { meeting_types: unknown[] };
      state.meeting_types = [];
      await writeFile(file, JSON.stringify(state));
      sb = await startTestSandbox({ now: () => NOW, stateFile: file });
      // Restarted on another port: the same code, at the new address.
      const page = await (await fetch(`${sb.publicUrl}/s/${link.code}`)).text();
      expect(page).toContain('<title>Book: meeting</title>');
      expect(page).toContain('<h1>Meeting</h1>');
      expect(page).toContain('<p class="muted"></p>');
      // Booking it: the service has no such type (404); the page says so, nothing is booked.
      const r = await post(`${sb.publicUrl}/s/${link.code}`, filled());
      expect(r.status).toBe(404);
      expect(await r.text()).toContain(
        '<p class="error">The meeting type of this link no longer exists. Ask for a new link.</p>',
      );
      expect(((await (await sb.api('/_sandbox/meetings')).json()) as { total: number }).total).toBe(
        0,
      );
    } finally {
      await sb.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the control endpoints', () => {
  it('book takes the link as "code" or "url", of type string', async () => {
    const link = await mintLink();
    const missing = await book({});
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual({
      message: 'Invalid arguments',
      errors: { code: ['Give the link as "code" or "url".'] },
    });
    for (const [body, key] of [
      [{ code: 7 }, 'code'],
      [{ url: ['x'] }, 'url'],
    ] as const) {
      const r = await book(body);
      expect(r.status).toBe(422);
      expect(await r.json()).toEqual({
        message: 'Invalid arguments',
        errors: { [key]: ['This value should be of type string.'] },
      });
    }
    expect((await fetch(link.url)).status).toBe(200);
  });

  it('show the links, one link and one meeting; 404 for what does not exist', async () => {
    const link = await mintLink();
    const { meeting } = await bookOk({ code: link.code, at: '2026-02-02T10:00:00Z' });
    const other = await mintLink();
    const all = (await (await sb.api('/_sandbox/links')).json()) as {
      items: Array<{ code: string; used_at: string | null; meeting_uuid: string | null }>;
    };
    expect(all.items.map((l) => [l.code, l.meeting_uuid])).toEqual([
      [link.code, meeting.uuid],
      [other.code, null],
    ]);
    const one = await sb.api(`/_sandbox/links/${link.code}`);
    expect(one.status).toBe(200);
    expect(await one.json()).toEqual({
      code: link.code,
      url: link.url,
      meeting_type_uuid: CAFE,
      created_at: '2026-01-10T08:00:00+00:00',
      used_at: '2026-01-10T08:00:00+00:00',
      meeting_uuid: meeting.uuid,
    });
    expect((await sb.api('/_sandbox/links/noSuchCode')).status).toBe(404);
    expect((await sb.api(`/_sandbox/meetings/${meeting.uuid}`)).status).toBe(200);
    expect((await sb.api('/_sandbox/meetings/4b1d2f0e-2f44-4c1a-9a51-0f3f6a7c8d90')).status).toBe(
      404,
    );
  });

  it('deliveries filter by meeting, event and webhook', async () => {
    const a = await receiver();
    const b = await receiver();
    const wa = await subscribe(a.url, ['meetingScheduled']);
    const wb = await subscribe(b.url, ['meetingScheduled']);
    const { meeting } = await bookOk({ code: (await mintLink()).code, at: '2026-02-02T10:00:00Z' });
    await a.waitFor(1);
    await b.waitFor(1);
    const get = async (q: string) =>
      (
        (await (await sb.api(`/_sandbox/deliveries?${q}`)).json()) as {
          items: Array<{ webhook_uuid: string; event: string }>;
        }
      ).items;
    expect((await get(`meeting=${meeting.uuid}`)).map((d) => d.webhook_uuid).sort()).toEqual(
      [wa, wb].sort(),
    );
    expect((await get(`webhook=${wb}`)).map((d) => d.webhook_uuid)).toEqual([wb]);
    expect(await get('event=meetingCancelled')).toEqual([]);
  });
});
