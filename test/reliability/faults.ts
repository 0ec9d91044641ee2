// The fault side of the table: what can go wrong between sched and the service, and what each
// fault must end in for a request of a given kind. A fault either scripts the answers of one
// request (the "target"; the command's other requests get healthy answers) or replaces the
// whole server (refused connection, unknown host).
//
// The expectations follow the client's documented policy (src/api/retry.ts): GET and DELETE
// are retried on 5xx, 429, resets, cut-off answers (3 retries) and timeouts (1 retry); a POST
// is retried only when the server provably did not act on it (429, refused); 2xx answers that
// are not what the API sends are one clear error, never retried.
import { f, refusedUrl, type Fault } from '../helpers/fault-server.js';
import type { RequestSpec } from './commands.js';

export type Outcome =
  { ok: true; hits?: number } | { ok: false; code: number; error: RegExp; hits?: number };

export interface FaultSpec {
  id: string;
  /** One request's answers, in order (the last repeats); the healthy answer is given. */
  script?: (good: Fault, req: { body: string; headers: Record<string, unknown> }) => Fault[];
  /** Replaces the server: the base URL the command is pointed at. */
  baseUrl?: () => Promise<string>;
  /** Global flags for the run (a short --timeout for slow answers). */
  globals?: string[];
  /** Which requests the fault makes sense for (default: all). */
  appliesTo?: (rq: RequestSpec) => boolean;
  /** What a command must end in when `rq` meets the fault. */
  expect: (rq: RequestSpec) => Outcome;
  /** A --verbose line that proves the policy was followed (e.g. Retry-After honoured). */
  verbose?: RegExp;
}

/** A slow answer comes after this; runs that meet one use --timeout 1 (margin for a busy CI). */
const SLOW_MS = 2_500;
const SHORT_TIMEOUT = ['--timeout', '1'];
/**
 * A huge answer, announced by its Content-Length (60 MB, over the client's 50 MB ceiling): the
 * client must refuse it before reading. A huge answer without a length, streamed until the
 * ceiling, costs a second of CPU per case and has its own tests in limits.test.ts.
 */
const HUGE: Fault = {
  kind: 'truncated',
  body: '{"page":1,"pages":1,"_embedded":{"items":[',
  declared: 60 * 1024 * 1024,
};

const idempotent = (rq: RequestSpec) => rq.method !== 'POST';
const fail = (code: number, error: RegExp, hits?: number): Outcome => ({
  ok: false,
  code,
  error,
  hits,
});
const ok = (hits?: number): Outcome => ({ ok: true, hits });

/** 4 = one attempt and the 3 retries of the policy. */
const ALL_ATTEMPTS = 4;

const HTML_502 =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>' +
  '<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
const HTML_LOGIN =
  '<!DOCTYPE html><html><head><title>Sign in · SimplyMeet.me</title></head>' +
  '<body><form action="/login"><input name="email"></form></body></html>';

const WRONG_LISTS: Record<string, unknown> = {
  'no _embedded': { page: 1, pages: 1, limit: 10, total: 1 },
  'pages not a number': { page: 1, pages: 'many', limit: 10, _embedded: { items: [] } },
  'items not a list': { page: 1, pages: 1, _embedded: { items: { uuid: 'x' } } },
  'an array': [{ uuid: 'x' }],
};
const WRONG_OBJECTS: Record<string, unknown> = {
  'an empty object': {},
  'an array': [{}],
  'a string': 'created',
  null: null,
};

/** The baseline row of every command: a healthy service (also warms the modules up). */
export const HEALTHY: FaultSpec = {
  id: 'healthy service',
  expect: () => ok(),
};

