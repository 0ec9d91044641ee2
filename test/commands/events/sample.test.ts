import { describe, expect, it } from 'vitest';
import { runSched } from '../../helpers/run.js';
import { EVENT_NAMES, type DeliveryPayload } from '../../../src/api/types.js';

const SPEC_FIELDS = [
  'answers',
  'canceled_at',
  'cancellation',
  'details',
  'end_date',
  'event_type',
  'invitee',
  'location',
  'notes',
  'payment',
  'pretty_canceled_at',
  'pretty_canceled_at_in_invitee_timezone',
  'pretty_scheduled_at',
  'pretty_scheduled_at_in_invitee_timezone',
  'rescheduling',
  'scheduled_at',
  'state',
  'uuid',
];
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;

async function sample(event: string, opts: { tty?: boolean; argv?: string[] } = {}) {
  const r = await runSched([...(opts.argv ?? []), 'events', 'sample', event], {
    stdoutIsTTY: opts.tty ?? false,
  });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  return { text: r.stdout, payload: JSON.parse(r.stdout) as DeliveryPayload };
}

describe('sched events sample', () => {
  it('prints a compact one-line scheduled delivery with every spec field when piped', async () => {
    const { text, payload } = await sample('meetingScheduled');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.trimEnd()).not.toContain('\n');
    expect(Object.keys(payload)).toEqual(['event', 'uuid', 'data']);
    expect(payload.event).toBe('meetingScheduled');
    expect(payload.uuid).toMatch(UUID_V4);
    const m = payload.data;
    expect(Object.keys(m).sort()).toEqual(SPEC_FIELDS);
    expect(m.state).toBe('new');
    expect(m.scheduled_at).toMatch(ISO);
    expect(m.end_date).toMatch(ISO);
    expect(Date.parse(m.end_date) - Date.parse(m.scheduled_at)).toBe(
      m.event_type.duration * 60_000,
    );
    expect(m.pretty_scheduled_at).toBe('Tuesday, March 17, 2026 15:30');
    expect(m.pretty_scheduled_at_in_invitee_timezone).toBe('Tuesday, March 17, 2026 at 10:30 AM');
    expect(m.invitee).toMatchObject({ timezone: 'America/New_York', locale: 'en' });
    expect(m.invitee.email).toMatch(/@/);
    expect(m.canceled_at).toBeNull();
    expect(m.cancellation).toBeNull();
    expect(m.rescheduling).toBeNull();
    const types = m.answers.map((a) => [a.question_type, typeof a.value]);
    expect(types).toEqual([
      ['textarea', 'string'],
      ['checkbox', 'number'],
    ]);
  });

  it('gives the cancelled meeting its cancellation fields', async () => {
    const { payload } = await sample('meetingCancelled');
    const m = payload.data;
    expect(payload.event).toBe('meetingCancelled');
    expect(m.canceled_at).toMatch(ISO);
    expect(m.pretty_canceled_at).toBe('Thursday, March 12, 2026 10:15');
    expect(m.pretty_canceled_at_in_invitee_timezone).toBe('Thursday, March 12, 2026 at 5:15 AM');
    expect(m.cancellation).toMatchObject({ canceled_by: 'invitee', created_at: m.canceled_at });
    // A receiver that shows the reason is tested with a real one, never an empty string.
    expect(m.cancellation?.reason).toBe('Something came up, sorry!');
    expect(m.state).not.toBe('new');
    expect(m.rescheduling).toBeNull();
  });

  it('gives the rescheduled meeting new times and a rescheduling object', async () => {
    const scheduled = (await sample('meetingScheduled')).payload.data;
    const { payload } = await sample('meetingRescheduled');
    const m = payload.data;
    expect(m.uuid).toBe(scheduled.uuid);
    expect(m.scheduled_at).not.toBe(scheduled.scheduled_at);
    expect(m.pretty_scheduled_at).toBe('Thursday, March 19, 2026 17:00');
    expect(m.rescheduling).toMatchObject({
      previous_scheduled_at: scheduled.scheduled_at,
      reason: 'Could we do Thursday instead?',
    });
    expect(m.canceled_at).toBeNull();
  });

  it('keeps the meeting fixed but gives every run a fresh notification uuid', async () => {
    const a = await sample('meetingScheduled');
    const b = await sample('meetingScheduled');
    expect(a.payload.uuid).not.toBe(b.payload.uuid);
    expect(a.payload.data).toEqual(b.payload.data);
  });

  it('pretty-prints on a terminal, and --json / -o json print the same JSON', async () => {
    const pretty = await sample('meetingCancelled', { tty: true });
    expect(pretty.text).toMatch(/^\{\n {2}"event": "meetingCancelled",\n/);
    for (const argv of [['--json'], ['-o', 'json']]) {
      const r = await sample('meetingCancelled', { argv });
      expect(r.payload.data).toEqual(pretty.payload.data);
    }
  });

  it('rejects an unknown event with exit 2 listing the three names', async () => {
    const r = await runSched(['events', 'sample', 'meetingBooked']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unknown event "meetingBooked"');
    for (const n of EVENT_NAMES) {
      expect(r.stderr).toContain(n);
    }
    // Event names forgive case, as `webhooks add --event` always did (one rule for every caller).
    const near = await runSched(['events', 'sample', 'meetingCanceled']);
    expect(near.code).toBe(2);
    expect(near.stderr).toMatch(/did you mean "meetingCancelled"/);
    const cased = await runSched(['events', 'sample', 'meetingcancelled']);
    expect(cased.code).toBe(0);
    expect(JSON.parse(cased.stdout)).toMatchObject({ event: 'meetingCancelled' });
  });
});
