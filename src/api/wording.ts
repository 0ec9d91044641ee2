// Every failure of a request turned into one typed error: the line a user reads, the hint, the
// field details, and the fields code reads (code, status, outcomeUnknown, request). Pure: the
// client hands in what happened; nothing here does I/O or reads the clock (`now` is given).
import { STATUS_CODES } from 'node:http';
import {
  ApiError,
  AuthError,
  Interrupted,
  NetworkError,
  NotFoundError,
  UsageError,
  type ErrorCode,
  type FailedRequest,
  signalOf,
} from '../errors.js';
import type { TransportFailure } from './failure.js';
import { isIdempotent, type HttpMethod } from './retry.js';
import { isLoopback, showUrl } from './url.js';
import { joinClauses } from '../text/clauses.js';
import type { Mask } from '../mask.js';

/** The variables that decide the proxy (api/exchange.ts), named when one may be at fault. */
const PROXY_SETTINGS = 'HTTPS_PROXY / HTTP_PROXY / ALL_PROXY / NO_PROXY';

/** The request, as the wording needs it. */
export interface WordedRequest {
  method: HttpMethod;
  path: string;
  /** For a POST whose outcome is unknown: how the user can check. */
  unknownOutcomeHint?: string;
}

/** An HTTP answer, body read whole. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  url: URL;
  /** The last hop went to another origin than the base URL (the key was not sent). */
  crossOrigin: boolean;
}

const BASE_URL_HINT = 'check the base URL (--base-url, SCHED_BASE_URL or the profile)';
const NETWORK_HINT = `${BASE_URL_HINT} and your network`;
const UNKNOWN_OUTCOME_HINT = 'check whether it was created before trying again';

export function seconds(ms: number): string {
  const s = ms / 1000;
  return s >= 10 ? `${Math.round(s)} s` : `${Number(s.toFixed(1))} s`;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When a wait ends, for people: the local time today; a date and time (UTC) past a day; and
 * past a year (a Retry-After of 10^20 seconds is no date at all) only that.
 */
function clockTime(msFromNow: number, now: number): string {
  const at = new Date(now + msFromNow);
  if (msFromNow > 366 * DAY_MS || Number.isNaN(at.getTime())) return 'more than a year from now';
  if (msFromNow > DAY_MS) return at.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  return at.toLocaleTimeString('en-GB', { hour12: false });
}

const same: Mask = (s) => s;

/**
 * Strips control characters and collapses whitespace: server text goes to a terminal. Secrets
 * are masked BEFORE the text is cut, so a cut never leaves part of one (see src/mask.ts).
 */
export function clean(s: string, max = 200, mask: Mask = same): string {
  const t = mask(s)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

export function tryJson(buf: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(buf.toString('utf8')) as unknown };
  } catch {
    return { ok: false };
  }
}

/** A short message from any error body: JSON message/error/detail/title, an HTML title, or text. */
export function serverMessage(
  body: Buffer,
  headers: Record<string, string>,
  mask: Mask = same,
): string | undefined {
  if (body.length === 0) return undefined;
  const parsed = tryJson(body);
  if (parsed.ok) {
    const v = parsed.value;
    if (typeof v === 'string') return clean(v, 200, mask) || undefined;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      for (const k of [
        'message',
        'error_description',
        'error',
        'detail',
        'title',
        'hydra:description',
      ]) {
        const m = o[k];
        if (typeof m === 'string' && m.trim()) return clean(m, 200, mask);
        if (m && typeof m === 'object' && typeof (m as { message?: unknown }).message === 'string')
          return clean((m as { message: string }).message, 200, mask);
      }
    }
    return undefined;
  }
  const text = body.subarray(0, 64 * 1024).toString('utf8');
  const type = headers['content-type'] ?? '';
  if (/html/i.test(type) || /^\s*</.test(text)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
    const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(text)?.[1];
    const picked = title ?? h1;
    return picked ? clean(picked.replace(/<[^>]+>/g, ' '), 200, mask) || undefined : undefined;
  }
  return clean(text, 200, mask) || undefined;
}

