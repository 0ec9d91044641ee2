// One HTTP POST of raw bytes with exactly the given headers, as a webhook sender does it:
// `sched events send`, `sched events replay` and `webhooks listen --forward-to` use it. It goes
// through the one HTTP client (api/exchange.ts) with a receiver's policy: no API key, no
// retries (a forwarder retries as it chooses), no redirects followed, the body never re-encoded;
// a failure is worded where every failure is (api/wording.ts).
import { sendToReceiver, type ReceiverRequest } from '../../api/exchange.js';
import { receiverFailure } from '../../api/wording.js';

/** What is sent and how long it may take; `env` gives the proxy variables (none: direct). */
export type PostInput = ReceiverRequest;

export type PostResult =
  | {
      ok: true;
      status: number;
      statusText: string;
      ms: number;
      /** Lower-case names; repeated headers joined with ", ". */
      headers: Record<string, string>;
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

/** POSTs once. Never throws for network trouble: the caller decides what an answer means. */
export async function postRaw(input: PostInput): Promise<PostResult> {
  const r = await sendToReceiver(input);
  if (r.kind === 'answer') {
    const { status, statusText, ms, headers, body } = r;
    return { ok: true, status, statusText, ms, headers, body };
  }
  if (r.kind === 'aborted') return { ok: false, kind: 'aborted', message: 'interrupted', ms: r.ms };
  const f = r.failure;
  const kind =
    f.kind === 'refused'
      ? 'refused'
      : f.kind === 'timeout' || f.kind === 'connect-timeout'
        ? 'timeout'
        : 'network';
  return { ok: false, kind, message: receiverFailure(f, input.timeoutMs, r.proxied), ms: r.ms };
}
