// Rules for request headers a user adds (`sched api -H 'Name: value'`): which ones carry a
// secret (their values are never shown, and never follow a redirect to another host), and
// which ones cannot be set by hand. Pure.

/** Header names whose value is a credential, whatever the service. */
const SECRET_NAMES = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
  'x-auth-token',
]);
/** Words in a header name that say its value is a credential (`X-Session-Id`, `X-Csrf-Token`). */
const SECRET_WORDS = /key|token|secret|auth|passw|session|signature|credential|cookie/i;

/** Whether a header's value must be masked wherever it could be shown (--verbose, errors). */
export function isSecretHeader(name: string): boolean {
  const n = name.trim().toLowerCase();
  return SECRET_NAMES.has(n) || SECRET_WORDS.test(n);
}

/**
 * Headers a user cannot set, and why: the key comes from the profile (so it is masked and
 * never sent to another host), and the ones that frame the connection are the client's.
 */
export function reservedHeader(name: string): string | undefined {
  const n = name.trim().toLowerCase();
  if (n === 'x-api-key') {
    return 'X-API-KEY is set from the profile (sched auth login) or SCHED_API_KEY, never with -H';
  }
  if (n === 'host') return 'Host comes from the base URL; use --base-url to talk to another host';
  if (FRAMING.has(n)) return `${name.trim()} is set by the HTTP client from the body it sends`;
  return undefined;
}

const FRAMING = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'upgrade',
  'te',
  'trailer',
  'expect',
]);

/** A header name as HTTP allows it (RFC 9110 token). */
export function isHeaderName(name: string): boolean {
  return /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name);
}