/** `<field>: <message>` lines from any validation body shape we have seen or can imagine. */
export function fieldErrors(value: unknown, mask: Mask = same): string[] {
  const out: string[] = [];
  // Field names come from the server too: cleaned like the messages.
  const label = (field: string) => (field ? clean(field, 200, mask) + ': ' : '');
  const push = (field: string, msg: unknown) => {
    if (typeof msg === 'string') out.push(`${label(field)}${clean(msg, 200, mask)}`);
    else if (Array.isArray(msg)) msg.forEach((m) => push(field, m));
    else if (msg && typeof msg === 'object') {
      const o = msg as Record<string, unknown>;
      if (typeof o.message === 'string' || typeof o.title === 'string') {
        const f = o.field ?? o.propertyPath ?? o.property_path ?? o.property ?? o.path ?? field;
        push(typeof f === 'string' ? f : field, o.message ?? o.title);
      } else {
        for (const [k, v] of Object.entries(o)) push(field ? `${field}.${k}` : k, v);
      }
    } else if (msg !== undefined && msg !== null)
      out.push(`${label(field)}${clean(String(msg), 200, mask)}`);
  };
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    for (const key of ['errors', 'violations', 'fields']) {
      if (o[key] !== undefined) push('', o[key]);
    }
  }
  return out;
}

const OWN_WORDS = [400, 401, 403, 404, 422, 429, 500, 502, 503, 504];

/**
 * An error answer that is a web page where the API answers JSON: another HTTP server at the
 * base URL (a web server's 405, a dev server's 501). Not counted: 400/401/403/404/422/429,
 * which have words of their own, and 500/502/503/504, which a gateway or the service's own
 * stack in front of the real API may answer in HTML during an outage (retried where safe).
 */
export function notTheApi(ans: Pick<Answer, 'status' | 'headers' | 'body'>): boolean {
  const { status } = ans;
  if (status < 400 || OWN_WORDS.includes(status)) return false;
  const type = ans.headers['content-type'] ?? '';
  if (/json/i.test(type)) return false;
  const start = ans.body.subarray(0, 512).toString('utf8');
  return /html/i.test(type) || /^\s*<(!doctype html|html)/i.test(start);
}

/** On a terminal, when an attempt has had no answer for a while. */
export function waitingNote(
  req: WordedRequest,
  base: URL,
  waitedMs: number,
  timeoutMs: number,
  thenRetry: boolean,
): string {
  const then = thenRetry ? ', then tries once more' : '';
  return `waiting for ${shortHost(base.host)} to answer ${req.method} ${req.path}: nothing for ${seconds(waitedMs)}; gives up after ${seconds(timeoutMs)} (--timeout)${then}`;
}

/** On a terminal, when a request that got no answer in time is sent again. */
export function retryNote(url: URL, timeoutMs: number, delayMs: number, attempt: number): string {
  return `no answer from ${shortHost(url.host)} within ${seconds(timeoutMs)}; trying again in ${seconds(delayMs)} (attempt ${attempt})`;
}

function describeType(headers: Record<string, string>): string {
  return headers['content-type']?.split(';')[0]?.trim() || 'no content type';
}

/** A host name short enough for a one-line message (a base URL can hold anything). */
function shortHost(host: string): string {
  return host.length > 80 ? `${host.slice(0, 79)}…` : host;
}

function failed(req: WordedRequest, url: URL): FailedRequest {
  return { method: req.method, url: showUrl(url) };
}

/** `GET https://host/api/webhooks?page=2`: what was requested, in full, as a message names it. */
function target(req: WordedRequest, url: URL): string {
  return `${req.method} ${showUrl(url)}`;
}