export const FAULTS: FaultSpec[] = [
  {
    id: '503 then success',
    script: (good) => [f.status(503), good],
    expect: (rq) =>
      idempotent(rq) ? ok(2) : fail(1, /failed with 503 Service Unavailable on POST/, 1),
  },
  {
    id: 'persistent 500',
    script: () => [f.json(500, { message: 'Internal Server Error' })],
    expect: (rq) =>
      fail(1, /failed with 500 Internal Server Error/, idempotent(rq) ? ALL_ATTEMPTS : 1),
  },
  {
    id: '429 with Retry-After then success',
    script: (good) => [f.rateLimit(1), good],
    expect: () => ok(2),
    verbose: /-> 429 in \d+ ms \(attempt 1; retrying in 1 s\)/,
  },
  {
    id: '429 without Retry-After then success',
    script: (good) => [f.rateLimit(), good],
    expect: () => ok(2),
    verbose: /-> 429 in \d+ ms \(attempt 1; retrying in/,
  },
  {
    id: '429 asking to wait an hour',
    script: () => [f.rateLimit(3600)],
    expect: () => fail(1, /rate limited .*\(429\).*wait 3600 s/, 1),
  },
  {
    id: 'connection reset then success',
    script: (good) => [f.reset(), good],
    expect: (rq) =>
      idempotent(rq)
        ? ok(2)
        : fail(1, /failed \(ECONNRESET\) after the request was sent: the outcome of POST/, 1),
  },
  {
    id: 'persistent connection reset',
    script: () => [f.reset()],
    expect: (rq) =>
      idempotent(rq)
        ? fail(1, /connection to .* was reset/, ALL_ATTEMPTS)
        : fail(1, /failed \(ECONNRESET\) after the request was sent: the outcome of POST/, 1),
  },
  {
    id: 'connection refused',
    baseUrl: () => refusedUrl(),
    expect: () => fail(1, /cannot connect to 127\.0\.0\.1:\d+: connection refused/),
  },
  {
    id: 'DNS failure',
    baseUrl: async () => 'http://sched-reliability-test.invalid/api',
    // "no such host" is final; a resolver that is down says "temporary" and is retried.
    expect: () => fail(1, /(cannot resolve host|DNS failure resolving) sched-reliability-test/),
  },
  {
    id: 'slower than --timeout once, then fast',
    script: (good) => [f.delay(SLOW_MS, good), good],
    globals: SHORT_TIMEOUT,
    expect: (rq) =>
      idempotent(rq) ? ok(2) : fail(1, /no answer .* within 1 s .*outcome of POST/, 1),
  },
  {
    id: 'always slower than --timeout',
    script: (good) => [f.delay(SLOW_MS, good)],
    globals: SHORT_TIMEOUT,
    // A timeout is retried once: each wait is a whole --timeout.
    expect: (rq) => fail(1, /no answer from .* within 1 s/, idempotent(rq) ? 2 : 1),
  },
  {
    id: 'HTML 502 error page',
    script: () => [f.html(502, HTML_502)],
    expect: (rq) =>
      fail(1, /failed with 502 Bad Gateway .*: 502 Bad Gateway/, idempotent(rq) ? ALL_ATTEMPTS : 1),
  },
  {
    id: 'HTML page with 200',
    script: () => [f.html(200, HTML_LOGIN)],
    // A DELETE's 2xx is the answer that matters; its body is not read.
    expect: (rq) =>
      rq.shape === 'none' ? ok(1) : fail(1, /expected JSON from .*, got text\/html/, 1),
  },
  {
    id: 'truncated answer',
    script: () => [f.truncated()],
    expect: (rq) =>
      idempotent(rq)
        ? fail(1, /was cut off/, ALL_ATTEMPTS)
        : fail(1, /cut off after the request was sent: the outcome of POST/, 1),
  },
  {
    id: 'broken JSON',
    script: () => [f.brokenJson()],
    expect: (rq) => (rq.shape === 'none' ? ok(1) : fail(1, /invalid JSON in the answer/, 1)),
  },
  ...Object.entries(WRONG_LISTS).map(([what, body]): FaultSpec => ({
    id: `list of the wrong shape (${what})`,
    script: () => [f.json(200, body)],
    appliesTo: (rq) => rq.shape === 'list',
    expect: () => fail(1, /unexpected response shape from GET/, 1),
  })),
  ...Object.entries(WRONG_OBJECTS).map(([what, body]): FaultSpec => ({
    id: `object of the wrong shape (${what})`,
    script: () => [f.json(200, body)],
    appliesTo: (rq) => rq.shape === 'object',
    expect: () => fail(1, /unexpected response shape from/, 1),
  })),
  {
    id: 'empty 200',
    script: () => [f.empty(200)],
    expect: (rq) => (rq.shape === 'none' ? ok(1) : fail(1, /empty answer from/, 1)),
  },
  {
    id: 'huge response',
    script: () => [HUGE],
    expect: () => fail(1, /larger than 50 MB; refusing to read it/, 1),
  },
  {
    id: '401 echoing the key',
    script: (_good, req) => [
      f.json(401, { code: 401, message: `Invalid API key ${String(req.headers['x-api-key'])}` }),
    ],
    expect: () => fail(4, /rejected the key \(401\)/, 1),
  },
  {
    id: '422 echoing the request body',
    script: (_good, req) => [
      f.json(422, {
        code: 422,
        message: `Validation failed for ${req.body}`,
        errors: { secret: `${req.body} is not acceptable` },
      }),
    ],
    appliesTo: (rq) => rq.method === 'POST',
    expect: () => fail(2, /./, 1),
  },
];
