// More of the lines a user reads when a request fails (src/api/wording.ts), each written out:
// wait times over 10 s in whole seconds, a long host name shortened, a temporary DNS failure,
// a proxy's refusal, an unnamed failure, a request asked for while the command ends, a 5xx
// that asks to retry later, a 403 from another host, and an answer that is not JSON.
import { describe, expect, it } from 'vitest';
import {
  failureError,
  notSentError,
  parseBody,
  seconds,
  serverMessage,
  statusError,
  type Answer,
  type WordedRequest,
} from '../../src/api/wording.js';
import type { TransportFailure } from '../../src/api/failure.js';
import { SchedError } from '../../src/errors.js';

const GET: WordedRequest = { method: 'GET', path: '/webhooks' };
const url = new URL('https://api.example.test/api/webhooks');
const NOW = Date.parse('2026-01-01T10:00:00Z');
const ctx = { attempts: 1, timeoutMs: 30_000, maxBodyBytes: 10 * 1024 * 1024, proxied: false };

function words(e: unknown): { message: string; hint: string | undefined; code: string } {
  if (!(e instanceof SchedError)) throw new Error('not a SchedError');
  return { message: e.message, hint: e.hint, code: e.code };
}

function failure(kind: TransportFailure['kind'], code: string, detail = ''): TransportFailure {
  return { kind, code, notSent: true, detail };
}

describe('wait times', () => {
  it.each([
    [1_250, '1.3 s'],
    [9_940, '9.9 s'],
    [10_000, '10 s'],
    [12_345, '12 s'],
    [90_600, '91 s'],
  ])('%i ms reads %s', (ms, text) => {
    expect(seconds(ms)).toBe(text);
  });
});

describe('failures without an answer', () => {
  it('a host name over 80 characters is shortened to 79 and an ellipsis', () => {
    const host = `${'h'.repeat(90)}.example.test`;
    const e = failureError(
      GET,
      failure('reset', 'ECONNRESET'),
      new URL(`https://${host}/api`),
      ctx,
    );
    expect(words(e).message).toBe(`the connection to ${host.slice(0, 79)}… was reset (ECONNRESET)`);
  });

  it('a host name of 80 characters is shown whole', () => {
    const host = `${'h'.repeat(80 - '.test'.length)}.test`;
    const e = failureError(
      GET,
      failure('reset', 'ECONNRESET'),
      new URL(`https://${host}/api`),
      ctx,
    );
    expect(words(e).message).toBe(`the connection to ${host} was reset (ECONNRESET)`);
  });

  it('a connect timeout is a timeout (code), with the --timeout hint', () => {
    expect(
      words(failureError(GET, failure('connect-timeout', 'UND_ERR_CONNECT_TIMEOUT'), url, ctx)),
    ).toEqual({
      message: 'no answer from api.example.test within 30 s (--timeout)',
      hint: 'raise --timeout, or check that the service is reachable',
      code: 'timeout',
    });
  });

  it('a temporary DNS failure names the host and the attempts', () => {
    const e = failureError(GET, failure('dns-temporary', 'EAI_AGAIN'), url, {
      ...ctx,
      attempts: 4,
    });
    expect(words(e)).toEqual({
      message: 'temporary DNS failure resolving api.example.test (after 4 attempts)',
      hint: 'check the base URL (--base-url, SCHED_BASE_URL or the profile) and your network',
      code: 'network',
    });
  });

  it('a proxy refusal says what the proxy said, and which variables to check', () => {
    const e = failureError(
      GET,
      failure('proxy', 'UND_ERR_ABORTED', 'Proxy response (407)'),
      url,
      ctx,
    );
    expect(words(e)).toEqual({
      message: 'the proxy refused the connection to api.example.test: Proxy response (407)',
      hint: 'check HTTPS_PROXY / HTTP_PROXY / ALL_PROXY / NO_PROXY',
      code: 'network',
    });
  });

  it('an unnamed failure says what failed, with its code', () => {
    const e = failureError(
      GET,
      failure('other' as TransportFailure['kind'], 'EWHAT', 'odd'),
      url,
      ctx,
    );
    expect(words(e).message).toBe('request to api.example.test failed: odd (EWHAT)');
  });

  it('a request asked for while the command ends is not sent, and says so', () => {
    expect(notSentError(GET).message).toBe('GET /webhooks not sent: the command is ending');
  });
});

