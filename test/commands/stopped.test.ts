// The one error shape of a job stopped part-way (src/commands/stopped.ts), as a table over
// what its callers (link create, webhooks rm, webhooks sync) hand it. Each command's own tests
// check the lines it composes; this table pins the shape they share.
import { describe, expect, it } from 'vitest';
import { partialStopError, type PartialStop } from '../../src/commands/stopped.js';
import { ApiError, AuthError, ExitCode, Interrupted, NetworkError } from '../../src/errors.js';

const base: PartialStop = {
  cause: undefined,
  aborted: false,
  signalReason: undefined,
  done: 'deleted 2 of 5 webhooks (listed on stdout)',
  details: ['3 webhooks not deleted'],
};

describe('partialStopError', () => {
  const rows: Array<[string, Partial<PartialStop>, RegExp, number, string[], string | undefined]> =
    [
      [
        'Ctrl-C: 130, what was done, no cause',
        { aborted: true, signalReason: 'SIGINT' },
        /^interrupted: deleted 2 of 5 webhooks \(listed on stdout\)$/,
        ExitCode.interrupted,
        ['3 webhooks not deleted'],
        undefined,
      ],
      [
        'SIGTERM: 143, with the hint to run again',
        { aborted: true, signalReason: 'SIGTERM', hint: 'run it again' },
        /^interrupted: deleted 2/,
        ExitCode.terminated,
        ['3 webhooks not deleted'],
        'run it again',
      ],
      [
        "a failure: the cause's exit code, its details first, its hint",
        { cause: new ApiError('boom (500)', { status: 500, details: ['d1'], hint: 'later' }) },
        /^deleted 2 of 5 webhooks \(listed on stdout\), then: boom \(500\)$/,
        ExitCode.failure,
        ['d1', '3 webhooks not deleted'],
        'later',
      ],
      [
        "the caller's hint wins over the cause's",
        { cause: new NetworkError('reset'), hint: 'run it again' },
        /then: reset$/,
        ExitCode.failure,
        ['3 webhooks not deleted'],
        'run it again',
      ],
      [
        "a rejected key: its own hint wins over the caller's",
        { cause: new AuthError('key rejected', { hint: 'sched auth login' }), hint: 'run again' },
        /then: key rejected$/,
        ExitCode.auth,
        ['3 webhooks not deleted'],
        'sched auth login',
      ],
      [
        'a worded failure line, redacted with its details',
        {
          cause: new ApiError('bad https://x/?s=SECRET', { details: ['SECRET here'] }),
          failed: (m) => `webhooks[0] failed: ${m}`,
          redact: (s) => s.replaceAll('SECRET', '****'),
        },
        /^webhooks\[0\] failed: bad https:\/\/x\/\?s=\*\*\*\*$/,
        ExitCode.failure,
        ['**** here', '3 webhooks not deleted'],
        undefined,
      ],
      [
        'anything else thrown (a bug): exit 1 with its message',
        { cause: new TypeError('x is undefined') },
        /then: x is undefined$/,
        ExitCode.failure,
        ['3 webhooks not deleted'],
        undefined,
      ],
    ];
  it.each(rows)('%s', (_name, over, message, exit, details, hint) => {
    const e = partialStopError({ ...base, ...over });
    expect(e.message).toMatch(message);
    expect(e.exitCode).toBe(exit);
    expect(e.details).toEqual(details);
    expect(e.hint).toBe(hint);
    if (over.aborted) expect(e).toBeInstanceOf(Interrupted);
  });

  it('keeps the fields of the cause (status, outcomeUnknown)', () => {
    const e = partialStopError({
      ...base,
      cause: new NetworkError('lost', { outcomeUnknown: true, status: undefined }),
    });
    expect(e.outcomeUnknown).toBe(true);
    const s = partialStopError({ ...base, cause: new ApiError('x', { status: 503 }) });
    expect(s.status).toBe(503);
  });
});
