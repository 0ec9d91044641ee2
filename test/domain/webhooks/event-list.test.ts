// The events of a repeatable --event flag (`--event a --event b`, `--event a,b`), as
// parseEventList documents them: every event when the flag is absent, the API's spelling in the
// canonical order, duplicates and empty list items dropped; an empty value refused with how to
// mean "every event"; every unknown name reported (exit 2), the first in the message.
import { describe, expect, it } from 'vitest';
import { eventNameProblem, parseEventList } from '../../../src/domain/webhooks/event-names.js';
import { SchedError } from '../../../src/errors.js';
import { EVENT_NAMES } from '../../../src/api/types.js';

const ALL = [...EVENT_NAMES];
const ALLOWED = `allowed: ${EVENT_NAMES.join(', ')}`;

function refusal(values: string[]): SchedError {
  try {
    parseEventList(values);
  } catch (e) {
    if (e instanceof SchedError) return e;
    throw e;
  }
  throw new Error(`${JSON.stringify(values)} was accepted`);
}

describe('--event values', () => {
  it.each<[string[] | undefined, string[]]>([
    [undefined, ALL],
    [[], ALL],
    [
      ['meetingRescheduled', 'meetingscheduled'],
      ['meetingScheduled', 'meetingRescheduled'],
    ],
    [['meetingCancelled,meetingScheduled'], ['meetingScheduled', 'meetingCancelled']],
    [['meetingCancelled, MEETINGCANCELLED'], ['meetingCancelled']],
    [['meetingScheduled,'], ['meetingScheduled']],
    [['meetingScheduled, '], ['meetingScheduled']],
    [[',meetingCancelled,,'], ['meetingCancelled']],
  ])('%j subscribes to %j', (values, events) => {
    expect(parseEventList(values)).toEqual(events);
  });

  it.each([[['']], [['  ']], [['meetingScheduled', ' ']]])(
    '%j is refused as empty, saying how to mean every event',
    (values) => {
      const e = refusal(values);
      expect(e.exitCode).toBe(2);
      expect(e.message).toBe(`the event name is empty; ${ALLOWED}`);
      expect(e.hint).toBe('leave --event out to subscribe to every event');
    },
  );

  it('a list of only commas names no event: every event', () => {
    expect(parseEventList([','])).toEqual(ALL);
  });

  it('every unknown name is reported: the first in the message, the others under it', () => {
    const e = refusal(['meetingBoked,meetingScheduled', 'nope', ' meetingCanceled ']);
    expect(e.exitCode).toBe(2);
    expect(e.message).toBe(eventNameProblem('meetingBoked'));
    expect(e.details).toEqual([eventNameProblem('nope'), eventNameProblem('meetingCanceled')]);
    expect(e.details[1]).toContain('"meetingCanceled" (did you mean "meetingCancelled"?)');
  });

  it('one unknown name has no lines under it', () => {
    expect(refusal(['nope']).details).toEqual([]);
  });
});

describe('the words for a name that names no event', () => {
  it('quotes the name without the white space around it', () => {
    expect(eventNameProblem('  nope \t')).toBe(`unknown event "nope"; ${ALLOWED}`);
  });

  it.each(['', '   ', '\t'])('%j is said to be empty', (raw) => {
    expect(eventNameProblem(raw)).toBe(`the event name is empty; ${ALLOWED}`);
  });
});
