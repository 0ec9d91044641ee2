// The sandbox's router: its route table type, matching a request to a route (404, 405 with
// Allow), the API-key check, reading and parsing the body, and turning a handler's reply or
// HttpError into the answer. Server start-up is server.ts; the handlers are api.ts, control.ts
// and page.ts.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../http/body.js';
import type { SandboxCore } from './core.js';
import {
  decodeUtf8,
  HttpError,
  httpError,
  mediaType,
  sendEmpty,
  sendHtml,
  sendJson,
  sendText,
} from './http.js';
import { describeFault, type Faults } from './faults.js';
import { hostAllowed } from './hosts.js';
import type { SandboxLogEvent } from './log.js';

/** A Host header as it may be quoted back: printable ASCII only, at most 100 characters. */
function sanitizeHost(h: string): string {
  return h
    .replace(/[^\x20-\x7e]/g, '?')
    .replace(/"/g, "'")
    .slice(0, 100);
}

/** A request as it reached the sandbox. */
export interface RecordedRequest {
  method: string;
  /** Path and query exactly as sent, e.g. "/api/webhooks?page=2". */
  url: string;
  pathname: string;
  query: URLSearchParams;
  /** Lower-cased header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The raw body text ('' when none). */
  rawBody: string;
  /** The parsed JSON body, or undefined when there was none or it was not JSON. */
  body: unknown;
  /** The status the sandbox answered with (set once answered). */
  status?: number;
}

export type BodyKind = 'none' | 'json' | 'form';

export interface RouteRequest {
  req: IncomingMessage;
  url: URL;
  params: Record<string, string>;
  /** The JSON body (an object) for 'json' routes; the form fields for 'form' routes. */
  body: Record<string, unknown>;
}

export type Reply =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; html: string; headers?: Record<string, string> }
  | { status: number; text: string; contentType: string; headers?: Record<string, string> }
  /** The handler answers on its own, over time (the console's event stream). */
  | { status: number; stream: (req: IncomingMessage, res: ServerResponse) => void }
  | { status: 204 };

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path with :params, e.g. "/api/webhooks/:id". */
  path: string;
  /** How the request body is read; default 'none' (not parsed: the handler gets {}). */
  body?: BodyKind;
  handle(core: SandboxCore, r: RouteRequest): Reply | Promise<Reply>;
}

interface CompiledRoute extends Route {
  regex: RegExp;
  keys: string[];
}

