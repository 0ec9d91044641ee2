// How `webhooks listen` writes a delivery and a forward on a terminal (src/domain/webhooks/listen/
// render.ts), for every shape a sender can give it; colours off, so the words are checked.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import {
  deliveryLine,
  displayUrl,
  forwardLine,
} from '../../../../src/domain/webhooks/listen/render.js';
import type { DeliveryRecord } from '../../../../src/domain/webhooks/listen/record.js';

const c = new Chalk({ level: 0 });
const AT = new Date(2026, 10, 24, 9, 30, 5);
const record = (r: Partial<DeliveryRecord>): DeliveryRecord => ({
  receivedAt: AT.toISOString(),
  method: 'POST',
  path: '/',
  event: 'meetingScheduled',
  uuid: 'n-1',
  meeting: 'm-1',
  invitee: { name: 'Ada', email: 'ada@example.com' },
  start: '2026-12-01T10:00:00+00:00',
  signature: 'valid',
  signatureReason: null,
  duplicate: false,
  userAgent: 'SimplyMeet.me',
  contentType: 'application/json',
  bytes: 100,
  json: true,
  payload: {},
  ...r,
});

describe('deliveryLine', () => {
  it.each([
    [
      {},
      'meetingScheduled  m-1  Ada <ada@example.com>  starts 2026-12-01T10:00:00+00:00  signature valid',
    ],
    [
      { event: null, meeting: null, invitee: null, start: null, signature: 'missing' as const },
      '(no event)  (no meeting uuid)  (no invitee)  (no start)  signature missing',
    ],
    [{ invitee: { name: 'Ada', email: null } }, 'meetingScheduled  m-1  Ada  starts'],
    [
      { invitee: { name: null, email: 'ada@example.com' } },
      'meetingScheduled  m-1  <ada@example.com>  starts',
    ],
    [
      { json: false, contentType: 'text/plain', bytes: 5 },
      'not JSON: 5 bytes, text/plain  signature valid',
    ],
    [{ json: false, contentType: null, bytes: 5 }, 'not JSON: 5 bytes  signature valid'],
    [
      { signature: 'invalid' as const, signatureReason: 'signed with another secret' },
      'signature INVALID: signed with another secret',
    ],
    [{ signature: 'invalid' as const }, 'signature INVALID'],
    [{ signature: 'unchecked' as const }, 'signature unchecked'],
    // A sender's escape sequence is taken out, not obeyed.
    [{ event: 'meeting\u001b[2JScheduled' }, '09:30:05  meetingScheduled  m-1'],
  ])('%j', (r, shown) => {
    const line = deliveryLine(c, record(r), AT, undefined);
    expect(line.startsWith('09:30:05  ')).toBe(true);
    expect(line).toContain(shown);
    expect(line).not.toContain('\u001b');
  });

  it('a duplicate names the notification, and when the first came if known', () => {
    const dup = record({ duplicate: true });
    const first = new Date(2026, 10, 24, 9, 29, 0).toISOString();
    expect(deliveryLine(c, dup, AT, first)).toMatch(
      / {2}DUPLICATE of notification n-1 \(first 09:29:00\)$/,
    );
    expect(deliveryLine(c, dup, AT, undefined)).toMatch(/ {2}DUPLICATE of notification n-1$/);
    // Without a notification uuid there is nothing to be a duplicate of.
    expect(deliveryLine(c, record({ duplicate: true, uuid: null }), AT, first)).not.toContain(
      'DUPLICATE',
    );
  });
});

describe('forwardLine', () => {
  it.each([
    [
      { url: 'http://localhost:3000/h', status: 204, ms: 3, attempts: 1 },
      '  ↳ forwarded to http://localhost:3000/h: 204 in 3 ms',
    ],
    [
      { url: 'http://localhost:3000/h', status: 500, ms: 3, attempts: 1 },
      '  ↳ forwarded to http://localhost:3000/h: 500 in 3 ms',
    ],
    [
      { url: 'http://localhost:3000/h', status: 503, ms: 3, attempts: 3 },
      '  ↳ forwarded to http://localhost:3000/h: 503 in 3 ms after 3 attempts',
    ],
    [
      { url: 'http://localhost:3000/h', error: 'connection refused', ms: 1, attempts: 1 },
      '  ↳ forward to http://localhost:3000/h failed: connection refused',
    ],
    [
      { url: 'http://localhost:3000/h', error: 'connection refused', ms: 1, attempts: 3 },
      '  ↳ forward to http://localhost:3000/h failed after 3 attempts: connection refused',
    ],
  ])('%j', (f, line) => {
    expect(forwardLine(c, f)).toBe(line);
  });

  it('a 2xx in green, anything else in red', () => {
    const colour = new Chalk({ level: 1 });
    expect(forwardLine(colour, { url: 'u', status: 200, ms: 1, attempts: 1 })).toContain(
      '\u001b[32m',
    );
    expect(forwardLine(colour, { url: 'u', status: 302, ms: 1, attempts: 1 })).toContain(
      '\u001b[31m',
    );
  });
});

describe('displayUrl', () => {
  it.each([
    ['127.0.0.1', 'http://127.0.0.1:4020/'],
    ['0.0.0.0', 'http://localhost:4020/'],
    ['::', 'http://localhost:4020/'],
    ['::1', 'http://[::1]:4020/'],
    ['example.test', 'http://example.test:4020/'],
  ])('%s -> %s', (host, url) => {
    expect(displayUrl(host, 4020)).toBe(url);
  });
});
