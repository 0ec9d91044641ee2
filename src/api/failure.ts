// Why an HTTP attempt got no usable answer, read from whatever undici or the socket threw.
// Pure: the exchange classifies, the retry decision and the error wording read the result.

import { messageOf } from '../errors.js';
export type FailureKind =
  | 'refused'
  | 'dns'
  | 'dns-temporary'
  | 'timeout'
  | 'connect-timeout'
  | 'reset'
  | 'unreachable'
  | 'cut-off'
  | 'tls'
  | 'plain-http'
  | 'proxy'
  | 'too-large'
  | 'closed'
  | 'other';

export interface TransportFailure {
  kind: FailureKind;
  code: string;
  /** True when no byte of the request can have reached the server. */
  notSent: boolean;
  detail: string;
}

/**
 * OpenSSL's words for a TLS hello answered by plain HTTP ("wrong version number"; "packet
 * length too long" on some builds): an https:// URL for a server that speaks http://.
 */
const PLAIN_HTTP_CODES = /^ERR_SSL_(WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG)$/;
const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO|ERR_TLS|ERR_SSL|EPROTO|HOSTNAME_MISMATCH|ALTNAME/;

function errorCode(e: unknown): string | undefined {
  if (!e || typeof e !== 'object') return undefined;
  const o = e as { code?: unknown; errors?: unknown; cause?: unknown };
  if (typeof o.code === 'string' && o.code !== 'UND_ERR_SOCKET' && o.code !== 'UND_ERR')
    return o.code;
  // Happy-eyeballs connects fail with an AggregateError; undici wraps socket errors in `cause`.
  if (Array.isArray(o.errors) && o.errors.length > 0) {
    const inner = errorCode(o.errors[0]);
    if (inner) return inner;
  }
  if (o.cause) {
    const inner = errorCode(o.cause);
    if (inner) return inner;
  }
  return typeof o.code === 'string' ? o.code : undefined;
}

/** `phase`: whether the error came while sending and waiting for headers, or reading the body. */
export function classify(e: unknown, phase: 'connect' | 'body'): TransportFailure {
  const code = errorCode(e) ?? 'ERROR';
  const msg = messageOf(e);
  if (code === 'ECONNREFUSED')
    return { kind: 'refused', code, notSent: true, detail: 'connection refused' };
  if (code === 'ENOTFOUND')
    return { kind: 'dns', code, notSent: true, detail: 'DNS lookup failed' };
  if (code === 'EAI_AGAIN')
    return { kind: 'dns-temporary', code, notSent: true, detail: 'temporary DNS failure' };
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return { kind: 'unreachable', code, notSent: false, detail: 'the host is unreachable' };
  if (code === 'UND_ERR_CONNECT_TIMEOUT')
    return { kind: 'connect-timeout', code, notSent: true, detail: 'connect timed out' };
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return { kind: 'timeout', code, notSent: false, detail: 'timed out' };
  if (code === 'UND_ERR_DESTROYED' || code === 'UND_ERR_CLOSED')
    return {
      kind: 'closed',
      code,
      notSent: false,
      detail: 'the request was cut off: the command is ending',
    };
  if (PLAIN_HTTP_CODES.test(code))
    return { kind: 'plain-http', code, notSent: true, detail: 'the server speaks plain HTTP' };
  if (TLS_CODES.test(code)) return { kind: 'tls', code, notSent: true, detail: msg };
  // undici gives a failed CONNECT no code of its own: its message is all there is to go on.
  if (code === 'UND_ERR_ABORTED' && /proxy/i.test(msg))
    return { kind: 'proxy', code, notSent: true, detail: msg };
  if (code === 'UND_ERR_PRX_TLS') return { kind: 'proxy', code, notSent: true, detail: msg };
  if (phase === 'body' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH')
    return {
      kind: 'cut-off',
      code: code === 'UND_ERR_SOCKET' ? 'ECONNRESET' : code,
      notSent: false,
      detail: 'the connection closed before the whole answer arrived',
    };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET')
    return {
      kind: 'reset',
      code: code === 'UND_ERR_SOCKET' ? 'ECONNRESET' : code,
      notSent: false,
      detail: 'connection reset',
    };
  return { kind: 'other', code, notSent: false, detail: msg };
}

/** The attempt ran out of --timeout (our own timer, not undici's). */
export const TIMED_OUT: TransportFailure = {
  kind: 'timeout',
  code: 'ETIMEDOUT',
  notSent: false,
  detail: 'timed out',
};

export function tooLarge(detail: string): TransportFailure {
  return { kind: 'too-large', code: 'ETOOLARGE', notSent: false, detail };
}
