// A webhook receiver: an HTTP server that reads each request body (bounded in size and time,
// src/http/body.ts) and hands it over whole. `sched webhooks listen` and the tests' recording
// receiver both run on it; what to answer is theirs to decide.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_BODY_TIMEOUT_MS, readBody } from '../../http/body.js';
import { sanitizeCell } from '../../output/sanitize.js';

/** Bodies above this are refused with 413 by default: no real delivery comes close. */
export const DEFAULT_MAX_DELIVERY_BYTES = 5 * 1024 * 1024;

export interface ReceiverOptions {
  port: number;
  host: string;
  maxBodyBytes?: number;
  bodyTimeoutMs?: number;
  /** Answers a request before its body is read; returns true when it did (health checks). */
  early?(req: IncomingMessage, res: ServerResponse): boolean;
  /** The whole body arrived: answer `res`. */
  onBody(req: IncomingMessage, body: Buffer, res: ServerResponse): void;
  /** A body over `maxBodyBytes` was answered 413. */
  onTooLarge?(info: { size: number; declared: boolean; maxBytes: number }): void;
}

export interface Receiver {
  readonly server: Server;
  /** The port listened on (the one the OS chose for port 0). */
  readonly port: number;
  /** Stops listening and drops open connections; safe to call twice. */
  close(): Promise<void>;
}

/** Listens on host:port; rejects with the listen error (EADDRINUSE, EACCES, ...). */
export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const maxBytes = opts.maxBodyBytes ?? DEFAULT_MAX_DELIVERY_BYTES;
  const timeoutMs = opts.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (opts.early?.(req, res)) return;
    void readBody(req, maxBytes, timeoutMs).then((body) => {
      if (body.ok) {
        opts.onBody(req, body.bytes, res);
      } else if (body.reason === 'too-large') {
        res.writeHead(413, { 'content-type': 'text/plain' });
        res.end('payload too large\n');
        opts.onTooLarge?.({ size: body.size, declared: body.declared, maxBytes });
      }
      // Aborted or stalled: the sender is gone (or was cut off); nobody to answer.
    });
  };
  const { createServer } = await import('node:http');
  const server = createServer(onRequest);
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
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
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
