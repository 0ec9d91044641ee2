// The sandbox HTTP server: a faithful local emulator of the service API (spec sections 2-8)
// plus the service's behaviour behind it (bookings, cancellations, signed deliveries).
// Routing, authentication and body handling live here; the handlers in api.ts, control.ts
// and page.ts.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createSingleUseLink,
  createWebhook,
  deleteWebhook,
  listMeetingTypes,
  listWebhooks,
} from './api.js';
import { DEFAULT_SERVICE_NAME } from '../webhooks/delivery.js';
import { DEFAULT_SANDBOX_API_KEY } from './constants.js';
import type { SandboxCore, SandboxLogEvent } from './core.js';
import { DEFAULT_DELIVERY_TIMEOUT_MS, DEFAULT_RETRY_DELAYS_MS, Deliveries } from './deliveries.js';
import {
  decodeUtf8,
  HttpError,
  httpError,
  mediaType,
  readBody,
  sendEmpty,
  sendHtml,
  sendJson,
} from './http.js';
import { controlRoutes } from './control.js';
import { pageRoutes } from './page.js';
import { meetingTypesFromInput, seedMeetingTypes, type MeetingTypeInput } from './seed.js';
import { loadStateFile, SandboxState, StatePersister } from './state.js';

export { DEFAULT_SANDBOX_API_KEY };
export { DEFAULT_SERVICE_NAME };
export const DEFAULT_HOST_TIMEZONE = 'Europe/Berlin';
/** Request bodies larger than this are answered 413. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface SandboxOptions {
  /** Address to listen on; default 127.0.0.1. */
  host?: string;
  /** Port; 0 (the default here) picks a free one. */
  port?: number;
  /** The X-API-KEY the sandbox accepts; default DEFAULT_SANDBOX_API_KEY. */
  apiKey?: string;
  /** Where link URLs point ({publicUrl}/s/<code>); default the server's own origin. */
  publicUrl?: string;
  /** `user-agent` of deliveries; default "SimplyMeet.me". */
  serviceName?: string;
  /** The host's (the account holder's) time zone, for pretty times. */
  hostTimezone?: string;
  /** Start with exactly this many meeting types (8 realistic, then synthetic ones). */
  seedTypes?: number;
  /** Start with these meeting types instead of the seeded ones. */
  meetingTypes?: MeetingTypeInput[];
  /** Load state from this file (if it exists) and keep it there after every change. */
  stateFile?: string;
  /** Keep every received request in `handle.requests` (tests). */
  recordRequests?: boolean;
  maxBodyBytes?: number;
  /** Waits before each delivery retry (its length = number of retries). */
  retryDelaysMs?: number[];
  /** Time one delivery attempt may take. */
  deliveryTimeoutMs?: number;
  /** Receives request, delivery and state-error events. */
  log?: (event: SandboxLogEvent) => void;
  /** The clock (tests pin it). */
  now?: () => Date;
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

export interface SandboxHandle {
  /** e.g. http://127.0.0.1:4010/api */
  baseUrl: string;
  /** e.g. http://127.0.0.1:4010 (link pages live at {publicUrl}/s/<code>) */
  publicUrl: string;
  apiKey: string;
  host: string;
  port: number;
  /** Received requests, oldest first, when recordRequests is on (else stays empty). */
  requests: RecordedRequest[];
  state: SandboxState;
  deliveries: Deliveries;
  /** True when state was loaded from an existing stateFile. */
  stateLoaded: boolean;
  /** Resolves when all state changes so far are written to the state file. */
  flushState(): Promise<void>;
  /** Stops listening, drops connections, stops deliveries, writes the state. */
  close(): Promise<void>;
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
  | { status: number; html: string }
  | { status: 204 };

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path with :params, e.g. "/api/webhooks/:id". */
  path: string;
  /** Requires X-API-KEY (everything under /api does). */
  auth: boolean;
  body: BodyKind;
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

const apiRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/users/me/meeting-types',
    auth: true,
    body: 'none',
    handle: (core, r) => ({ status: 200, json: listMeetingTypes(core, r.url.searchParams) }),
  },
  {
    method: 'POST',
    path: '/api/single-use-link',
    auth: true,
    body: 'json',
    handle: (core, r) => ({ status: 200, json: createSingleUseLink(core, r.body) }),
  },
  {
    method: 'POST',
    path: '/api/webhooks',
    auth: true,
    body: 'json',
    handle: (core, r) => ({ status: 201, json: createWebhook(core, r.body) }),
  },
  {
    method: 'GET',
    path: '/api/webhooks',
    auth: true,
    body: 'none',
    handle: (core, r) => ({ status: 200, json: listWebhooks(core, r.url.searchParams) }),
  },
  {
    method: 'DELETE',
    path: '/api/webhooks/:id',
    auth: true,
    body: 'none',
    handle: (core, r) => {
      deleteWebhook(core, r.params.id!);
      return { status: 204 };
    },
  },
];

