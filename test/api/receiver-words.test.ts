// How a webhook receiver's silence is worded (`events send`, `events replay`, `listen
// --forward-to`): the socket failure as classify names it for API calls too, then a few words.
import { describe, expect, it } from 'vitest';
import { classify } from '../../src/api/failure.js';
import { receiverFailure } from '../../src/api/wording.js';

const networkMessage = (e: unknown) => receiverFailure(classify(e, 'connect'), 30_000);

describe('receiverFailure', () => {
  const err = (code: string | undefined, message = 'boom') =>
    Object.assign(new Error(message), code === undefined ? {} : { code });
  it.each([
    ['ECONNREFUSED', 'connection refused (is the receiver running?)'],
    ['ECONNRESET', 'the connection was reset before an answer'],
    ['ENOTFOUND', 'the host name does not resolve (ENOTFOUND)'],
    ['EAI_AGAIN', 'the host name does not resolve (EAI_AGAIN)'],
    ['EHOSTUNREACH', 'the host is unreachable'],
    ['ENETUNREACH', 'the host is unreachable'],
    ['EPROTO', 'boom (EPROTO)'],
    [undefined, 'boom'],
  ])('%s: %s', (code, message) => {
    expect(networkMessage(err(code))).toBe(message);
  });

  it('a timeout names the limit; a refusal through a proxy names the proxy variables', () => {
    expect(receiverFailure(classify(err('UND_ERR_HEADERS_TIMEOUT'), 'connect'), 1500)).toBe(
      'no answer within 1.5 s',
    );
    expect(receiverFailure(classify(err('ECONNREFUSED'), 'connect'), 1500, true)).toBe(
      'connection refused (through the proxy: check HTTPS_PROXY / HTTP_PROXY / ALL_PROXY / NO_PROXY)',
    );
  });
});
