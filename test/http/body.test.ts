// One body reader (src/http/body.ts) for every server we run: the sandbox and the webhook
// receiver of `sched webhooks listen` (also the tests' recording receiver). The same table runs
// over each: a body over the cap is answered 413 and never handled; a body that stalls is cut
// off after the timeout instead of holding the connection.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxServer } from '../../src/sandbox/index.js';
import { startReceiver } from '../../src/domain/webhooks/listen/receiver.js';

const CAP = 100;
const TIMEOUT_MS = 50;

interface Caller {
  name: string;
  /** Starts the server with the cap and timeout; `handled` counts bodies that got through. */
  start(): Promise<{
    port: number;
    path: string;
    headers: Record<string, string>;
    handled(): number;
    close(): Promise<void>;
  }>;
}

const callers: Caller[] = [
  {
    name: 'the sandbox',
    async start() {
      const sb = await startSandboxServer({
        port: 0,
        maxBodyBytes: CAP,
        bodyTimeoutMs: TIMEOUT_MS,
        recordRequests: true,
      });
      return {
        port: sb.port,
        path: '/api/webhooks',
        headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' },
        handled: () => sb.state.webhooks.size,
        close: () => sb.close(),
      };
    },
  },
  {
    name: 'the listen receiver',
    async start() {
      let n = 0;
      const rx = await startReceiver({
        port: 0,
        host: '127.0.0.1',
        maxBodyBytes: CAP,
        bodyTimeoutMs: TIMEOUT_MS,
        onBody(_req, _body, res) {
          n += 1;
          res.end('ok');
        },
      });
      return { port: rx.port, path: '/', headers: {}, handled: () => n, close: () => rx.close() };
    },
  },
];

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const x of open.splice(0)) await x.close();
});

/** POSTs `body` with its Content-Length; with `stall`, only its first 10 bytes, then nothing. */
function post(
  target: { port: number; path: string; headers: Record<string, string> },
  body: Buffer,
  stall = false,
): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    const req = request(
      {
        port: target.port,
        host: '127.0.0.1',
        method: 'POST',
        path: target.path,
        headers: { ...target.headers, 'content-length': body.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode }));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    if (stall) req.write(body.subarray(0, 10));
    else req.end(body);
  });
}

describe.each(callers)('request bodies on $name', (caller) => {
  it('answers 413 to a body over the cap and never handles it', async () => {
    const s = await caller.start();
    open.push(s);
    const big = Buffer.from(JSON.stringify({ url: 'https://example.com/' + 'a'.repeat(CAP) }));
    expect(await post(s, big)).toEqual({ status: 413 });
    expect(s.handled()).toBe(0);
  });

  it('cuts off a body that stalls', async () => {
    const s = await caller.start();
    open.push(s);
    const r = await post(s, Buffer.alloc(CAP - 10, 'a'), true);
    expect(r.status).toBeUndefined();
    expect(r.error).toBe('ECONNRESET');
    expect(s.handled()).toBe(0);
  });

  it('hands a body within the cap to its handler', async () => {
    const s = await caller.start();
    open.push(s);
    const ok = Buffer.from(JSON.stringify({ url: 'https://e.io/h', events: ['meetingScheduled'] }));
    const r = await post(s, ok);
    expect(r.status).toBeGreaterThanOrEqual(200);
    expect(r.status).toBeLessThan(300);
    expect(s.handled()).toBe(1);
  });
});