const API_URL_HINT =
  'check the base URL (--base-url, SCHED_BASE_URL or the profile): it should point at the API (e.g. https://secure.simplymeet.me/api)';

/** Why a path may not be found: the base URL misses /api, or the path repeats it. */
function notFoundHint(url: URL, baseUrl: string | undefined): string | undefined {
  if (baseUrl === undefined) return undefined;
  if (missesApiPath(baseUrl)) {
    return `the base URL ${showUrl(new URL(baseUrl))} does not end in /api, where the API usually is (e.g. https://secure.simplymeet.me/api): check --base-url, SCHED_BASE_URL or the profile`;
  }
  if (/\/api\/api(\/|$)/.test(url.pathname)) {
    return `the base URL ${showUrl(new URL(baseUrl))} already ends in /api: leave /api out of the path (e.g. sched api /webhooks, not /api/webhooks)`;
  }
  return undefined;
}

/** The base URL does not end in /api, where the API's paths usually start. */
function missesApiPath(baseUrl: string): boolean {
  try {
    return !/\/api$/.test(new URL(baseUrl).pathname.replace(/\/+$/, ''));
  } catch {
    return false;
  }
}

const DEFAULT_AUTH_HINT = 'run `sched auth login` or set SCHED_API_KEY';

function afterAttempts(attempts: number): string {
  return attempts > 1 ? ` (after ${attempts} attempts)` : '';
}

/** The code of a status statusError has no words of its own for (429 and 5xx have). */
function statusCode(status: number): ErrorCode {
  if (status >= 400) return 'http_4xx';
  if (status >= 300) return 'redirect';
  return 'bad_response';
}

export interface StatusContext {
  attempts: number;
  /** The service asked to wait this long, beyond what is waited for (429 and 5xx). */
  tooLongMs?: number;
  /** Masks the key and the request's secrets in server text. */
  mask: (s: string) => string;
  now: number;
  /** The base URL requests are made under: a 404 under one not ending in /api says so. */
  baseUrl?: string;
  /** What to do about a rejected key, naming where the key came from (the caller knows). */
  authHint?: string;
}

/** An error status (not 2xx) the client will not retry. */
export function statusError(req: WordedRequest, ans: Answer, c: StatusContext): Error {
  const { status } = ans;
  const reason = STATUS_CODES[status] ?? 'error';
  const msg = serverMessage(ans.body, ans.headers, c.mask);
  const said = msg ? `: ${msg}` : '';
  const where = target(req, ans.url);
  const fields = { status, request: failed(req, ans.url) };
  if (status === 401 || status === 403) {
    if (ans.crossOrigin) {
      return new AuthError(
        `the API redirected ${req.method} ${req.path} to ${ans.url.origin}, which answered ${status}; the key is never sent to another host`,
        {
          ...fields,
          hint: `if ${ans.url.origin} is the right service, use it as the base URL (--base-url)`,
        },
      );
    }
    return new AuthError(joinClauses(`the API rejected the key (${status}) for ${where}${said}`), {
      ...fields,
      hint: c.authHint ?? DEFAULT_AUTH_HINT,
    });
  }
  if (status === 404) {
    return new NotFoundError(joinClauses(`not found (404): ${where}${said}`), {
      ...fields,
      hint: notFoundHint(ans.url, c.baseUrl),
    });
  }
  if (notTheApi(ans)) {
    const server = c.baseUrl !== undefined ? showUrl(new URL(c.baseUrl)) : ans.url.origin;
    return new ApiError(
      joinClauses(
        `the server at ${server} does not look like the scheduling API: ${where} was answered ${status} ${reason} with a web page${said}`,
      ),
      { ...fields, code: 'bad_response', hint: API_URL_HINT },
    );
  }
  if (status === 400 || status === 422) {
    const parsed = tryJson(ans.body);
    const details = parsed.ok ? fieldErrors(parsed.value, c.mask) : [];
    return new UsageError(joinClauses(`the API rejected ${where} (${status})${said}`), {
      ...fields,
      code: 'invalid_request',
      details,
    });
  }
  if (status === 429 || status >= 500) return busyError(ans, c, where, said, fields);
  return new ApiError(joinClauses(`the API answered ${status} ${reason} to ${where}${said}`), {
    ...fields,
    code: statusCode(status),
  });
}

