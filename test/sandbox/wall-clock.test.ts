// The sandbox's one reading of a wall clock in a time zone (src/sandbox/meetings.ts: wallClock),
// and what is built on it: local time to UTC across a DST change, the booking form's default
// (tomorrow at 10:00 on the invitee's clock) and the value its datetime-local input shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultStart, wallClock, zonedTimeToUtc } from '../../src/sandbox/meetings.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

describe('wallClock', () => {
  it.each([
    ['2026-03-29T00:30:45Z', 'Europe/Berlin', [2026, 3, 29, 1, 30, 45]],
    ['2026-03-29T01:30:00Z', 'Europe/Berlin', [2026, 3, 29, 3, 30, 0]],
    ['2026-01-01T00:00:00Z', 'UTC', [2026, 1, 1, 0, 0, 0]],
    ['2026-01-01T03:59:59Z', 'America/New_York', [2025, 12, 31, 22, 59, 59]],
    ['2026-06-30T14:15:00Z', 'Asia/Kolkata', [2026, 6, 30, 19, 45, 0]],
  ] as const)('%s in %s', (iso, zone, [year, month, day, hour, minute, second]) => {
    expect(wallClock(new Date(iso), zone)).toEqual({ year, month, day, hour, minute, second });
  });
});

describe('built on it', () => {
  it('local time to UTC on either side of a DST change', () => {
    const at = (day: number) =>
      zonedTimeToUtc({ year: 2026, month: 3, day, hour: 10, minute: 0 }, 'Europe/Berlin');
    expect(at(28).toISOString()).toBe('2026-03-28T09:00:00.000Z');
    expect(at(29).toISOString()).toBe('2026-03-29T08:00:00.000Z');
  });

  it('the default start: tomorrow at 10:00 on the invitee clock, its own calendar day', () => {
    const now = new Date('2026-12-31T23:30:00Z');
    expect(defaultStart(now, 'America/New_York').toISOString()).toBe('2027-01-01T15:00:00.000Z');
    expect(defaultStart(now, 'Asia/Tokyo').toISOString()).toBe('2027-01-02T01:00:00.000Z');
    expect(defaultStart(now, 'UTC').toISOString()).toBe('2027-01-01T10:00:00.000Z');
  });
});

describe('the booking form', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(() => sb.close());

  it('its time input shows the default start as the invitee clock reads it', async () => {
    const made = await sb.mintLink();
    const html = await (await fetch(made.url)).text();
    const value = /<input id="at"[^>]* value="([^"]*)"/.exec(html)?.[1];
    const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10);
    // The default invitee's zone is UTC: tomorrow's date (or the day after, at midnight).
    expect(value).toMatch(/^\d{4}-\d{2}-\d{2}T10:00$/);
    expect([tomorrow, new Date(Date.now() + 48 * 3600_000).toISOString().slice(0, 10)]).toContain(
      value!.slice(0, 10),
    );
  });
});
