// The error wording as tables: what each outcome a request can end with becomes — class, exit
// code, the fields code reads (code, status, outcomeUnknown, request), message and hint.
import { describe, expect, it } from 'vitest';
import {
  failureError,
  interruptedError,
  parseBody,
  redirectError,
  statusError,
  type Answer,
  type WordedRequest,
} from '../../src/api/wording.js';
import { classify, TIMED_OUT, type TransportFailure } from '../../src/api/failure.js';
import { SchedError } from '../../src/errors.js';

const GET: WordedRequest = { method: 'GET', path: '/webhooks' };
const POST: WordedRequest = { method: 'POST', path: '/single-use-link' };
const url = new URL('https://user:pw@api.example.test/api/webhooks?page=2');
const shownUrl = 'https://api.example.test/api/webhooks?page=2';
const NOW = Date.parse('2026-01-01T10:00:00Z');

function answer(status: number, body = '', headers: Record<string, string> = {}): Answer {
  return { status, headers, body: Buffer.from(body), url, crossOrigin: false };
}

function fields(e: unknown) {
  if (!(e instanceof SchedError)) throw new Error('not a SchedError');
  return {
    name: e.name,
    exitCode: e.exitCode,
    code: e.code,
    status: e.status,
    outcomeUnknown: e.outcomeUnknown,
    message: e.message,
    hint: e.hint,
    details: e.details,
  };
}

const mask = (s: string) => s.split('sk_secret').join('****');

describe('statusError', () => {
  const time = new Date(NOW + 60_000).toLocaleTimeString('en-GB', { hour12: false });
  const rows: Array<[string, Answer, number | undefined, Partial<ReturnType<typeof fields>>]> = [
    [
      '401',
      answer(401, '{"message":"bad key sk_secret"}'),
      undefined,
      {
        name: 'AuthError',
        exitCode: 4,
        code: 'auth',
        status: 401,
        message:
          'the API rejected the key (401) for GET https://api.example.test/api/webhooks?page=2: bad key ****',
        hint: 'run `sched auth login` or set SCHED_API_KEY',
      },
    ],
    [
      '403 after a redirect to another host',
      { ...answer(403), url: new URL('https://other.test/x'), crossOrigin: true },
      undefined,
      {
        name: 'AuthError',
        code: 'auth',
        status: 403,
        message:
          'the API redirected GET /webhooks to https://other.test, which answered 403; the key is never sent to another host',
      },
    ],
    [
      '404',
      answer(404, '{"error":"no such webhook"}'),
      undefined,
      {
        name: 'NotFoundError',
        exitCode: 5,
        code: 'not_found',
        status: 404,
        message:
          'not found (404): GET https://api.example.test/api/webhooks?page=2: no such webhook',
        hint: undefined,
      },
    ],
    [
      '422 with field errors',
      answer(422, '{"message":"Validation Failed","errors":{"url":["is not valid sk_secret"]}}'),
      undefined,
      {
        name: 'UsageError',
        exitCode: 2,
        code: 'invalid_request',
        status: 422,
        message:
          'the API rejected GET https://api.example.test/api/webhooks?page=2 (422): Validation Failed',
        details: ['url: is not valid ****'],
      },
    ],
    [
      '400 with an HTML page',
      answer(400, '<html><title>Bad\nRequest</title></html>', { 'content-type': 'text/html' }),
      undefined,
      {
        name: 'UsageError',
        code: 'invalid_request',
        status: 400,
        message:
          'the API rejected GET https://api.example.test/api/webhooks?page=2 (400): Bad Request',
        details: [],
      },
    ],
    [
      '429 without Retry-After',
      answer(429),
      undefined,
      {
        name: 'ApiError',
        exitCode: 1,
        code: 'rate_limited',
        status: 429,
        message:
          'rate limited by api.example.test (429) on GET https://api.example.test/api/webhooks?page=2 (after 4 attempts)',
        hint: 'wait a little and try again',
      },
    ],
    [
      '429 asking for longer than the cap',
      answer(429),
      60_000,
      {
        code: 'rate_limited',
        message: `rate limited by api.example.test (429) on GET https://api.example.test/api/webhooks?page=2; the service asks to wait 60 s (until ${time}) (after 4 attempts)`,
        hint: `try again after ${time}`,
      },
    ],
    [
      '503',
      answer(503, 'down for maintenance'),
      undefined,
      {
        name: 'ApiError',
        code: 'http_5xx',
        status: 503,
        message:
          'the API failed with 503 Service Unavailable on GET https://api.example.test/api/webhooks?page=2: down for maintenance (after 4 attempts)',
        hint: 'this is a problem on the service side; try again later',
      },
    ],
    [
      '409',
      answer(409, '{"detail":"already exists"}'),
      undefined,
      {
        name: 'ApiError',
        code: 'http_4xx',
        status: 409,
        message:
          'the API answered 409 Conflict to GET https://api.example.test/api/webhooks?page=2: already exists',
      },
    ],
    [
      '300 without a Location',
      answer(300),
      undefined,
      {
        code: 'redirect',
        message:
          'the API answered 300 Multiple Choices to GET https://api.example.test/api/webhooks?page=2',
      },
    ],
  ];
  it.each(rows)('%s', (_, ans, tooLongMs, want) => {
    const e = statusError(GET, ans, { attempts: 4, tooLongMs, mask, now: NOW });
    expect(fields(e)).toMatchObject({ outcomeUnknown: false, ...want });
    expect((e as SchedError).request).toEqual({
      method: 'GET',
      url: ans.url.href.replace('user:pw@', ''),
    });
  });
});

