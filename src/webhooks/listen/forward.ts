// Re-sending each received delivery to the app under development (`--forward-to`): the exact
// bytes and the sender's headers, minus those that belong to one connection. Takes a list of
// targets, each optionally limited to some events, so routing by event is a matter of the list.
import type { IncomingHttpHeaders } from 'node:http';
import { postRaw, type PostResult } from '../http.js';

/** Headers that belong to one connection, not to the delivery; never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);

export function forwardHeaders(h: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v !== undefined && !HOP_BY_HOP.has(k.toLowerCase())) out[k] = v;
  }
  return out;
}

export interface ForwardTarget {
  url: URL;
  /** Only deliveries of these events go here; undefined: every delivery. */
  events?: readonly string[];
}

/** What became of one forward: the receiver's status and time, or why there was none. */
export interface ForwardReport {
  url: string;
  status?: number;
  ms: number;
  error?: string;
}

/** The targets a delivery of `event` goes to, in the order given. */
export function targetsFor(
  targets: readonly ForwardTarget[],
  event: string | undefined,
): ForwardTarget[] {
  return targets.filter((t) => !t.events || (event !== undefined && t.events.includes(event)));
}

/** Forwards one delivery to each target at once; the reports come in the targets' order. */
export function forwardDelivery(
  targets: readonly ForwardTarget[],
  delivery: { body: Uint8Array; headers: IncomingHttpHeaders },
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<ForwardReport[]> {
  const headers = forwardHeaders(delivery.headers);
  return Promise.all(
    targets.map(async (t) =>
      forwardReport(
        t.url,
        await postRaw({
          url: t.url,
          body: delivery.body,
          headers,
          timeoutMs: opts.timeoutMs,
          signal: opts.signal,
        }),
      ),
    ),
  );
}

function forwardReport(url: URL, r: PostResult): ForwardReport {
  return r.ok
    ? { url: url.toString(), status: r.status, ms: r.ms }
    : { url: url.toString(), ms: r.ms, error: r.message };
}
