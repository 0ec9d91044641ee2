// A tiny recording webhook receiver for tests: keeps the exact bytes and headers of each request
// as they arrived, and answers as it is told to (a queue of statuses, a fixed answer, or never).
// It runs on the receiver `sched webhooks listen` uses (src/domain/webhooks/listen/receiver.ts).
import type { IncomingHttpHeaders } from 'node:http';
import { afterEach } from 'vitest';
import { startReceiver as startBodyReceiver } from '../../src/domain/webhooks/listen/receiver.js';

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
  /** Status (and body) to answer with once `statuses` is used up; default 200 "ok". */
  respond: { status: number; body: string; delayMs?: number };
  /** Resolves when at least n requests have arrived (and been answered, unless `hang`). */
  waitFor(n: number): Promise<Received[]>;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** Path part of `url`; default "/hook". */
  path?: string;
  /** Statuses for the first requests, in order; then `respond.status`. */
  statuses?: number[];
  /** Never answer (to test a sender's timeout). */
  hang?: boolean;
}

export async function startReceiver(opts: ReceiverOptions = {}): Promise<Receiver> {
  const statuses = [...(opts.statuses ?? [])];
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
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
    close: () => server.close(),
  };
  const server = await startBodyReceiver({
    port: 0,
    host: '127.0.0.1',
    // Tests send what they like; only a runaway sender is cut off.
    maxBodyBytes: 64 * 1024 * 1024,
    onBody(req, body, res) {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaderNames: req.rawHeaders.filter((_, i) => i % 2 === 0),
        body,
      });
      if (opts.hang) return wake();
      const answer = () => {
        res.writeHead(statuses.shift() ?? r.respond.status, { 'content-type': 'text/plain' });
        res.end(r.respond.body);
        wake();
      };
      if (r.respond.delayMs) setTimeout(answer, r.respond.delayMs);
      else answer();
    },
  });
  r.url = `http://127.0.0.1:${server.port}${opts.path ?? '/hook'}`;
  return r;
}

/** A starter whose receivers are closed after each test of the file that calls it. */
export function receiversClosedAfterEach(): (opts?: ReceiverOptions) => Promise<Receiver> {
  const open: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
  });
  return async (opts) => {
    const r = await startReceiver(opts);
    open.push(r);
    return r;
  };
}
