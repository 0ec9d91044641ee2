/**
 * A small API server for bulk tests: it mints single-use links and serves a long meeting-type
 * list, and it records what a user would want proven — how many requests were in flight when
 * each arrived, how many links it really created (and which), how many TCP connections were
 * opened — while it plays a rate limit or faults.
 *
 * ```ts
 * const srv = await startBulkServer({ maxInFlight: 3 });   // 429 when more than 3 in flight
 * srv.set({ delayMs: () => 20, fault: (n) => (n === 40 ? 'reset-after' : undefined) });
 * ... run `sched link create <uuid> --count 100` with env srv.env ...
 * srv.created   // links the server minted, in creation order
 * ```
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What to do with the n-th processed request (1-based, 429s not counted):
 * - 'reset-before': the connection is cut before anything is created
 * - 'reset-after':  the link is created, then the connection is cut (the client cannot know)
 * - 503 / 500:      an error answer; nothing created
 */
export type BulkFault = 'reset-before' | 'reset-after' | 503 | 500 | undefined;

export interface BulkBehaviour {
  /** Answer 429 to a request arriving while more than this many are in flight. */
  maxInFlight?: number;
  /** Retry-After sent with the 429 (seconds, e.g. "0.05"). */
  retryAfter?: string;
  /**
   * How long a 429 takes to be answered (ms, default 0). While it waits it counts as in
   * flight, so `inFlight` shows how many requests the client really had out at once.
   */
  rateLimitDelayMs?: number;
  /** Delay before a processed request is answered (ms). */
  delayMs?: (n: number) => number;
  /** `page` is the page asked for, for list requests. */
  fault?: (n: number, kind: 'link' | 'page', page: number | undefined) => BulkFault;
  /** Called when the n-th request is processed (e.g. to press Ctrl-C part-way). */
  onProcessed?: (n: number) => void;
  /** Meeting types (and webhooks) in the lists (default 0). */
  listTotal?: number;
}

export interface Arrival {
  method: string;
  path: string;
  /** Requests in flight when this one arrived, itself included. */
  inFlight: number;
  /** 429 or the status it got (0 for a reset). */
  status: number;
}

export interface BulkServer {
  readonly baseUrl: string;
  /** Env for runSched/spawnSched; add SCHED_CONFIG_DIR. */
  readonly env: { SCHED_BASE_URL: string; SCHED_API_KEY: string };
  readonly arrivals: Arrival[];
  /** Links minted, in creation order. */
  readonly created: Array<{ code: string; url: string; meetingType: string }>;
  /** TCP connections accepted so far. */
  connections(): number;
  rateLimited(): number;
  set(b: BulkBehaviour): void;
  reset(b?: BulkBehaviour): void;
  close(): Promise<void>;
}

export function typeItem(i: number): Record<string, unknown> {
  return {
    uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name: `Type ${i}`,
    slug: `type-${i}`,
    duration: 30,
    position: i,
  };
}

export function webhookItem(i: number): Record<string, unknown> {
  return {
    uuid: `11111111-0000-4000-8000-${String(i).padStart(12, '0')}`,
    url: `https://hooks.example/${i}`,
    events: ['meetingScheduled'],
  };
}

export async function startBulkServer(initial: BulkBehaviour = {}): Promise<BulkServer> {
  let b: BulkBehaviour = initial;
  const arrivals: Arrival[] = [];
  const created: BulkServer['created'] = [];
  let active = 0;
  let processed = 0;
  let connections = 0;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      active += 1;
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        active -= 1;
      };
      res.on('close', finish);
      const u = new URL(req.url ?? '/', 'http://x');
      const arrival: Arrival = {
        method: req.method ?? 'GET',
        path: u.pathname,
        inFlight: active,
        status: 0,
      };
      arrivals.push(arrival);
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        arrival.status = status;
        const text = JSON.stringify(body);
        res.writeHead(status, {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
          ...headers,
        });
        res.end(text);
        finish();
      };
      if (b.maxInFlight !== undefined && active > b.maxInFlight) {
        const headers: Record<string, string> = b.retryAfter ? { 'retry-after': b.retryAfter } : {};
        return later(b.rateLimitDelayMs ?? 0, () =>
          send(429, { message: 'Too many requests' }, headers),
        );
      }
      const n = ++processed;
      b.onProcessed?.(n);
      const isLink = req.method === 'POST' && u.pathname === '/api/single-use-link';
      const isWebhooks = req.method === 'GET' && u.pathname === '/api/webhooks';
      const isList =
        (req.method === 'GET' && u.pathname === '/api/users/me/meeting-types') || isWebhooks;
      const fault = b.fault?.(
        n,
        isLink ? 'link' : 'page',
        isList ? Number(u.searchParams.get('page') ?? 1) : undefined,
      );
      const answer = () => {
        if (fault === 'reset-before') return req.socket.destroy();
        if (fault === 503 || fault === 500) return send(fault, { message: 'Service Unavailable' });
        if (isLink) {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
            meeting_type_uuid?: string;
          };
          const code = `c${String(n).padStart(6, '0')}`;
          const link = { code, url: `https://book.example/s/${code}` };
          created.push({ ...link, meetingType: body.meeting_type_uuid ?? '' });
          if (fault === 'reset-after') return req.socket.destroy();
          return send(200, link);
        }
        if (isList) {
          const limit = Number(u.searchParams.get('limit') ?? 10);
          const page = Number(u.searchParams.get('page') ?? 1);
          const total = b.listTotal ?? 0;
          const pages = Math.ceil(total / limit);
          const items: unknown[] = [];
          for (let i = (page - 1) * limit; i < Math.min(total, page * limit); i++) {
            items.push(isWebhooks ? webhookItem(i) : typeItem(i));
          }
          if (fault === 'reset-after') return req.socket.destroy();
          return send(200, { page, limit, pages, total, _embedded: { items } });
        }
        return send(404, { message: 'Not found.' });
      };
      later(b.delayMs?.(n) ?? 0, answer);
    });
  });
  const later = (ms: number, fn: () => void) => {
    if (ms <= 0) return fn();
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  server.keepAliveTimeout = 30_000;
  server.on('connection', (s) => {
    connections += 1;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}/api`;
  return {
    baseUrl,
    env: { SCHED_BASE_URL: baseUrl, SCHED_API_KEY: 'test-key' },
    arrivals,
    created,
    connections: () => connections,
    rateLimited: () => arrivals.filter((a) => a.status === 429).length,
    set(next) {
      b = { ...b, ...next };
    },
    reset(next = {}) {
      b = next;
      arrivals.length = 0;
      created.length = 0;
      processed = 0;
      connections = 0;
      for (const s of sockets) s.destroy();
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