/** A 429 or 5xx not retried (any more): when the service asks to be tried again, if it says. */
function busyError(
  ans: Answer,
  c: StatusContext,
  where: string,
  said: string,
  fields: { status: number; request: FailedRequest },
): ApiError {
  const { status } = ans;
  const reason = STATUS_CODES[status] ?? 'error';
  const after = afterAttempts(c.attempts);
  const waitMs = c.tooLongMs;
  if (status === 429) {
    const when =
      waitMs !== undefined
        ? `the service asks to wait ${seconds(waitMs)} (until ${clockTime(waitMs, c.now)})`
        : undefined;
    return new ApiError(
      joinClauses(`rate limited by ${ans.url.host} (429) on ${where}`, when) + after,
      {
        ...fields,
        code: 'rate_limited',
        hint:
          waitMs !== undefined
            ? `try again after ${clockTime(waitMs, c.now)}`
            : 'wait a little and try again',
      },
    );
  }
  const when =
    waitMs !== undefined
      ? `the service asks to retry in ${seconds(waitMs)} (at ${clockTime(waitMs, c.now)})`
      : undefined;
  return new ApiError(
    joinClauses(`the API failed with ${status} ${reason} on ${where}${said}`, when) + after,
    {
      ...fields,
      code: 'http_5xx',
      hint: 'this is a problem on the service side; try again later',
    },
  );
}

export interface FailureContext {
  attempts: number;
  timeoutMs: number;
  maxBodyBytes: number;
  /** Whether this request went through a proxy. */
  proxied: boolean;
  /** Masks the key, the request's secrets and proxy credentials in error details. */
  mask?: Mask;
}

/**
 * Nothing listens on a loopback address. The sandbox listens on 127.0.0.1 (IPv4) unless
 * started with --host, so an IPv6 loopback URL is worth a word.
 */
function sandboxHint(url: URL): string {
  const start = 'is the sandbox running? start it with `sched sandbox`';
  if (url.hostname !== '[::1]') return start;
  const v4 = new URL(url.href);
  v4.hostname = '127.0.0.1';
  return `${start}; it listens on 127.0.0.1 (IPv4) unless started with --host ::1, so try --base-url ${v4.origin}/api`;
}

/** The error code of a transport failure: a timeout of either kind, else a network failure. */
function failureCode(f: TransportFailure): ErrorCode {
  return f.kind === 'timeout' || f.kind === 'connect-timeout' ? 'timeout' : 'network';
}

/** An attempt that got no usable answer, not retried. */
export function failureError(
  req: WordedRequest,
  f: TransportFailure,
  url: URL,
  c: FailureContext,
): Error {
  const host = shortHost(url.host);
  const after = afterAttempts(c.attempts);
  const request = failed(req, url);
  const code = failureCode(f);
  if (f.kind === 'too-large') {
    return new ApiError(
      `the answer to ${target(req, url)} is larger than ${Math.round(c.maxBodyBytes / 1024 / 1024)} MB; refusing to read it`,
      { request, code: 'bad_response' },
    );
  }
  if (f.kind === 'cut-off' && isIdempotent(req.method)) {
    return new ApiError(`the answer to ${target(req, url)} was cut off: ${f.detail}${after}`, {
      request,
      code: 'network',
    });
  }
  if (!isIdempotent(req.method) && !f.notSent) {
    const what =
      f.kind === 'timeout'
        ? `no answer from ${host} within ${seconds(c.timeoutMs)}`
        : f.kind === 'cut-off'
          ? `the answer from ${host} was cut off`
          : `the connection to ${host} failed (${f.code})`;
    return new NetworkError(
      `${what} after the request was sent: the outcome of ${req.method} ${showUrl(url)} is unknown (not retried, to avoid a duplicate)`,
      {
        request,
        code,
        outcomeUnknown: true,
        hint: req.unknownOutcomeHint ?? UNKNOWN_OUTCOME_HINT,
      },
    );
  }
  return networkError(req, f, url, c);
}