function sameSecret(expected: string, given: string): boolean {
  // Hash first so the comparison takes the same time whatever the lengths.
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

function displayHost(host: string): string {
  // A wildcard address is not somewhere a client can connect to; name the loopback instead.
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
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

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const host = options.host ?? '127.0.0.1';
  const apiKey = options.apiKey ?? DEFAULT_SANDBOX_API_KEY;
  if (apiKey === '') throw new Error('the sandbox API key must not be empty');
  const now = options.now ?? (() => new Date());
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const logFn = options.log ?? (() => {});
  const hostTimezone = options.hostTimezone ?? DEFAULT_HOST_TIMEZONE;
  new Intl.DateTimeFormat('en', { timeZone: hostTimezone }); // throws RangeError when unknown

  let state: SandboxState;
  let stateLoaded = false;
  const saved = options.stateFile ? await loadStateFile(options.stateFile) : undefined;
  if (saved) {
    state = SandboxState.fromJSON(saved);
    stateLoaded = true;
  } else if (options.meetingTypes) {
    state = new SandboxState(meetingTypesFromInput(options.meetingTypes, now()));
  } else {
    state = new SandboxState(seedMeetingTypes(options.seedTypes));
  }

  const persister = options.stateFile
    ? new StatePersister(options.stateFile, state, (e) =>
        logFn({ type: 'state-error', message: `cannot write ${options.stateFile}: ${e.message}` }),
      )
    : undefined;
  if (persister) {
    state.onChange(() => persister.schedule());
    if (!stateLoaded) persister.schedule();
  }

  const deliveries = new Deliveries({
    serviceName: options.serviceName ?? DEFAULT_SERVICE_NAME,
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    timeoutMs: options.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS,
    keep: 1000,
    log: logFn,
  });

  const requests: RecordedRequest[] = [];
  const routes = [...apiRoutes, ...controlRoutes, ...pageRoutes].map(compile);
  // Filled in once the port is known.
  const core = {
    state,
    publicUrl: '',
    baseUrl: '',
    serviceName: options.serviceName ?? DEFAULT_SERVICE_NAME,
    hostTimezone,
    deliveries,
    now,
    log: logFn,
  } satisfies SandboxCore;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const rawUrl = req.url ?? '/';
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

      const body = await readBody(req, maxBodyBytes, 30_000);
      if (!body.ok && body.reason !== 'too-large') {
        // The client went away or stalled; nobody is left to answer.
        status = 400;
        res.destroy();
        return;
      }
      const bytes = body.ok ? body.bytes : Buffer.alloc(0);
      if (options.recordRequests) {
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

      if (route.auth) {
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
      else if ('html' in reply) sendHtml(res, reply.status, reply.html);
      else sendEmpty(res, reply.status);
    } catch (e) {
      if (e instanceof HttpError) {
        status = e.status;
        sendJson(res, e.status, e.body, e.headers);
      } else {
        status = 500;
        logFn({ type: 'state-error', message: `internal error: ${(e as Error).message}` });
        if (!res.headersSent) sendJson(res, 500, { code: 500, message: 'Internal server error.' });
        else res.destroy();
      }
    } finally {
      if (record) record.status = status;
      logFn({
        type: 'request',
        method,
        path: rawUrl,
        status,
        ms: Math.round(performance.now() - started),
      });
    }
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res);
  });
  server.requestTimeout = 60_000;
  server.headersTimeout = 30_000;
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const body = JSON.stringify({ code: 400, message: 'Bad request.' });
    socket.end(
      `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    server.once('error', onError);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${displayHost(host)}:${port}`;
  const publicUrl = (options.publicUrl ?? origin).replace(/\/+$/, '');
  core.publicUrl = publicUrl;
  core.baseUrl = `${origin}/api`;

  let closing: Promise<void> | undefined;
  return {
    baseUrl: core.baseUrl,
    publicUrl,
    apiKey,
    host,
    port,
    requests,
    state,
    deliveries,
    stateLoaded,
    flushState: () => persister?.flush() ?? Promise.resolve(),
    close() {
      closing ??= (async () => {
        deliveries.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await deliveries.idle();
        if (persister) await persister.flush();
      })();
      return closing;
    },
  };
}
