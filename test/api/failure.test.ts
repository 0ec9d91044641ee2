// classify: every shape of transport error the HTTP stack throws, to what the user is told
// (the kind picks the words and the hint) and whether a retry may resend safely (notSent).
import { describe, expect, it } from 'vitest';
import { classify } from '../../src/api/failure.js';

const err = (props: Record<string, unknown>, message = 'boom') =>
  Object.assign(new Error(message), props);

describe('classify', () => {
  it.each([
    ['a string thrown', 'weird', 'connect', { kind: 'other', code: 'ERROR', detail: 'weird' }],
    ['null thrown', null, 'connect', { kind: 'other', code: 'ERROR', detail: 'null' }],
    ['an error without a code', new Error('x'), 'connect', { kind: 'other', code: 'ERROR' }],
    ['refused', err({ code: 'ECONNREFUSED' }), 'connect', { kind: 'refused', notSent: true }],
    [
      'refused inside an AggregateError (happy eyeballs)',
      Object.assign(new AggregateError([err({ code: 'ECONNREFUSED' })]), {}),
      'connect',
      { kind: 'refused', code: 'ECONNREFUSED', notSent: true },
    ],
    [
      'undici socket error wrapping a reset',
      err({ code: 'UND_ERR_SOCKET', cause: err({ code: 'ECONNRESET' }) }),
      'connect',
      { kind: 'reset', code: 'ECONNRESET', notSent: false },
    ],
    [
      'undici socket error with no cause',
      err({ code: 'UND_ERR_SOCKET' }),
      'connect',
      { kind: 'reset', code: 'ECONNRESET' },
    ],
    [
      'undici socket error cut while reading the body',
      err({ code: 'UND_ERR_SOCKET' }),
      'body',
      { kind: 'cut-off', code: 'ECONNRESET', notSent: false },
    ],
    [
      'an aggregate and a cause that name nothing',
      err({ errors: [new Error('a')], cause: new Error('b') }),
      'connect',
      { kind: 'other', code: 'ERROR' },
    ],
    ['dns', err({ code: 'ENOTFOUND' }), 'connect', { kind: 'dns', notSent: true }],
    ['dns, temporary', err({ code: 'EAI_AGAIN' }), 'connect', { kind: 'dns-temporary' }],
    [
      'connect timeout',
      err({ code: 'UND_ERR_CONNECT_TIMEOUT' }),
      'connect',
      { kind: 'connect-timeout', notSent: true },
    ],
    ['headers timeout', err({ code: 'UND_ERR_HEADERS_TIMEOUT' }), 'connect', { kind: 'timeout' }],
    ['closed', err({ code: 'UND_ERR_CLOSED' }), 'connect', { kind: 'closed', notSent: false }],
    [
      'TLS',
      err({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, 'self-signed certificate'),
      'connect',
      { kind: 'tls', notSent: true, detail: 'self-signed certificate' },
    ],
    [
      'a CONNECT the proxy refused',
      err({ code: 'UND_ERR_ABORTED' }, 'Proxy response (407) !== 200 when HTTP Tunneling'),
      'connect',
      { kind: 'proxy', notSent: true },
    ],
    [
      'an abort that is not the proxy',
      err({ code: 'UND_ERR_ABORTED' }),
      'connect',
      { kind: 'other' },
    ],
    ['TLS to the proxy', err({ code: 'UND_ERR_PRX_TLS' }), 'connect', { kind: 'proxy' }],
    [
      'content-length mismatch',
      err({ code: 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' }),
      'connect',
      { kind: 'cut-off', code: 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' },
    ],
    ['EPIPE', err({ code: 'EPIPE' }), 'connect', { kind: 'reset', code: 'EPIPE' }],
  ] as const)('%s', (_, e, phase, want) => {
    expect(classify(e, phase)).toMatchObject(want);
  });
});
