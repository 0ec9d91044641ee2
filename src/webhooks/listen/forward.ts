// Re-sending each received delivery to the app under development (`--forward-to`): the exact
// bytes and the sender's headers, minus those that belong to one connection. Takes a list of
// targets, each optionally limited to some events, so routing by event is a matter of the list.
import type { IncomingHttpHeaders } from 'node:http';
import { postRaw, type PostResult } from '../http.js';

/**
 * Headers that belong to one connection, not to the delivery (RFC 9110 §7.6.1), and those this
 * hop sets itself (host, length, expect); never forwarded.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);

/**
 * Not forwarded either: every `Proxy-*` header (credentials for a proxy, not for the app), and
 * `Forwarded` / `X-Forwarded-*` — the sender is anyone who can reach the listener, and must not
 * choose what the app behind it believes about the client's address, host or scheme.
 */
const NEVER = /^(?:proxy-|x-forwarded-|forwarded$)/;

/** The headers of a received delivery that go on to the --forward-to app. */
export function forwardHeaders(h: IncomingHttpHeaders): Record<string, string | string[]> {
  // Connection names further hop-by-hop headers of this hop: `Connection: close, X-Hop`.
  const named = new Set(
    [h.connection ?? []]
      .flat()
      .flatMap((v) => v.split(','))
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean),
  );
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(h)) {
    const name = k.toLowerCase();
    if (v === undefined || HOP_BY_HOP.has(name) || named.has(name) || NEVER.test(name)) continue;
    out[k] = v;
  }
  return out;
}

export interface ForwardTarget {
  url: URL;
  /** Only deliveries of these events go here; undefined: every delivery. */
  events?: readonly string[];
}

/** What became of one forward: the receiver's status and time, or why there was none. */
/** The receiver's status, or why there was none. */
export type ForwardReport = { url: string; ms: number } & (
  { status: number; error?: never } | { error: string; status?: never }
);

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
