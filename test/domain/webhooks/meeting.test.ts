import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  buildMeeting,
  cancelMeeting,
  isoWithOffset,
  prettyHostTime,
  prettyInviteeTime,
  rescheduleMeeting,
} from '../../../src/domain/webhooks/meeting.js';
import type { DeliveryPayload } from '../../../src/api/types.js';

const real = JSON.parse(
  readFileSync(new URL('../../fixtures/real-delivery.json', import.meta.url), 'utf8'),
) as DeliveryPayload;

const SPEC_FIELDS = [
  'uuid',
  'state',
  'scheduled_at',
  'end_date',
  'canceled_at',
  'pretty_scheduled_at',
  'pretty_scheduled_at_in_invitee_timezone',
  'pretty_canceled_at',
  'pretty_canceled_at_in_invitee_timezone',
  'rescheduling',
  'cancellation',
  'payment',
  'notes',
  'details',
  'location',
  'event_type',
  'invitee',
  'answers',
];

const base = {
  meetingType: { name: 'Intro call', slug: 'intro', duration: 30, description: 'A first chat' },
  invitee: {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    timezone: 'America/New_York',
    locale: 'en',
  },
  start: '2026-03-17T14:30:00Z',
  hostTimezone: 'Europe/Berlin',
  location: 'https://meet.example.com/abc',
};

