// A tiny webhook receiver for tests: records each delivery's raw bytes and headers exactly as
// they arrived, and answers with the statuses it is told to (then 200).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once at least `n` requests have arrived. */
  waitFor(n: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(
  opts: { statuses?: number[]; hang?: boolean } = {},
): Promise<Receiver> {
  const statuses = [...(opts.statuses ?? [])];
  const received: Received[] = [];
  const waiters: Array<{ n: number; resolve: (r: Received[]) => void }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        raw: Buffer.concat(chunks),
      });
      for (const w of [...waiters]) {
        if (received.length >= w.n) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(received);
        }
      }
      if (opts.hang) return;
      res.statusCode = statuses.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    waitFor(n) {
      if (received.length >= n) return Promise.resolve(received);
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