function compile(route: Route): CompiledRoute {
  const keys: string[] = [];
  const pattern = route.path
    .split('/')
    .map((seg) => {
      if (seg.startsWith(':')) {
        keys.push(seg.slice(1));
        return '([^/]+)';
      }
      return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { ...route, regex: new RegExp(`^${pattern}$`), keys };
}

function sameSecret(expected: string, given: string): boolean {
  // Hash first so the comparison takes the same time whatever the lengths.
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  // Each name Node saw, with all of its values (never undefined, whatever the Dict type says).
  for (const [k, v] of Object.entries(req.headersDistinct) as Array<[string, string[]]>) {
    out[k] = v.join(', ');
  }
  return out;
}

function parseJsonBody(bytes: Buffer, contentType: string | undefined): Record<string, unknown> {
  const type = mediaType(contentType);
  if (type !== 'application/json' && !(type !== undefined && type.endsWith('+json'))) {
    if (bytes.length === 0 && type === undefined) {
      throw httpError(
        400,
        'The request body is empty: send a JSON object with Content-Type: application/json.',
      );
    }
    throw httpError(
      415,
      `Unsupported Content-Type "${contentType ?? ''}": send the body as application/json.`,
    );
  }
  const text = decodeUtf8(bytes);
  if (text === undefined) throw httpError(400, 'The request body is not valid UTF-8.');
  if (text.trim() === '') {
    throw httpError(400, 'The request body is empty: send a JSON object.');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw httpError(400, `Malformed JSON in the request body: ${(e as Error).message}.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw httpError(400, 'The request body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}

function parseFormBody(bytes: Buffer, contentType: string | undefined): Record<string, unknown> {
  const type = mediaType(contentType);
  if (type !== 'application/x-www-form-urlencoded') {
    throw httpError(415, 'Send the form as application/x-www-form-urlencoded.');
  }
  const text = decodeUtf8(bytes);
  if (text === undefined) throw httpError(400, 'The form is not valid UTF-8.');
  return Object.fromEntries(new URLSearchParams(text));
}

export interface RouterOptions {
  /** The X-API-KEY that every route under /api requires. */
  apiKey: string;
  /** Request bodies larger than this are answered 413. */
  maxBodyBytes: number;
  /** How long a request body may take to arrive; default DEFAULT_BODY_TIMEOUT_MS. */
  bodyTimeoutMs?: number;
  /** When given, every request is appended to it (tests look at what reached the sandbox). */
  requests?: RecordedRequest[];
  /** The names the Host header may give (hosts.ts); filled in once the sandbox listens. */
  hostNames: ReadonlySet<string>;
  /** Synthetic faults for API routes (faults.ts); none when absent. */
  faults?: Faults;
  log(event: SandboxLogEvent): void;
}

/** The request listener that serves `routes` over `core`. */
export function createRequestHandler(
  core: SandboxCore,
  routeTable: readonly Route[],
  options: RouterOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { apiKey, maxBodyBytes, bodyTimeoutMs, requests, log } = options;
  const routes = routeTable.map(compile);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    // An http.Server's requests always have both (only a client's responses lack them).
    const method = req.method!.toUpperCase();
    const rawUrl = req.url!;
    let record: RecordedRequest | undefined;
    let status = 500;
    try {
      let url: URL;
      try {
        // Origin-form ("/api/x") is relative to us, even when it starts with "//"; a proxy's
        // absolute-form ("http://host/api/x") is taken as it is.
        url = rawUrl.startsWith('/') ? new URL(`http://sandbox.invalid${rawUrl}`) : new URL(rawUrl);
      } catch {
        throw httpError(400, 'Malformed request target.');
      }

      if (!hostAllowed(req.headers.host, options.hostNames)) {
        const host = sanitizeHost(req.headers.host!);
        throw httpError(
          403,
          `Host "${host}" is not a name of this sandbox: it answers only requests addressed to ${[...options.hostNames].join(', ')} or an IP address (a guard against DNS rebinding).`,
        );
      }
      const body = await readBody(req, maxBodyBytes, bodyTimeoutMs);
      if (!body.ok && body.reason !== 'too-large') {
        // The client went away or stalled; nobody is left to answer.
        status = 400;
        res.destroy();
        return;
      }
      const bytes = body.ok ? body.bytes : Buffer.alloc(0);
      if (requests) {
        const rawBody = bytes.toString('utf8');
        let parsed: unknown;
        try {
          parsed = rawBody ? JSON.parse(rawBody) : undefined;
        } catch {
          parsed = undefined;
        }
        record = {
          method,
          url: rawUrl,
          pathname: url.pathname,
          query: url.searchParams,
          headers: headerRecord(req),
          rawBody,
          body: parsed,
        };
        requests.push(record);
      }
      if (!body.ok) {
        throw httpError(
          413,
          `The request body is larger than ${maxBodyBytes} bytes.`,
          {},
          {
            connection: 'close',
          },
        );
      }

      let pathname: string;
      try {
        pathname = decodeURIComponent(url.pathname);
      } catch {
        throw httpError(400, 'Malformed percent-encoding in the path.');
      }
      const onPath = routes
        .map((r) => ({ r, m: r.regex.exec(url.pathname) }))
        .filter((x) => x.m !== null);
      if (onPath.length === 0) {
        throw httpError(404, `No route found for "${method} ${pathname}".`);
      }
      const wanted = method === 'HEAD' ? 'GET' : method;
      const hit = onPath.find((x) => x.r.method === wanted);
      if (!hit) {
        const allow: string[] = [...new Set(onPath.map((x) => x.r.method))];
        if (allow.includes('GET')) allow.push('HEAD');
        throw httpError(
          405,
          `Method ${method} is not allowed for "${pathname}"; allowed: ${allow.join(', ')}.`,
          {},
          { allow: allow.join(', ') },
        );
      }
      const route = hit.r;

      // A synthetic fault stands in front of the route, as a rate limiter or a failing proxy
      // would: before the key check.
      const fault = options.faults?.takeApi(wanted, url.pathname);
      if (fault) {
        const what = `${describeFault(fault)} (synthetic fault)`;
        log({ type: 'fault', method, path: rawUrl, fault: what });
        if (fault.type === 'reset') {
          status = 0;
          req.socket.destroy();
          return;
        }
        if (fault.type === 'delay') {
          await new Promise((resolve) => setTimeout(resolve, fault.ms));
        } else {
          throw httpError(
            fault.status,
            fault.status === 429
              ? 'Too many requests (a synthetic fault set in the sandbox).'
              : 'Server error (a synthetic fault set in the sandbox).',
            {},
            fault.retryAfter === undefined ? {} : { 'retry-after': String(fault.retryAfter) },
          );
        }
      }

      // Everything under /api needs the X-API-KEY, and nothing else: the path decides.
      if (route.path.startsWith('/api/')) {
        const given = req.headers['x-api-key'];
        if (given === undefined || given === '') {
          throw httpError(
            401,
            'Authentication required: send your API key in the X-API-KEY header.',
          );
        }
        if (Array.isArray(given) || !sameSecret(apiKey, given)) {
          throw httpError(401, 'Invalid API key.');
        }
      }

      const params: Record<string, string> = {};
      route.keys.forEach((k, i) => {
        params[k] = decodeURIComponent(hit.m![i + 1]!);
      });
      const parsedBody =
        route.body === 'json'
          ? parseJsonBody(bytes, req.headers['content-type'])
          : route.body === 'form'
            ? parseFormBody(bytes, req.headers['content-type'])
            : {};

      const reply = await route.handle(core, { req, url, params, body: parsedBody });
      status = reply.status;
      if ('json' in reply) sendJson(res, reply.status, reply.json, reply.headers);
      else if ('html' in reply) sendHtml(res, reply.status, reply.html, reply.headers);
      else if ('text' in reply) {
        sendText(res, reply.status, reply.text, reply.contentType, reply.headers);
      } else if ('stream' in reply) reply.stream(req, res);
      else sendEmpty(res, reply.status);
    } catch (e) {
      if (e instanceof HttpError) {
        status = e.status;
        sendJson(res, e.status, e.body, e.headers);
      } else {
        status = 500;
        log({ type: 'state-error', message: `internal error: ${(e as Error).message}` });
        // Nothing was sent yet: every reply is written at once (writeHead, end) after the
        // handler returned, and writeHead throws, if at all, before sending anything.
        sendJson(res, 500, { code: 500, message: 'Internal server error.' });
      }
    } finally {
      if (record) record.status = status;
      log({
        type: 'request',
        method,
        path: rawUrl,
        status,
        ms: Math.round(performance.now() - started),
      });
    }
  };
}