describe('statusError: a wait too long for a clock', () => {
  it.each([
    [2 * 24 * 3600 * 1000, '2026-01-03 10:00 UTC'],
    [1e23, 'more than a year from now'],
    [Number.MAX_VALUE, 'more than a year from now'],
  ])('%d ms: the hint names %s, never "Invalid Date"', (waitMs, when) => {
    const e = statusError(GET, answer(429), { attempts: 4, tooLongMs: waitMs, mask, now: NOW });
    expect((e as SchedError).hint).toBe(`try again after ${when}`);
    expect((e as SchedError).message).not.toContain('Invalid Date');
  });
});

describe('statusError: the base URL, the key source and server punctuation', () => {
  const at = (base: string) => new URL(`${base}/users/me/meeting-types?limit=1`);
  const notFound = (base: string): Answer => ({ ...answer(404), url: at(base) });
  it.each([
    ['http://127.0.0.1:4010', true],
    ['http://127.0.0.1:4010/', true],
    ['https://example.test/v2', true],
    ['http://127.0.0.1:4010/api', false],
    ['https://secure.simplymeet.me/api/', false],
  ])('404 under %s: /api hint %s', (base, hinted) => {
    const e = statusError(GET, notFound(base.replace(/\/$/, '')), {
      attempts: 1,
      mask,
      now: NOW,
      baseUrl: base,
    });
    expect(fields(e).message).toBe(
      `not found (404): GET ${base.replace(/\/$/, '')}/users/me/meeting-types?limit=1`,
    );
    if (hinted) expect(fields(e).hint).toMatch(/does not end in \/api/);
    else expect(fields(e).hint).toBeUndefined();
  });

  it('a 401 carries the hint the caller gives (where the key came from)', () => {
    const hint = 'SCHED_API_KEY is set in the environment and overrides profile "local": unset it';
    const e = statusError(GET, answer(401), { attempts: 1, mask, now: NOW, authHint: hint });
    expect(fields(e)).toMatchObject({ code: 'auth', hint });
  });

  it.each([
    [
      401,
      '{"message":"Invalid API key."}',
      `the API rejected the key (401) for GET ${shownUrl}: Invalid API key`,
    ],
    [404, '{"message":"Not found;"}', `not found (404): GET ${shownUrl}: Not found`],
    [
      500,
      '{"message":"Server down."}',
      `the API failed with 500 Internal Server Error on GET ${shownUrl}: Server down (after 2 attempts)`,
    ],
  ])('a server sentence joined in (%s) keeps no stray punctuation', (status, body, message) => {
    const e = statusError(GET, answer(status, body), { attempts: 2, mask, now: NOW });
    expect(fields(e).message).toBe(message);
  });
});

