// One HTTP POST of raw bytes with exactly the given headers, as a webhook sender does it:
// `sched events send` and `webhooks listen --forward-to` use it. node:http(s) rather than the
// API client: no API key, no retries, no redirects followed, and the body is never re-encoded.
import type { IncomingHttpHeaders } from 'node:http';

export interface PostInput {
  url: URL;
  body: Uint8Array;
  headers: Record<string, string | string[] | undefined>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes of the answer kept (the rest is read and dropped). */
  keepResponseBytes?: number;
}

export type PostResult =
  | {
      ok: true;
      status: number;
      statusText: string;
      ms: number;
      headers: IncomingHttpHeaders;
      /** The start of the answer body. */
      body: Buffer;
    }
  | {
      ok: false;
      kind: 'refused' | 'timeout' | 'aborted' | 'network';
      /** Why there was no answer, for a human: "connection refused", "no answer within 30 s". */
      message: string;
      ms: number;
    };

/** Why a POST got no answer, for a human. */
export function networkMessage(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ECONNREFUSED':
      return 'connection refused (is the receiver running?)';
    case 'ECONNRESET':
      return 'the connection was reset before an answer';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name does not resolve (${e.code})`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host is unreachable';
    default:
      return e.code ? `${e.message} (${e.code})` : e.message;
  }
}

/** POSTs once. Never throws for network trouble: the caller decides what an answer means. */
export async function postRaw(input: PostInput): Promise<PostResult> {
  const mod =
    input.url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  const keep = input.keepResponseBytes ?? 64 * 1024;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(input.headers)) if (v !== undefined) headers[k] = v;
  headers['content-length'] = String(input.body.byteLength);

  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (r: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', onAbort);
      resolve(r);
    };
    // agent: false — one fresh connection per delivery, like a webhook sender; a pooled
    // keep-alive socket to a receiver that restarted would fail with a reset instead.
    const req = mod.request(input.url, { method: 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (c: Buffer) => {
        if (kept < keep) {
          chunks.push(c.subarray(0, keep - kept));
          kept += c.length;
        }
      });
      res.on('end', () =>
        finish({
          ok: true,
          // A client's response always has both (only a server's requests lack them).
          status: res.statusCode!,
          statusText: res.statusMessage!,
          ms: elapsed(),
          headers: res.headers,
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', (e: NodeJS.ErrnoException) =>
        finish({ ok: false, kind: 'network', message: networkMessage(e), ms: elapsed() }),
      );
    });
    const timer = setTimeout(() => {
      finish({
        ok: false,
        kind: 'timeout',
        message: `no answer within ${input.timeoutMs / 1000} s`,
        ms: elapsed(),
      });
      req.destroy();
    }, input.timeoutMs);
    const onAbort = () => {
      finish({ ok: false, kind: 'aborted', message: 'interrupted', ms: elapsed() });
      req.destroy();
    };
    if (input.signal?.aborted) onAbort();
    input.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e: NodeJS.ErrnoException) =>
      finish({
        ok: false,
        kind: e.code === 'ECONNREFUSED' ? 'refused' : 'network',
        message: networkMessage(e),
        ms: elapsed(),
      }),
    );
    req.end(input.body);
  });
}