describe('buildMeeting', () => {
  it('reproduces the real delivery: pretty times, end date and ISO timestamps', () => {
    const d = real.data;
    const m = buildMeeting({
      uuid: d.uuid,
      meetingType: d.event_type,
      invitee: {
        name: d.invitee.full_name,
        email: d.invitee.email,
        timezone: d.invitee.timezone,
        locale: d.invitee.locale,
      },
      start: new Date(Date.UTC(2022, 1, 18, 7, 0, 0)),
      duration: 45,
      location: d.location,
      answers: d.answers,
      hostTimezone: 'Europe/Zurich',
    });
    for (const k of [
      'scheduled_at',
      'end_date',
      'pretty_scheduled_at',
      'pretty_scheduled_at_in_invitee_timezone',
      'state',
      'canceled_at',
      'pretty_canceled_at',
      'pretty_canceled_at_in_invitee_timezone',
      'cancellation',
      'rescheduling',
      'payment',
      'notes',
      'details',
      'location',
      'answers',
      'uuid',
    ]) {
      expect(m[k], k).toEqual(d[k]);
    }
    expect(m.pretty_scheduled_at).toBe('Friday, February 18, 2022 08:00');
    expect(m.pretty_scheduled_at_in_invitee_timezone).toBe('Friday, February 18, 2022 at 8:00 AM');
    expect(m.invitee).toMatchObject({
      first_name: 'Aarno',
      full_name: 'Aarno Aukia',
      email: 'aarno.aukia@vshn.ch',
      timezone: 'Europe/Zurich',
      locale: 'en',
    });
  });

  it('has every field of spec 2.5 and 2.5.1 and a fresh v4 uuid', () => {
    const m = buildMeeting(base);
    expect(Object.keys(m).sort()).toEqual([...SPEC_FIELDS].sort());
    expect(m.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(buildMeeting(base).uuid).not.toBe(m.uuid);
    expect(Object.keys(m.event_type).sort()).toEqual(
      [
        'name',
        'location',
        'location_label',
        'description',
        'duration',
        'slug',
        'is_secret',
        'confirmation_page_type',
        'confirmation_page_url',
        'notification_type',
        'pass_details_to_redirected_page',
        'type',
        'position',
      ].sort(),
    );
    expect(m.state).toBe('new');
    expect(m.end_date).toBe('2026-03-17T15:00:00+00:00');
  });

  it('formats the host time in the host zone and the invitee time in the invitee zone', () => {
    const m = buildMeeting(base);
    // 14:30 UTC: Berlin is UTC+1 in March before its DST switch, New York already UTC-4.
    expect(m.pretty_scheduled_at).toBe('Tuesday, March 17, 2026 15:30');
    expect(m.pretty_scheduled_at_in_invitee_timezone).toBe('Tuesday, March 17, 2026 at 10:30 AM');
  });

  it('gets midnight, noon and the date line right', () => {
    expect(prettyHostTime('2026-01-01T00:05:00Z', 'UTC')).toBe('Thursday, January 1, 2026 00:05');
    expect(prettyInviteeTime('2026-01-01T00:05:00Z', 'UTC')).toBe(
      'Thursday, January 1, 2026 at 12:05 AM',
    );
    expect(prettyInviteeTime('2026-01-01T12:00:00Z', 'UTC')).toBe(
      'Thursday, January 1, 2026 at 12:00 PM',
    );
    expect(prettyInviteeTime('2026-01-01T03:00:00Z', 'America/Los_Angeles')).toBe(
      'Wednesday, December 31, 2025 at 7:00 PM',
    );
    expect(isoWithOffset('2026-01-01T03:00:00.789+02:00')).toBe('2026-01-01T01:00:00+00:00');
  });

  it('rejects an unknown time zone and an invalid start', () => {
    expect(() => buildMeeting({ ...base, hostTimezone: 'Mars/Olympus' })).toThrow(
      /unknown time zone "Mars\/Olympus"/,
    );
    expect(() => buildMeeting({ ...base, start: 'tomorrow' })).toThrow(/not a valid time/);
  });
});

describe('cancelMeeting and rescheduleMeeting', () => {
  it('cancels: canceled_at, pretty cancel times in both zones, cancellation, state', () => {
    const m = buildMeeting(base);
    const c = cancelMeeting(m, {
      hostTimezone: 'Europe/Berlin',
      at: '2026-03-12T09:15:00Z',
      reason: 'Conflict',
    });
    expect(c.uuid).toBe(m.uuid);
    expect(c.canceled_at).toBe('2026-03-12T09:15:00+00:00');
    expect(c.pretty_canceled_at).toBe('Thursday, March 12, 2026 10:15');
    expect(c.pretty_canceled_at_in_invitee_timezone).toBe('Thursday, March 12, 2026 at 5:15 AM');
    expect(c.cancellation).toEqual({
      canceled_by: 'invitee',
      reason: 'Conflict',
      created_at: '2026-03-12T09:15:00+00:00',
    });
    expect(c.state).toBe('canceled');
    expect(c.scheduled_at).toBe(m.scheduled_at);
    expect(m.canceled_at).toBeNull(); // the input is untouched
    expect(Object.keys(c)).toEqual(Object.keys(m));
  });

  it('reschedules: same uuid and duration, new times, rescheduling with the old ones', () => {
    const m = buildMeeting(base);
    const r = rescheduleMeeting(m, {
      hostTimezone: 'Europe/Berlin',
      newStart: '2026-03-19T16:00:00Z',
      at: '2026-03-13T08:00:00Z',
    });
    expect(r.uuid).toBe(m.uuid);
    expect(r.scheduled_at).toBe('2026-03-19T16:00:00+00:00');
    expect(r.end_date).toBe('2026-03-19T16:30:00+00:00');
    expect(r.pretty_scheduled_at).toBe('Thursday, March 19, 2026 17:00');
    expect(r.pretty_scheduled_at_in_invitee_timezone).toBe('Thursday, March 19, 2026 at 12:00 PM');
    expect(r.rescheduling).toMatchObject({
      previous_scheduled_at: m.scheduled_at,
      previous_end_date: m.end_date,
      previous_pretty_scheduled_at: m.pretty_scheduled_at,
      created_at: '2026-03-13T08:00:00+00:00',
    });
    expect(r.canceled_at).toBeNull();
    expect(m.rescheduling).toBeNull();
  });
});

describe('the edges of building, cancelling and rescheduling', () => {
  it.each([0, -15, Number.NaN])('a duration of %s minutes is refused', (duration) => {
    expect(() => buildMeeting({ ...base, duration })).toThrow(
      new RangeError(`duration must be a positive number of minutes, got ${duration}`),
    );
  });

  it('without a time, a cancellation and a rescheduling happen now', () => {
    const m = buildMeeting(base);
    const before = Date.now();
    const cancelled = cancelMeeting(m, { hostTimezone: 'Europe/Berlin' });
    const moved = rescheduleMeeting(m, { newStart: '2026-03-18T14:30:00Z', hostTimezone: 'UTC' });
    const after = Date.now();
    for (const at of [cancelled.canceled_at!, moved.rescheduling!.created_at as string]) {
      // Whole seconds: the instant is within the second of the call.
      expect(Date.parse(at)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      expect(Date.parse(at)).toBeLessThanOrEqual(after);
    }
    expect(cancelled.cancellation).toMatchObject({ canceled_by: 'invitee', reason: null });
  });

  it('a rescheduling without a new start is refused', () => {
    expect(() => rescheduleMeeting(buildMeeting(base), { hostTimezone: 'UTC' })).toThrow(
      new RangeError('new start is not a valid time: ""'),
    );
  });

  it('a meeting whose end was edited to before its start moves with no length', () => {
    const m = { ...buildMeeting(base), end_date: '2026-03-17T14:00:00+00:00' };
    const moved = rescheduleMeeting(m, {
      newStart: '2026-03-18T09:00:00Z',
      hostTimezone: 'UTC',
      at: '2026-03-01T00:00:00Z',
    });
    expect(moved.scheduled_at).toBe('2026-03-18T09:00:00+00:00');
    expect(moved.end_date).toBe('2026-03-18T09:00:00+00:00');
  });

  it('the first name is the first word of the full name, unless given', () => {
    expect(
      buildMeeting({ ...base, invitee: { ...base.invitee, name: '  Ada  King ' } }).invitee,
    ).toMatchObject({
      first_name: 'Ada',
      full_name: 'Ada  King',
    });
    expect(
      buildMeeting({ ...base, invitee: { ...base.invitee, firstName: 'Augusta' } }).invitee
        .first_name,
    ).toBe('Augusta');
  });
});
