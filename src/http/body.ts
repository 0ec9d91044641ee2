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
  | { ok: false; reason: 'aborted' | 'timeout' }
  /** The bytes held across every request of the server would go over its budget. */
  | { ok: false; reason: 'busy'; limit: number };

/**
 * Bytes held across every request a server is reading (and whatever it keeps afterwards): one
 * budget shared by all connections, so many senders together cannot hold more than `limit`.
 */
export class ByteBudget {
  held = 0;
  constructor(readonly limit: number) {}
  /** Takes `n` bytes when they fit; false (nothing taken) when they do not. */
  take(n: number): boolean {
    if (this.held + n > this.limit) return false;
    this.held += n;
    return true;
  }
  give(n: number): void {
    this.held = Math.max(0, this.held - n);
  }
}

/** How long a body may take to arrive by default. */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

/** Upper bound on what we read and throw away after answering 413, before dropping the socket. */
const DISCARD_LIMIT = 64 * 1024 * 1024;

/**
 * Reads the request body up to `maxBytes` within `timeoutMs`. When it is larger, stops keeping
 * it and reports `too-large` at once; the rest is drained (bounded) so the client still reads
 * the 413 the caller answers. On timeout the request is destroyed.
 *
 * With a `budget`, every byte kept is taken from it as it arrives; when the budget is spent the
 * body is dropped (its bytes given back, the rest drained) and the result is `busy`. A body
 * read whole keeps its bytes taken: the caller gives `bytes.length` back when done with it.
 */
export function readBody(
  req: IncomingMessage,
  maxBytes: number,
  timeoutMs: number = DEFAULT_BODY_TIMEOUT_MS,
  budget?: ByteBudget,
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
      // Only a body handed over whole keeps its bytes taken.
      if (!r.ok) budget?.give(size);
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
      if (size + c.length > maxBytes) {
        chunks.length = 0;
        drain(req);
        const seen = size + c.length;
        finish({ ok: false, reason: 'too-large', size: seen, declared: false });
        return;
      }
      if (budget && !budget.take(c.length)) {
        chunks.length = 0;
        drain(req);
        finish({ ok: false, reason: 'busy', limit: budget.limit });
        return;
      }
      size += c.length;
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
