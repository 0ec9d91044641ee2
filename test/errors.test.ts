// The small rules of src/errors.ts that every command leans on.
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  asSchedError,
  fieldsOf,
  messageOf,
  SchedError,
  signalOf,
  UsageError,
} from '../src/errors.js';

describe('messageOf: the message of anything thrown', () => {
  it.each([
    [new Error('boom'), 'boom'],
    [new UsageError('--url is not a URL'), '--url is not a URL'],
    ['a string', 'a string'],
    [42, '42'],
    [undefined, 'undefined'],
  ])('%s -> %s', (thrown, message) => {
    expect(messageOf(thrown)).toBe(message);
  });
});

describe('signalOf: the signal an abort reason stands for', () => {
  it.each([
    ['SIGTERM', 'SIGTERM'],
    ['SIGINT', 'SIGINT'],
    [undefined, 'SIGINT'],
    [new Error('aborted'), 'SIGINT'],
  ])('%s -> %s', (reason, signal) => {
    expect(signalOf(reason)).toBe(signal);
  });
});

describe('fieldsOf: what a re-worded error keeps', () => {
  it('code, status, outcome and request, not the message', () => {
    const e = new ApiError('the API answered 500', {
      status: 500,
      outcomeUnknown: true,
      code: 'http_5xx',
    });
    expect(fieldsOf(e)).toEqual({
      code: 'http_5xx',
      status: 500,
      outcomeUnknown: true,
      request: undefined,
    });
  });
});

describe('asSchedError: anything thrown, ready to re-word', () => {
  it('a SchedError is itself; anything else a failure (exit 1) with its message', () => {
    const usage = new UsageError('bad flag');
    expect(asSchedError(usage)).toBe(usage);
    const bug = asSchedError(new TypeError('x is undefined'));
    expect(bug).toBeInstanceOf(SchedError);
    expect([bug.message, bug.exitCode, bug.code, bug.details]).toEqual([
      'x is undefined',
      1,
      'failure',
      [],
    ]);
    expect(asSchedError('thrown text').message).toBe('thrown text');
  });
});
