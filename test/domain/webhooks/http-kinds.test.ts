// postRaw's result for each thing the exchange can report, the exchange stubbed: which kind a
// caller branches on (`events send` exit codes, `listen --forward-to`'s line) and the words
// it prints. The real exchange behind it: test/domain/webhooks/http.test.ts.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReceiverResult } from '../../../src/api/exchange.js';
import type { FailureKind } from '../../../src/api/failure.js';

const next: { result?: ReceiverResult } = {};
vi.mock('../../../src/api/exchange.js', () => ({
  sendToReceiver: vi.fn(() => Promise.resolve(next.result)),
}));
const { postRaw } = await import('../../../src/domain/webhooks/http.js');
const { sendToReceiver } = await import('../../../src/api/exchange.js');

const input = {
  url: new URL('http://127.0.0.1:9/hook'),
  body: Buffer.from('{}'),
  headers: {},
  timeoutMs: 1_500,
};

beforeEach(() => {
  vi.mocked(sendToReceiver).mockClear();
});

describe('postRaw', () => {
  it('an answer: every field of it, and the input handed on as it is', async () => {
    const body = Buffer.from('fine');
    next.result = {
      kind: 'answer',
      status: 299,
      statusText: 'Odd',
      headers: { 'x-a': '1' },
      body,
      ms: 12,
    };
    expect(await postRaw(input)).toEqual({
      ok: true,
      status: 299,
      statusText: 'Odd',
      ms: 12,
      headers: { 'x-a': '1' },
      body,
    });
    expect(vi.mocked(sendToReceiver)).toHaveBeenCalledWith(input);
  });

  it('aborted: "interrupted", with its duration', async () => {
    next.result = { kind: 'aborted', ms: 7 };
    expect(await postRaw(input)).toEqual({
      ok: false,
      kind: 'aborted',
      message: 'interrupted',
      ms: 7,
    });
  });

  it.each<[FailureKind, boolean, string, string]>([
    ['refused', false, 'refused', 'connection refused (is the receiver running?)'],
    [
      'refused',
      true,
      'refused',
      'connection refused (through the proxy: check HTTPS_PROXY / HTTP_PROXY / ALL_PROXY / NO_PROXY)',
    ],
    ['timeout', false, 'timeout', 'no answer within 1.5 s'],
    ['connect-timeout', false, 'timeout', 'no answer within 1.5 s'],
    ['reset', false, 'network', 'the connection was reset before an answer'],
    ['dns', false, 'network', 'the host name does not resolve (ENOTFOUND)'],
  ])('a %s failure (proxied: %s) is %s: %s', async (failureKind, proxied, kind, message) => {
    const code = failureKind === 'dns' ? 'ENOTFOUND' : 'EX';
    next.result = {
      kind: 'failed',
      failure: { kind: failureKind, code, notSent: true, detail: 'd' },
      ms: 3,
      proxied,
    };
    expect(await postRaw(input)).toEqual({ ok: false, kind, message, ms: 3 });
  });
});
