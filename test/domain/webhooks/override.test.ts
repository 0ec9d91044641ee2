// --override / --override-new on their own: the path grammar, JSON-or-string values, and every
// refusal (a typo never adds a field; the fields that exist are named).
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import {
  applyOverrides,
  overridesOf,
  parseOverride,
  parsePath,
} from '../../../src/domain/webhooks/override.js';

const payload = {
  event: 'meetingScheduled',
  uuid: 'n-1',
  data: {
    invitee: { email: 'ada@example.com', first_name: 'Ada' },
    answers: [{ value: 'x' }, { value: 1 }],
  },
};
const apply = (o: { override?: string[]; overrideNew?: string[] }) =>
  applyOverrides(payload, overridesOf(o));
const refusal = (o: { override?: string[]; overrideNew?: string[] }) => {
  try {
    apply(o);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    const u = e as UsageError;
    return [u.message, u.hint];
  }
  throw new Error('not refused');
};

describe('override paths and values', () => {
  it.each([
    ['data.invitee.email', ['data', 'invitee', 'email']],
    ['data.answers[0].value', ['data', 'answers', 0, 'value']],
    ['data.answers.1', ['data', 'answers', 1]],
    ['a[0][1]', ['a', 0, 1]],
    ['', undefined],
    ['a..b', undefined],
    ['[0]', undefined],
    ['a[x]', undefined],
  ])('%s', (path, segments) => {
    expect(parsePath(path)).toEqual(segments);
  });

  it('reads the value as JSON when it parses, else as a string', () => {
    expect(parseOverride('a=42', '--override').value).toBe(42);
    expect(parseOverride('a={"b":[true,null]}', '--override').value).toEqual({ b: [true, null] });
    expect(parseOverride('a="42"', '--override').value).toBe('42');
    expect(parseOverride('a=Asia/Tokyo', '--override').value).toBe('Asia/Tokyo');
    expect(parseOverride('a=x=y', '--override').value).toBe('x=y');
    expect(parseOverride('a=', '--override').value).toBe('');
    expect(() => parseOverride('novalue', '--override')).toThrow(/expected <path>=<value>/);
  });
});

describe('applyOverrides', () => {
  it('sets fields that exist, in order, on a copy', () => {
    const out = apply({
      override: ['data.invitee.email=grace@example.com', 'data.answers[1].value=0', 'uuid=n-2'],
    }) as typeof payload;
    expect(out.data.invitee.email).toBe('grace@example.com');
    expect(out.data.answers[1]!.value).toBe(0);
    expect(out.uuid).toBe('n-2');
    expect(payload.data.invitee.email).toBe('ada@example.com');
  });

  it('--override-new adds a field, or an item at the end of an array, on purpose', () => {
    const out = apply({
      overrideNew: ['data.invitee.company=ACME', 'data.answers[2]={"value":"z"}', 'extra=true'],
    }) as Record<string, unknown> & typeof payload;
    expect(out.data.invitee).toMatchObject({ company: 'ACME' });
    expect(out.data.answers[2]).toEqual({ value: 'z' });
    expect(out.extra).toBe(true);
  });

  it.each([
    [
      { override: ['dta.invitee.email=x'] },
      '--override "dta.invitee.email=x": the payload has no field "dta" (did you mean "data"?); its fields: event, uuid, data',
      undefined,
    ],
    [
      { override: ['data.invitee.emial=x'] },
      '--override "data.invitee.emial=x": data.invitee has no field "emial" (did you mean "email"?); its fields: email, first_name',
      'to add a field on purpose, use --override-new data.invitee.emial=…',
    ],
    [
      { override: ['data.answers[5].value=x'] },
      '--override "data.answers[5].value=x": data.answers has 2 items (0 to 1)',
      undefined,
    ],
    [
      { override: ['data.answers.value=x'] },
      '--override "data.answers.value=x": data.answers is an array: give an index, e.g. [0]',
      undefined,
    ],
    [
      { override: ['event.name=x'] },
      '--override "event.name=x": event is a string, not an object',
      undefined,
    ],
    [
      { overrideNew: ['data.invitee.email=x'] },
      '--override-new "data.invitee.email=x": data.invitee.email exists already',
      'change it with --override',
    ],
    [
      { overrideNew: ['data.nope.x=1'] },
      '--override-new "data.nope.x=1": data has no field "nope"; its fields: invitee, answers',
      undefined,
    ],
    [
      { overrideNew: ['data.answers[3]=1'] },
      '--override-new "data.answers[3]=1": data.answers has 2 items (0 to 1)',
      '--override-new data.answers[3]=… adds one at the end only',
    ],
  ])('refuses %j', (o, message, hint) => {
    expect(refusal(o)).toEqual([message, hint]);
  });
});