/** No usable answer, and nothing left unknown: what failed, said for its kind. */
function networkError(
  req: WordedRequest,
  f: TransportFailure,
  url: URL,
  c: FailureContext,
): NetworkError {
  const host = shortHost(url.host);
  const after = afterAttempts(c.attempts);
  const code = failureCode(f);
  const net = (message: string, hint?: string) =>
    new NetworkError(message, { request: failed(req, url), code, hint });
  switch (f.kind) {
    case 'timeout':
    case 'connect-timeout':
      return net(
        `no answer from ${host} within ${seconds(c.timeoutMs)} (--timeout)${after}`,
        'raise --timeout, or check that the service is reachable',
      );
    case 'refused': {
      const sandbox = isLoopback(url.hostname);
      // Through a proxy, it is the proxy that refused (or could not reach the host).
      const proxy = c.proxied && !sandbox;
      return net(
        `cannot connect to ${host}${proxy ? ' (through the proxy)' : ''}: connection refused${after}`,
        sandbox
          ? sandboxHint(url)
          : proxy
            ? `check ${PROXY_SETTINGS}, then the base URL`
            : NETWORK_HINT,
      );
    }
    case 'dns':
      return net(
        `cannot resolve host ${shortHost(url.hostname)} (DNS lookup failed)`,
        NETWORK_HINT,
      );
    case 'dns-temporary':
      return net(
        `temporary DNS failure resolving ${shortHost(url.hostname)}${after}`,
        NETWORK_HINT,
      );
    case 'tls':
      return net(
        `TLS error talking to ${host}: ${clean(f.detail, 200, c.mask)} (${f.code})`,
        'for a private CA, point NODE_EXTRA_CA_CERTS at its PEM file',
      );
    case 'plain-http': {
      const plain = new URL(url.origin);
      plain.protocol = 'http:';
      return net(
        `${host} speaks plain HTTP, not HTTPS: the TLS handshake got an HTTP answer (${f.code})`,
        `use ${plain.origin}/… rather than ${url.origin}/… (in --base-url, SCHED_BASE_URL or the profile)`,
      );
    }
    case 'proxy':
      return net(
        `the proxy refused the connection to ${host}: ${clean(f.detail, 200, c.mask)}`,
        `check ${PROXY_SETTINGS}`,
      );
    case 'closed':
      return net(`${req.method} ${req.path} was cut off: the command is ending`);
    case 'reset':
      return net(`the connection to ${host} was reset (${f.code})${after}`, NETWORK_HINT);
    default:
      return net(
        `request to ${host} failed: ${clean(f.detail, 200, c.mask)} (${f.code})${after}`,
        NETWORK_HINT,
      );
  }
}

/**
 * Why a webhook receiver gave no answer, in a few words (`events send`, `events replay`,
 * `listen --forward-to` print it after "no answer:"). `proxied`: the request went through a proxy.
 */
export function receiverFailure(f: TransportFailure, timeoutMs: number, proxied = false): string {
  switch (f.kind) {
    case 'refused':
      return proxied
        ? `connection refused (through the proxy: check ${PROXY_SETTINGS})`
        : 'connection refused (is the receiver running?)';
    case 'reset':
      return 'the connection was reset before an answer';
    case 'dns':
    case 'dns-temporary':
      return `the host name does not resolve (${f.code})`;
    case 'timeout':
    case 'connect-timeout':
      return `no answer within ${seconds(timeoutMs)}`;
    case 'unreachable':
      return f.detail;
    default:
      return f.code === 'ERROR' ? f.detail : `${f.detail} (${f.code})`;
  }
}

