import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  buildDeliveryBody,
  deliveryHeaders,
  summarizeDelivery,
} from '../../../src/domain/webhooks/delivery.js';
import { buildMeeting } from '../../../src/domain/webhooks/meeting.js';

const meeting = buildMeeting({
  meetingType: { name: 'Intro', slug: 'intro', duration: 15 },
  invitee: { name: 'Grace Hopper', email: 'grace@example.com' },
  start: '2026-05-04T09:00:00Z',
});

describe('delivery pieces', () => {
  it('signs the exact body with the secret, base64 of the raw digest', () => {
    const { body } = buildDeliveryBody('meetingScheduled', meeting);
    const h = deliveryHeaders(body, 's3cret', 'Harmonizely');
    expect(h).toEqual({
      'content-type': 'application/json',
      'user-agent': 'Harmonizely',
      'webhook-signature': createHmac('sha256', 's3cret').update(body).digest('base64'),
    });
  });

  it('has no signature header without a secret, and the default service name', () => {
    const body = Buffer.from('{}');
    for (const s of [undefined, null, '']) {
      expect(deliveryHeaders(body, s)).toEqual({
        'content-type': 'application/json',
        'user-agent': 'SimplyMeet.me',
      });
    }
  });

  it('wraps the meeting as {event, uuid, data} with a fresh v4 uuid each time', () => {
    const a = buildDeliveryBody('meetingCancelled', meeting);
    const b = buildDeliveryBody('meetingCancelled', meeting);
    expect(a.uuid).not.toBe(b.uuid);
    expect(a.uuid).toMatch(/^[0-9a-f-]{8}-[0-9a-f]{4}-4/);
    const parsed = JSON.parse(a.body.toString('utf8')) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['event', 'uuid', 'data']);
    expect(parsed).toEqual({ event: 'meetingCancelled', uuid: a.uuid, data: meeting });
  });

  it('summarises a real delivery and tolerates bodies that are not JSON objects', () => {
    const real = readFileSync(new URL('../../fixtures/real-delivery.json', import.meta.url));
    expect(summarizeDelivery(real)).toMatchObject({
      json: true,
      event: 'meetingScheduled',
      uuid: '0b6a6a53-6f5e-4c1e-9d2a-3f0e8f7c2b11',
      meetingUuid: '12345678-1234-1234-1234-12345678',
      inviteeName: 'Aarno Aukia',
      inviteeEmail: 'aarno.aukia@vshn.ch',
      start: '2022-02-18T07:00:00+00:00',
    });
    expect(summarizeDelivery(Buffer.from('hello'))).toMatchObject({
      json: false,
      event: undefined,
    });
    expect(summarizeDelivery(Buffer.from('[1,2]')).json).toBe(false);
    expect(summarizeDelivery(Buffer.from('{"data":7}'))).toMatchObject({
      json: true,
      meetingUuid: undefined,
    });
  });
});