describe('answers', () => {
  const answer = (status: number, body: string, headers: Record<string, string> = {}): Answer => ({
    status,
    headers,
    body: Buffer.from(body),
    url,
    crossOrigin: false,
  });
  const sctx = { attempts: 1, mask: (s: string) => s, now: NOW };

  it('a 503 that asks to retry later than is waited for says when', () => {
    const time = new Date(NOW + 60_000).toLocaleTimeString('en-GB', { hour12: false });
    const e = statusError(GET, answer(503, ''), { ...sctx, tooLongMs: 60_000 });
    expect(words(e).message).toBe(
      `the API failed with 503 Service Unavailable on GET https://api.example.test/api/webhooks; the service asks to retry in 60 s (at ${time})`,
    );
    expect(time).toMatch(/^\d\d:\d\d:\d\d$/);
  });

  it('a 403 from another host after a redirect: how to use that host', () => {
    const other = new URL('https://other.example/api/webhooks');
    const e = statusError(GET, { ...answer(403, ''), url: other, crossOrigin: true }, sctx);
    expect(words(e).hint).toBe(
      'if https://other.example is the right service, use it as the base URL (--base-url)',
    );
  });

  it('a 2xx answer that is not JSON: its content type, or that it has none', () => {
    const html = () =>
      parseBody(
        GET,
        answer(200, '<html></html>', { 'content-type': 'text/html; charset=utf-8' }),
        true,
      );
    expect(html).toThrow(
      'expected JSON from GET https://api.example.test/api/webhooks, got text/html',
    );
    try {
      html();
    } catch (e) {
      expect(words(e).hint).toBe(
        'check the base URL: it should point at the API (e.g. https://secure.simplymeet.me/api)',
      );
    }
    expect(() => parseBody(GET, answer(200, 'plain'), true)).toThrow(', got no content type');
  });
});

describe('what the server said, as quoted', () => {
  const msg = (body: string, headers: Record<string, string> = {}) =>
    serverMessage(Buffer.from(body), headers);

  it.each<[string, string, Record<string, string>, string | undefined]>([
    ['a blank message: the next key', '{"message":"  ","error":"real cause"}', {}, 'real cause'],
    ['an object without a message: the next key', '{"error":{"code":5},"detail":"d"}', {}, 'd'],
    ['a title with attributes', '<html><title lang="en">Down</title></html>', {}, 'Down'],
    ['tags inside a heading become spaces', '<h1>Not<br>Found</h1>', {}, 'Not Found'],
    [
      'HTML served as such, not starting with <',
      'oops <h1>Bad Gateway</h1>',
      { 'content-type': 'text/html' },
      'Bad Gateway',
    ],
    ['text with a < later on is text', 'a < b', {}, 'a < b'],
  ])('%s', (_what, body, headers, said) => {
    expect(msg(body, headers)).toBe(said);
  });
});

describe('status words', () => {
  const answer = (status: number, body = ''): Answer => ({
    status,
    headers: {},
    body: Buffer.from(body),
    url,
    crossOrigin: false,
  });
  const sctx = { attempts: 1, mask: (s: string) => s, now: NOW };

  it('a status without a name is worded "error"', () => {
    expect(words(statusError(GET, answer(599), sctx)).message).toBe(
      'the API failed with 599 error on GET https://api.example.test/api/webhooks',
    );
  });

  it('a 422 whose body is null has no field lines', () => {
    const e = statusError(GET, answer(422, 'null'), sctx);
    expect(e instanceof SchedError && e.details).toEqual([]);
  });

  it.each([
    ['https://x.example/api/v2', true],
    ['https://x.example/api//', false],
  ])('a 404 under %s: the /api hint %s', (baseUrl, hinted) => {
    const { hint } = words(statusError(GET, answer(404), { ...sctx, baseUrl }));
    expect(hint !== undefined && hint.includes('does not end in /api')).toBe(hinted);
  });
});
