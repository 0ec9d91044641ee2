// Re-sending each received delivery to the app under development (`--forward-to`, and
// `sched events replay`): the exact bytes, with only the headers a delivery is made of. Takes a
// list of targets, each optionally limited to some events, so routing by event is a matter of
// the list. A forward that gets no answer, or a 5xx/429, is tried again a bounded number of times.
import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { postRaw, type PostResult } from '../http.js';
import { SIGNATURE_HEADER } from '../signature.js';

/**
 * The headers that go on to the app: what the service sends with a delivery (its content type,
 * its user agent, the signature) and nothing else. Anyone who can reach the listener can add
 * headers; `Authorization`, `Cookie`, `X-Real-IP`, `X-HTTP-Method-Override`, `Forwarded` and the
 * like must not reach the app as if the service had sent them.
 */
export const FORWARDED_HEADERS: readonly string[] = [
  'content-type',
  'user-agent',
  SIGNATURE_HEADER,
];

/** The headers of a received (or recorded) delivery that go on to an app. */
export function forwardHeaders(
  h: IncomingHttpHeaders | Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v !== undefined && FORWARDED_HEADERS.includes(k.toLowerCase())) out[k] = v;
  }
  return out;
}

export interface ForwardTarget {
  url: URL;
  /** Only deliveries of these events go here; undefined: every delivery. */
  events?: readonly string[];
}

/** What became of one forward: the receiver's status and time, or why there was none. */
export type ForwardReport = {
  url: string;
  ms: number;
  /** How many times it was sent (1 when the first try settled it). */
  attempts: number;
} & ({ status: number; error?: never } | { error: string; status?: never });

/** Waits between tries of a failed forward: bounded, a few seconds in all. */
export const FORWARD_RETRY_DELAYS_MS: readonly number[] = [500, 2000];

/** True when a forward's outcome is worth another try: no answer, 429 or 5xx. */
export function retryable(r: PostResult): boolean {
  if (!r.ok) return r.kind !== 'aborted';
  return r.status === 429 || r.status >= 500;
}

/** True when a forward reached the app and it answered 2xx. */
export function forwardOk(f: ForwardReport): boolean {
  return f.status !== undefined && f.status >= 200 && f.status < 300;
}

/** The targets a delivery of `event` goes to, in the order given. */
export function targetsFor(
  targets: readonly ForwardTarget[],
  event: string | undefined,
): ForwardTarget[] {
  return targets.filter((t) => !t.events || (event !== undefined && t.events.includes(event)));
}

export interface ForwardOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Proxy variables, as for API calls (a loopback target never goes through a proxy). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Waits before each retry; default FORWARD_RETRY_DELAYS_MS. */
  retryDelaysMs?: readonly number[];
}

/** Forwards one delivery to each target at once; the reports come in the targets' order. */
export function forwardDelivery(
  targets: readonly ForwardTarget[],
  delivery: { body: Uint8Array; headers: IncomingHttpHeaders },
  opts: ForwardOptions,
): Promise<ForwardReport[]> {
  const headers = forwardHeaders(delivery.headers);
  return Promise.all(targets.map((t) => postWithRetries(t.url, delivery.body, headers, opts)));
}

/** POSTs `body` with `headers` exactly, trying again after each delay while it is retryable. */
export async function postWithRetries(
  url: URL,
  body: Uint8Array,
  headers: Record<string, string | string[]>,
  opts: ForwardOptions,
): Promise<ForwardReport> {
  const delays = opts.retryDelaysMs ?? FORWARD_RETRY_DELAYS_MS;
  let attempts = 0;
  for (;;) {
    attempts += 1;
    const { timeoutMs, signal, env } = opts;
    const r = await postRaw({ url, body, headers, timeoutMs, signal, env });
    const wait = delays[attempts - 1];
    const report: ForwardReport = r.ok
      ? { url: url.toString(), status: r.status, ms: r.ms, attempts }
      : { url: url.toString(), ms: r.ms, attempts, error: r.message };
    if (!retryable(r) || wait === undefined || opts.signal?.aborted) return report;
    // Stopped while waiting: the last outcome stands.
    const stopped = await sleep(wait, undefined, { signal: opts.signal }).then(
      () => false,
      () => true,
    );
    if (stopped) return report;
  }
}