describe('failureError', () => {
  const c = { attempts: 1, timeoutMs: 30_000, maxBodyBytes: 50 * 1024 * 1024, proxied: false };
  const f = (kind: TransportFailure['kind'], code: string, notSent: boolean, detail = 'x') => ({
    kind,
    code,
    notSent,
    detail,
  });
  const NET = 'check the base URL (--base-url, SCHED_BASE_URL or the profile) and your network';
  const rows: Array<
    [
      string,
      WordedRequest,
      TransportFailure,
      Partial<ReturnType<typeof fields>>,
      Partial<typeof c>?,
    ]
  > = [
    [
      'GET timeout',
      GET,
      TIMED_OUT,
      {
        name: 'NetworkError',
        code: 'timeout',
        message: 'no answer from api.example.test within 30 s (--timeout) (after 2 attempts)',
        hint: 'raise --timeout, or check that the service is reachable',
      },
      { attempts: 2 },
    ],
    [
      'POST timeout: outcome unknown',
      POST,
      TIMED_OUT,
      {
        name: 'NetworkError',
        code: 'timeout',
        outcomeUnknown: true,
        message:
          'no answer from api.example.test within 30 s after the request was sent: the outcome of POST https://api.example.test/api/webhooks?page=2 is unknown (not retried, to avoid a duplicate)',
        hint: 'check whether it was created before trying again',
      },
    ],
    [
      'POST reset: outcome unknown',
      POST,
      f('reset', 'ECONNRESET', false),
      {
        code: 'network',
        outcomeUnknown: true,
        message:
          'the connection to api.example.test failed (ECONNRESET) after the request was sent: the outcome of POST https://api.example.test/api/webhooks?page=2 is unknown (not retried, to avoid a duplicate)',
      },
    ],
    [
      'POST cut off: outcome unknown, with the caller’s hint',
      { ...POST, unknownOutcomeHint: 'run `sched webhooks ls`' },
      f('cut-off', 'ECONNRESET', false),
      {
        outcomeUnknown: true,
        message:
          'the answer from api.example.test was cut off after the request was sent: the outcome of POST https://api.example.test/api/webhooks?page=2 is unknown (not retried, to avoid a duplicate)',
        hint: 'run `sched webhooks ls`',
      },
    ],
    [
      'POST refused: nothing was sent, the outcome is known',
      POST,
      f('refused', 'ECONNREFUSED', true),
      {
        code: 'network',
        outcomeUnknown: false,
        message: 'cannot connect to api.example.test: connection refused (after 4 attempts)',
        hint: NET,
      },
      { attempts: 4 },
    ],
    [
      'refused through a proxy',
      GET,
      f('refused', 'ECONNREFUSED', true),
      {
        message: 'cannot connect to api.example.test (through the proxy): connection refused',
        hint: 'check HTTPS_PROXY / HTTP_PROXY / ALL_PROXY / NO_PROXY, then the base URL',
      },
      { proxied: true },
    ],
    [
      'GET cut off',
      GET,
      f('cut-off', 'ECONNRESET', false, 'the connection closed before the whole answer arrived'),
      {
        name: 'ApiError',
        code: 'network',
        message:
          'the answer to GET https://api.example.test/api/webhooks?page=2 was cut off: the connection closed before the whole answer arrived',
      },
    ],
    [
      'too large',
      GET,
      f('too-large', 'ETOOLARGE', false),
      {
        name: 'ApiError',
        code: 'bad_response',
        message:
          'the answer to GET https://api.example.test/api/webhooks?page=2 is larger than 50 MB; refusing to read it',
      },
    ],
    [
      'DNS',
      GET,
      f('dns', 'ENOTFOUND', true),
      { message: 'cannot resolve host api.example.test (DNS lookup failed)', hint: NET },
    ],
    [
      'TLS',
      GET,
      f('tls', 'SELF_SIGNED_CERT_IN_CHAIN', true, 'self-signed certificate in certificate chain'),
      {
        message:
          'TLS error talking to api.example.test: self-signed certificate in certificate chain (SELF_SIGNED_CERT_IN_CHAIN)',
        hint: 'for a private CA, point NODE_EXTRA_CA_CERTS at its PEM file',
      },
    ],
    [
      'closed',
      GET,
      f('closed', 'UND_ERR_DESTROYED', false),
      { message: 'GET /webhooks was cut off: the command is ending', hint: undefined },
    ],
  ];
  it.each(rows)('%s', (_, req, failure, want, over) => {
    const e = failureError(req, failure, url, { ...c, ...over });
    expect(fields(e)).toMatchObject({
      exitCode: 1,
      outcomeUnknown: false,
      status: undefined,
      ...want,
    });
    expect((e as SchedError).request).toEqual({ method: req.method, url: shownUrl });
  });

  it('the sandbox hint when a loopback address refuses', () => {
    const e = failureError(
      GET,
      f('refused', 'ECONNREFUSED', true),
      new URL('http://127.0.0.1:4010/api'),
      c,
    );
    expect(fields(e)).toMatchObject({
      message: 'cannot connect to 127.0.0.1:4010: connection refused',
      hint: 'is the sandbox running? start it with `sched sandbox`',
    });
  });
});

