// A webhook receiver: an HTTP server that reads each request body (bounded in size and time,
// src/http/body.ts) and hands it over whole. `sched webhooks listen` and the tests' recording
// receiver both run on it; what to answer is theirs to decide.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ByteBudget, DEFAULT_BODY_TIMEOUT_MS, readBody } from '../../../http/body.js';
import { sanitizeCell } from '../../../text/sanitize.js';

/** Bodies above this are refused with 413 by default: no real delivery comes close. */
export const DEFAULT_MAX_DELIVERY_BYTES = 5 * 1024 * 1024;
/**
 * Bytes held across all connections at once (bodies being read, and deliveries being handled
 * or forwarded): beyond it a request is answered 503. Real deliveries are a few KB each.
 */
export const DEFAULT_MAX_HELD_BYTES = 32 * 1024 * 1024;
/** Connections open at once; one more is answered 503 and closed. */
export const DEFAULT_MAX_CONNECTIONS = 128;
/** How long a connection may take to send its request headers. */
const HEADERS_TIMEOUT_MS = 10_000;

/** Why a request was answered 503: too many connections, or too many bytes held. */
export interface Busy {
  kind: 'connections' | 'bytes';
  limit: number;
}

export interface ReceiverOptions {
  port: number;
  host: string;
  maxBodyBytes?: number;
  bodyTimeoutMs?: number;
  /** Bytes held across all connections; default DEFAULT_MAX_HELD_BYTES. */
  maxHeldBytes?: number;
  /** Connections open at once; default DEFAULT_MAX_CONNECTIONS. */
  maxConnections?: number;
  /** Answers a request before its body is read; returns true when it did (health checks). */
  early?(req: IncomingMessage, res: ServerResponse): boolean;
  /**
   * The whole body arrived: answer `res`. Its bytes count against the held-bytes budget until
   * the promise returned (if any) settles, so work done with it afterwards is bounded too.
   */
  onBody(req: IncomingMessage, body: Buffer, res: ServerResponse): void | Promise<unknown>;
  /** A body over `maxBodyBytes` was answered 413. */
  onTooLarge?(info: { size: number; declared: boolean; maxBytes: number }): void;
  /** A request or connection over a bound was answered 503. */
  onBusy?(busy: Busy): void;
  /**
   * Handling a request failed (onBody threw or its promise rejected): it was answered 500 if
   * it was not answered yet, and the receiver goes on. Nothing a request holds can end it.
   */
  onError?(error: unknown): void;
}

export interface Receiver {
  readonly server: Server;
  /** The port listened on (the one the OS chose for port 0). */
  readonly port: number;
  /** Bytes held right now (for tests and the bench). */
  heldBytes(): number;
  /** Stops listening and drops open connections; safe to call twice. */
  close(): Promise<void>;
}

const BUSY_TEXT = 'the listener is busy; retry later\n';
/** Written straight to a connection over the bound: no request has been read from it. */
const BUSY_RESPONSE =
  'HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\nretry-after: 5\r\n' +
  `content-type: text/plain\r\ncontent-length: ${BUSY_TEXT.length}\r\n\r\n${BUSY_TEXT}`;

/** Listens on host:port; rejects with the listen error (EADDRINUSE, EACCES, ...). */
export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const maxBytes = opts.maxBodyBytes ?? DEFAULT_MAX_DELIVERY_BYTES;
  const timeoutMs = opts.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const budget = new ByteBudget(opts.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES);
  const maxConnections = opts.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const refused = new WeakSet<Socket>();

  const busy = (res: ServerResponse, b: Busy) => {
    res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '5', connection: 'close' });
    res.end(BUSY_TEXT);
    opts.onBusy?.(b);
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (opts.early?.(req, res)) return;
    const body = await readBody(req, maxBytes, timeoutMs, budget);
    if (body.ok) {
      try {
        await opts.onBody(req, body.bytes, res);
      } finally {
        budget.give(body.bytes.length);
      }
    } else if (body.reason === 'too-large') {
      res.writeHead(413, { 'content-type': 'text/plain' });
      res.end('payload too large\n');
      opts.onTooLarge?.({ size: body.size, declared: body.declared, maxBytes });
    } else if (body.reason === 'busy') {
      busy(res, { kind: 'bytes', limit: body.limit });
    }
    // Aborted or stalled: the sender is gone (or was cut off); nobody to answer.
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    // A connection over the bound was answered already; whatever it sends is not read.
    if (refused.has(req.socket)) return;
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain', connection: 'close' });
        res.end('the listener could not handle this request\n');
      }
      opts.onError?.(e);
    });
  };
  const { createServer } = await import('node:http');
  const server = createServer({ headersTimeout: HEADERS_TIMEOUT_MS }, onRequest);
  boundConnections(server, maxConnections, refused, opts.onBusy);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  let closing: Promise<void> | undefined;
  return {
    server,
    port: (server.address() as AddressInfo).port,
    heldBytes: () => budget.held,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** At most `max` connections open at once: one more is answered 503 at once and closed. */
function boundConnections(
  server: Server,
  max: number,
  refused: WeakSet<Socket>,
  onBusy: ((busy: Busy) => void) | undefined,
): void {
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    if (open.size >= max) {
      refused.add(socket);
      socket.end(BUSY_RESPONSE);
      // Closed for good shortly after, whatever the client does.
      setTimeout(() => socket.destroy(), 1000).unref();
      onBusy?.({ kind: 'connections', limit: max });
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
}

/**
 * What `sched webhooks listen` answers besides deliveries: GET/HEAD (health checks, a curious
 * browser) say what this is and are not counted; other methods than POST get 405 and a note.
 * Returns true when it answered.
 */
export function answerNonDelivery(
  req: IncomingMessage,
  res: ServerResponse,
  note: (line: string) => void,
): boolean {
  // A server's request always has a method and a URL.
  const method = req.method!;
  if (method === 'GET' || method === 'HEAD') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(method === 'HEAD' ? undefined : 'sched webhooks listen: POST deliveries here\n');
    return true;
  }
  if (method !== 'POST') {
    res.writeHead(405, { allow: 'POST, GET, HEAD', 'content-type': 'text/plain' });
    res.end('POST deliveries here\n');
    note(`note: ${sanitizeCell(method)} ${sanitizeCell(req.url!)} answered 405`);
    return true;
  }
  return false;
}
