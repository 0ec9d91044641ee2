// Reading a request body on a server we run (the sandbox, `sched webhooks listen`, the test
// receiver): bounded in size and in time, so a client that sends too much or stalls cannot
// hold memory or a connection. A leaf module: node:http types only, nothing of the CLI.
import type { IncomingMessage } from 'node:http';

export type BodyResult =
  | { ok: true; bytes: Buffer }
  | {
      ok: false;
      reason: 'too-large';
      /** The declared Content-Length when there was one, else the bytes seen. */
      size: number;
      /** True when `size` is the declared length of the whole body. */
      declared: boolean;
    }
  | { ok: false; reason: 'aborted' | 'timeout' };

/** How long a body may take to arrive by default. */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

/** Upper bound on what we read and throw away after answering 413, before dropping the socket. */
const DISCARD_LIMIT = 64 * 1024 * 1024;

/**
 * Reads the request body up to `maxBytes` within `timeoutMs`. When it is larger, stops keeping
 * it and reports `too-large` at once; the rest is drained (bounded) so the client still reads
 * the 413 the caller answers. On timeout the request is destroyed.
 */
export function readBody(
  req: IncomingMessage,
  maxBytes: number,
  timeoutMs: number = DEFAULT_BODY_TIMEOUT_MS,
): Promise<BodyResult> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (r: BodyResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const timer = setTimeout(() => {
      finish({ ok: false, reason: 'timeout' });
      req.destroy();
    }, timeoutMs);
    timer.unref();
    if (Number.isFinite(declared) && declared > maxBytes) {
      drain(req);
      finish({ ok: false, reason: 'too-large', size: declared, declared: true });
      return;
    }
    req.on('data', (c: Buffer) => {
      if (settled) return;
      size += c.length;
      if (size > maxBytes) {
        chunks.length = 0;
        drain(req);
        finish({ ok: false, reason: 'too-large', size, declared: false });
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => finish({ ok: true, bytes: Buffer.concat(chunks, size) }));
    req.on('error', () => finish({ ok: false, reason: 'aborted' }));
    req.on('close', () => {
      if (!req.complete) finish({ ok: false, reason: 'aborted' });
    });
  });
}

function drain(req: IncomingMessage): void {
  let discarded = 0;
  req.on('data', (c: Buffer) => {
    discarded += c.length;
    if (discarded > DISCARD_LIMIT) req.socket.destroy();
  });
  req.resume();
}
