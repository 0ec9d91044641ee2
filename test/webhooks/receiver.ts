// A tiny recording HTTP receiver for tests: keeps the exact bytes and headers of each request.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** Header names as they came on the wire (for casing checks). */
  rawHeaderNames: string[];
  body: Buffer;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Status (and body) to answer with; default 200 "ok". */
  respond: { status: number; body: string; delayMs?: number };
  /** Resolves when at least n requests have arrived. */
  waitFor(n: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const r: Receiver = {
    url: '',
    received,
    respond: { status: 200, body: 'ok' },
    waitFor(n) {
      return new Promise((resolve) => {
        const check = () => {
          if (received.length >= n) resolve(received);
          else waiters.push(check);
        };
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaderNames: req.rawHeaders.filter((_, i) => i % 2 === 0),
        body: Buffer.concat(chunks),
      });
      const answer = () => {
        res.writeHead(r.respond.status, { 'content-type': 'text/plain' });
        res.end(r.respond.body);
        waiters.splice(0).forEach((w) => w());
      };
      if (r.respond.delayMs) setTimeout(answer, r.respond.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return r;
}