describe('classify', () => {
  const err = (code: string, message = 'boom') => Object.assign(new Error(message), { code });
  it.each([
    [err('ECONNREFUSED'), 'connect', 'refused', true],
    [new AggregateError([err('ECONNREFUSED')]), 'connect', 'refused', true],
    [Object.assign(err('UND_ERR_SOCKET'), { cause: err('ECONNRESET') }), 'connect', 'reset', false],
    [err('ENOTFOUND'), 'connect', 'dns', true],
    [err('EAI_AGAIN'), 'connect', 'dns-temporary', true],
    [err('UND_ERR_CONNECT_TIMEOUT'), 'connect', 'connect-timeout', true],
    [err('UND_ERR_HEADERS_TIMEOUT'), 'connect', 'timeout', false],
    [err('UND_ERR_DESTROYED'), 'connect', 'closed', false],
    [err('DEPTH_ZERO_SELF_SIGNED_CERT'), 'connect', 'tls', true],
    [
      err('UND_ERR_ABORTED', 'Proxy response (407) !== 200 when HTTP Tunneling'),
      'connect',
      'proxy',
      true,
    ],
    [err('ECONNRESET'), 'body', 'cut-off', false],
    [err('EPIPE'), 'connect', 'reset', false],
    [err('EWHATEVER'), 'connect', 'other', false],
  ] as const)('%s (%s) -> %s', (e, phase, kind, notSent) => {
    expect(classify(e, phase)).toMatchObject({ kind, notSent });
  });
});

describe('redirectError, parseBody, interruptedError', () => {
  it.each([
    [
      'post',
      'the API answered POST https://api.example.test/api/webhooks?page=2 with a redirect (302) to /elsewhere; a POST is not re-sent',
    ],
    [
      'too-many',
      'too many redirects for POST https://api.example.test/api/webhooks?page=2 (more than 5)',
    ],
    [
      'invalid',
      'the API redirected POST https://api.example.test/api/webhooks?page=2 to an invalid address',
    ],
    [
      'not-http',
      'the API redirected POST https://api.example.test/api/webhooks?page=2 to a non-HTTP address',
    ],
  ] as const)('redirect refused (%s)', (why, message) => {
    const e = redirectError(POST, why, { status: 302, location: '/elsewhere', url }, 5);
    expect(fields(e)).toMatchObject({ code: 'redirect', status: 302, exitCode: 1, message });
  });

  it.each([
    [answer(200, '{"a":1}'), true, { a: 1 }],
    [answer(204), false, undefined],
    [answer(200, 'not json'), false, undefined],
  ])('parseBody %#', (ans, expectBody, want) => {
    expect(parseBody(GET, ans, expectBody)).toEqual(want);
  });

  it.each([
    [
      answer(200),
      'empty answer from GET https://api.example.test/api/webhooks?page=2 (200 with no body); expected JSON',
    ],
    [
      answer(200, '{"a":', { 'content-type': 'application/json' }),
      'invalid JSON in the answer to GET https://api.example.test/api/webhooks?page=2 (5 bytes, truncated or broken)',
    ],
    [
      answer(200, '<html>', { 'content-type': 'text/html; charset=utf-8' }),
      'expected JSON from GET https://api.example.test/api/webhooks?page=2, got text/html',
    ],
  ])('parseBody refuses %#', (ans, message) => {
    let thrown: unknown;
    try {
      parseBody(GET, ans, true);
    } catch (e) {
      thrown = e;
    }
    expect(fields(thrown)).toMatchObject({ code: 'bad_response', status: 200, message });
  });

  it('Ctrl-C while a POST waits for its answer: outcome unknown; otherwise plain', () => {
    expect(fields(interruptedError('SIGINT', { req: POST, url }))).toMatchObject({
      exitCode: 130,
      code: 'interrupted',
      outcomeUnknown: true,
      message:
        'interrupted while waiting for the answer to POST /single-use-link: it may have been processed',
      hint: 'check whether it was created before trying again',
    });
    expect(fields(interruptedError('SIGTERM', { req: GET, url }))).toMatchObject({
      exitCode: 143,
      outcomeUnknown: false,
      message: 'interrupted',
    });
  });
});
