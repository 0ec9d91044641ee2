// What a user gets for each kind of error (src/errors.ts, reported by cli.ts's reportError): the
// exit code of the contract (2 usage, 4 auth, 5 not found, 1 any other failure, 130/143
// interrupted, a quiet exit's own), the stable code scripts read from --json errors, and the
// stderr lines: "error: <message>", the details indented under it, the hint last.
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthError,
  Failure,
  Interrupted,
  NetworkError,
  NotFoundError,
  OutputFailed,
  QuietExit,
  SchedError,
  UsageError,
  whenAborted,
  type ErrorCode,
} from '../src/errors.js';
import { reportError } from '../src/cli.js';
import { createBufferIO } from './helpers/buffer-io.js';

function report(e: unknown, env: Record<string, string | undefined> = {}) {
  const io = createBufferIO({ env });
  const exit = reportError(io, e, env);
  return { exit, stderr: io.stderrText(), stdout: io.stdoutText() };
}

const AUTH_HINT = 'hint: run `sched auth login` or set SCHED_API_KEY\n';

describe('each kind of error, as reported', () => {
  it.each<[string, SchedError, number, ErrorCode, string]>([
    ['usage', new UsageError('bad --x'), 2, 'usage', 'error: bad --x\n'],
    ['auth', new AuthError('no key'), 4, 'auth', `error: no key\n${AUTH_HINT}`],
    ['not found', new NotFoundError('not found (404)'), 5, 'not_found', 'error: not found (404)\n'],
    ['bad answer', new ApiError('empty answer'), 1, 'bad_response', 'error: empty answer\n'],
    ['network', new NetworkError('refused'), 1, 'network', 'error: refused\n'],
    ['failure', new Failure('receiver said 500'), 1, 'failure', 'error: receiver said 500\n'],
    ['any other', new SchedError('odd', 1), 1, 'failure', 'error: odd\n'],
    ['Ctrl-C', new Interrupted(), 130, 'interrupted', 'error: interrupted\n'],
    [
      'SIGTERM',
      new Interrupted('stopped', { signal: 'SIGTERM' }),
      143,
      'interrupted',
      'error: stopped\n',
    ],
    [
      'SIGINT',
      new Interrupted('stopped', { signal: 'SIGINT' }),
      130,
      'interrupted',
      'error: stopped\n',
    ],
  ])('%s: exit %#', (_what, e, exit, code, stderr) => {
    expect(e.code).toBe(code);
    expect(e.outcomeUnknown).toBe(false);
    expect(report(e)).toEqual({ exit, stderr, stdout: '' });
  });

  it('details go under the message, indented, and the hint last', () => {
    const e = new UsageError('the API rejected POST /webhooks (422)', {
      details: ['url: not valid', 'events: empty'],
      hint: 'fix the file',
    });
    expect(report(e).stderr).toBe(
      'error: the API rejected POST /webhooks (422)\n  url: not valid\n  events: empty\nhint: fix the file\n',
    );
  });

  it('a code given overrides the kind’s own, and the fields are kept', () => {
    const request = { method: 'POST', url: 'https://x.test/api/webhooks' };
    const e = new ApiError('the API failed with 503', {
      code: 'http_5xx',
      status: 503,
      outcomeUnknown: true,
      request,
    });
    expect(e.code).toBe('http_5xx');
    expect(e.status).toBe(503);
    expect(e.outcomeUnknown).toBe(true);
    expect(e.request).toEqual(request);
    expect(new UsageError('x', { code: 'invalid_request' }).code).toBe('invalid_request');
    expect(new Interrupted('x', { code: 'failure' }).code).toBe('failure');
  });

  it('an auth error’s own hint replaces the default one', () => {
    expect(
      report(new AuthError('rejected', { hint: 'run `sched auth login --profile b`' })),
    ).toEqual({
      exit: 4,
      stderr: 'error: rejected\nhint: run `sched auth login --profile b`\n',
      stdout: '',
    });
  });

  it('a quiet exit prints nothing and keeps its exit code', () => {
    expect(report(new QuietExit())).toEqual({ exit: 0, stderr: '', stdout: '' });
    expect(report(new QuietExit(1))).toEqual({ exit: 1, stderr: '', stdout: '' });
    expect(new QuietExit().code).toBe('quiet');
  });

  it('stdout that failed: one line, exit 1; a reader that left a read-only command: quiet, 0', () => {
    const errno = (code: string) => Object.assign(new Error(code), { code });
    const stdout = { kind: 'stdout' } as const;
    expect(report(new OutputFailed(stdout, errno('ENOSPC')))).toEqual({
      exit: 1,
      stderr: 'error: could not write to stdout (no space left on the device, ENOSPC)\n',
      stdout: '',
    });
    expect(new OutputFailed(stdout, errno('EIO')).code).toBe('output_failed');
    expect(report(new OutputFailed(stdout, errno('EPIPE')))).toEqual({
      exit: 0,
      stderr: '',
      stdout: '',
    });
    const file = { kind: 'file', flag: '--record', path: '/tmp/x.ndjson' } as const;
    expect(report(new OutputFailed(file, errno('EIO'))).stderr).toBe(
      'error: could not write to --record "/tmp/x.ndjson" (an input/output error, EIO)\n',
    );
  });

  it('a reader that left after the account changed: never quiet, what was done said, exit 1', () => {
    const left = new OutputFailed(
      { kind: 'stdout' },
      Object.assign(new Error('x'), { code: 'EPIPE' }),
    );
    const e = left.afterChange('webhook w1 was deleted', ['a detail']);
    expect(e).toMatchObject({ readerLeft: true, changed: true, quiet: false, errno: 'EPIPE' });
    expect(report(e)).toEqual({
      exit: 1,
      stderr:
        'error: could not write to stdout (the reader closed it, EPIPE): webhook w1 was deleted\n  a detail\n',
      stdout: '',
    });
  });

  it('anything else thrown (a bug): exit 1, its message, and how to get details', () => {
    expect(report(new Error('boom'))).toEqual({
      exit: 1,
      stderr:
        'error: unexpected failure: boom\nhint: set SCHED_DEBUG=1 for details, and please report this bug\n',
      stdout: '',
    });
  });
});

describe('whenAborted', () => {
  it('resolves once the signal aborts, and at once when it already has', async () => {
    const ac = new AbortController();
    let done = false;
    const p = whenAborted(ac.signal).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(done).toBe(false);
    ac.abort();
    await p;
    expect(done).toBe(true);
    await whenAborted(AbortSignal.abort());
  });
});