/** Why a redirect is not followed. */
export type RedirectRefusal = 'post' | 'elsewhere' | 'too-many' | 'invalid' | 'not-http';

export function redirectError(
  req: WordedRequest,
  why: RedirectRefusal,
  ans: { status: number; location: string; url: URL },
  maxRedirects: number,
  mask: Mask = same,
): ApiError {
  const fields = {
    status: ans.status,
    code: 'redirect' as const,
    request: failed(req, ans.url),
  };
  const where = target(req, ans.url);
  switch (why) {
    case 'post':
      return new ApiError(
        `the API answered ${where} with a redirect (${ans.status}) to ${clean(ans.location, 200, mask)}; a ${req.method} is not re-sent`,
        { ...fields, hint: BASE_URL_HINT },
      );
    case 'elsewhere':
      return new ApiError(
        `the API answered ${where} with a redirect (${ans.status}) to another host, ${clean(ans.location, 200, mask)}; a ${req.method} is only sent to the configured base URL, so nothing was done`,
        { ...fields, hint: BASE_URL_HINT },
      );
    case 'too-many':
      return new ApiError(`too many redirects for ${where} (more than ${maxRedirects})`, {
        ...fields,
        hint: BASE_URL_HINT,
      });
    case 'invalid':
      return new ApiError(`the API redirected ${where} to an invalid address`, fields);
    case 'not-http':
      return new ApiError(`the API redirected ${where} to a non-HTTP address`, fields);
  }
}

/**
 * A 2xx answer's body as JSON. `expect`: whether a body is required. An empty or unusable body
 * where one is required is an ApiError; where none is, undefined.
 */
export function parseBody(req: WordedRequest, ans: Answer, expect: boolean): unknown {
  const fields = {
    status: ans.status,
    code: 'bad_response' as const,
    request: failed(req, ans.url),
  };
  if (ans.body.length === 0 || ans.status === 204) {
    if (expect) {
      throw new ApiError(
        `empty answer from ${target(req, ans.url)} (${ans.status} with no body); expected JSON`,
        fields,
      );
    }
    return undefined;
  }
  const parsed = tryJson(ans.body);
  if (parsed.ok) return parsed.value;
  if (!expect) return undefined;
  const type = describeType(ans.headers);
  if (/json/i.test(type)) {
    throw new ApiError(
      `invalid JSON in the answer to ${target(req, ans.url)} (${ans.body.length} bytes, truncated or broken)`,
      fields,
    );
  }
  throw new ApiError(`expected JSON from ${target(req, ans.url)}, got ${type}`, {
    ...fields,
    hint: 'check the base URL: it should point at the API (e.g. https://secure.simplymeet.me/api)',
  });
}

/**
 * Ctrl-C (or SIGTERM, the signal's reason) during a request. `inFlight`: a POST had been sent
 * and its answer not read, so the service may have acted on it, and the user must know.
 */
export function interruptedError(
  reason: unknown,
  inFlight?: { req: WordedRequest; url: URL },
): Interrupted {
  const signal = signalOf(reason);
  if (inFlight && !isIdempotent(inFlight.req.method)) {
    const { req } = inFlight;
    return new Interrupted(
      `interrupted while waiting for the answer to ${req.method} ${req.path}: it may have been processed`,
      {
        signal,
        outcomeUnknown: true,
        request: failed(req, inFlight.url),
        hint: req.unknownOutcomeHint ?? UNKNOWN_OUTCOME_HINT,
      },
    );
  }
  return new Interrupted('interrupted', { signal });
}

/** A request asked for after close() began. */
export function notSentError(req: WordedRequest): NetworkError {
  return new NetworkError(`${req.method} ${req.path} not sent: the command is ending`);
}
