// What `webhooks listen --json` records of a delivery (src/domain/webhooks/listen/record.ts) and which
// headers it passes on to --forward-to (forward.ts), when the sender leaves things out.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { deliveryRecord } from '../../../../src/domain/webhooks/listen/record.js';
import { forwardHeaders } from '../../../../src/domain/webhooks/listen/forward.js';

const req = (headers: Record<string, string> = {}) =>
  ({ method: 'POST', url: '/hooks?x=1', headers }) as unknown as IncomingMessage;
const seen = {
  receivedAt: new Date('2026-11-24T09:00:00Z'),
  signature: 'unchecked' as const,
  duplicate: false,
};
const body = (data: unknown) =>
  Buffer.from(JSON.stringify({ event: 'meetingScheduled', uuid: 'n-1', data }));

describe('deliveryRecord', () => {
  it('an invitee with a name or an email alone; no user agent or content type: null', () => {
    const nameOnly = deliveryRecord(req(), body({ invitee: { full_name: 'Ada' } }), seen);
    expect(nameOnly).toMatchObject({
      method: 'POST',
      path: '/hooks?x=1',
      invitee: { name: 'Ada', email: null },
      userAgent: null,
      contentType: null,
    });
    const emailOnly = deliveryRecord(req(), body({ invitee: { email: 'ada@example.com' } }), seen);
    expect(emailOnly.invitee).toEqual({ name: null, email: 'ada@example.com' });
    const none = deliveryRecord(req(), body({}), seen);
    expect(none.invitee).toBeNull();
  });

  it('keeps the sender headers it shows', () => {
    const r = deliveryRecord(
      req({ 'user-agent': 'SimplyMeet.me', 'content-type': 'application/json' }),
      body({}),
      seen,
    );
    expect([r.userAgent, r.contentType]).toEqual(['SimplyMeet.me', 'application/json']);
  });
});

describe('forwardHeaders', () => {
  it('passes on only what the service sends: content type, user agent, signature', () => {
    expect(
      forwardHeaders({
        'content-type': 'application/json',
        'user-agent': 'SimplyMeet.me',
        'webhook-signature': 'sig',
        'keep-alive': 'timeout=5',
        'x-forwarded-for': '10.0.0.1',
        authorization: 'Bearer x',
        cookie: 'a=b',
        'x-real-ip': '10.0.0.2',
        'true-client-ip': '10.0.0.3',
        'x-http-method-override': 'DELETE',
        'x-original-url': '/admin',
      }),
    ).toEqual({
      'content-type': 'application/json',
      'user-agent': 'SimplyMeet.me',
      'webhook-signature': 'sig',
    });
  });
});
