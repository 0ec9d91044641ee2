// The sandbox HTTP server: a faithful local emulator of the whole service API (resources,
// paging, endpoints, deliveries, errors)
// plus the service's behaviour behind it (bookings, cancellations, signed deliveries).
// This module starts it: options, state (seeded, or loaded from and kept in a file), the
// delivery queue, listening and closing. Routing is router.ts; the handlers api.ts, control.ts
// and page.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiRoutes } from './api.js';
import { DEFAULT_SERVICE_NAME } from '../domain/webhooks/delivery.js';
import { DEFAULT_SANDBOX_API_KEY } from '../defaults.js';
import type { SandboxCore } from './core.js';
import { DEFAULT_DELIVERY_TIMEOUT_MS, DEFAULT_RETRY_DELAYS_MS, Deliveries } from './deliveries.js';
import { isLoopback } from '../api/url.js';
import { consoleControlRoutes, consolePageRoutes } from './console.js';
import { controlRoutes } from './control.js';
import { Faults, type FaultsSpec } from './faults.js';
import { ownHostNames } from './hosts.js';
import { cryptoRandom, isSeed, seededClock, seededRandom } from './random.js';
import type { SandboxLogEvent } from './log.js';
import { pageRoutes } from './page.js';
import { createRequestHandler, type RecordedRequest } from './router.js';
import { meetingTypesFromInput, seedMeetingTypes, type MeetingTypeInput } from './seed.js';
import { loadStateFile, SandboxState, StatePersister } from './state.js';

export { DEFAULT_SANDBOX_API_KEY, DEFAULT_SERVICE_NAME };
export type { RecordedRequest };
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
  /** How long a request body may take to arrive (tests shorten it). */
  bodyTimeoutMs?: number;
  /** Waits before each delivery retry (its length = number of retries). */
  retryDelaysMs?: number[];
  /** Time one delivery attempt may take. */
  deliveryTimeoutMs?: number;
  /** Receives request, delivery and state-error events. */
  log?: (event: SandboxLogEvent) => void;
  /** The clock (tests pin it); with `seed` and no clock, a seeded one. */
  now?: () => Date;
  /** Makes UUIDs, link codes and generated times repeatable (random.ts). */
  seed?: number;
  /** Faults active from the start (faults.ts; checked, FaultSpecError when wrong). */
  faults?: FaultsSpec;
}

export interface SandboxHandle {
  /** e.g. http://127.0.0.1:4010/api */
  baseUrl: string;
  /** e.g. http://127.0.0.1:4010 (link pages live at {publicUrl}/s/<code>) */
  publicUrl: string;
  /** The console: {publicUrl}/ */
  consoleUrl: string;
  apiKey: string;
  host: string;
  port: number;
  /** Received requests, oldest first, when recordRequests is on (else stays empty). */
  requests: RecordedRequest[];
  state: SandboxState;
  deliveries: Deliveries;
  faults: Faults;
  /** What the handlers work with (the library acts on it directly). */
  core: SandboxCore;
  /** True when state was loaded from an existing stateFile. */
  stateLoaded: boolean;
  /** Resolves when all state changes so far are written to the state file. */
  flushState(): Promise<void>;
  /** Stops listening, drops connections, stops deliveries, writes the state. */
  close(): Promise<void>;
}

function displayHost(host: string): string {
  // A wildcard address is not somewhere a client can connect to; name the loopback instead.
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

export async function startSandboxServer(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const host = options.host ?? '127.0.0.1';
  const apiKey = options.apiKey ?? DEFAULT_SANDBOX_API_KEY;
  if (apiKey === '') throw new Error('the sandbox API key must not be empty');
  if (options.seed !== undefined && !isSeed(options.seed)) {
    throw new RangeError(`the seed must be a whole number from 0 to 2^53 - 1, got ${options.seed}`);
  }
  const seeded = options.seed === undefined ? undefined : seededClock();
  const now = options.now ?? seeded?.now ?? (() => new Date());
  const random = options.seed === undefined ? cryptoRandom : seededRandom(options.seed);
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

  if (seeded) state.onChange(seeded.tick);
  const persister = options.stateFile
    ? new StatePersister(options.stateFile, state, (e) =>
        logFn({ type: 'state-error', message: `cannot write ${options.stateFile}: ${e.message}` }),
      )
    : undefined;
  if (persister) {
    state.onChange(() => persister.schedule());
    if (!stateLoaded) persister.schedule();
  }

  const faults = new Faults();
  if (options.faults !== undefined) faults.add(options.faults);
  const deliveries = new Deliveries({
    faults,
    serviceName: options.serviceName ?? DEFAULT_SERVICE_NAME,
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    timeoutMs: options.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS,
    keep: 1000,
    log: logFn,
    random,
    now,
  });

  const requests: RecordedRequest[] = [];
  // Filled in once the port is known.
  const core = {
    state,
    publicUrl: '',
    baseUrl: '',
    serviceName: options.serviceName ?? DEFAULT_SERVICE_NAME,
    hostTimezone,
    deliveries,
    faults,
    random,
    // Only the documented key is ever served without authentication (on loopback, where anyone
    // who can open the page could use it anyway); a key given with --api-key is a secret, so
    // for it the console asks for the key, as on any other address.
    consoleKey: isLoopback(host) && apiKey === DEFAULT_SANDBOX_API_KEY ? apiKey : undefined,
    now,
    log: logFn,
  } satisfies SandboxCore;

  const hostNames = new Set<string>();
  const routes = [
    ...apiRoutes,
    ...controlRoutes,
    ...consoleControlRoutes,
    ...pageRoutes,
    ...consolePageRoutes,
  ];
  const handle = createRequestHandler(core, routes, {
    hostNames,
    faults,
    apiKey,
    maxBodyBytes,
    bodyTimeoutMs: options.bodyTimeoutMs,
    requests: options.recordRequests ? requests : undefined,
    log: logFn,
  });
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
  for (const name of ownHostNames(host, publicUrl)) hostNames.add(name);

  let closing: Promise<void> | undefined;
  return {
    baseUrl: core.baseUrl,
    publicUrl,
    consoleUrl: `${publicUrl}/`,
    apiKey,
    host,
    port,
    requests,
    state,
    deliveries,
    faults,
    core,
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
