// What `sched webhooks listen` knows about one received delivery: the signature verdict and the
// record printed as one NDJSON line with --json (and rendered as a line of text without).
import type { IncomingMessage } from 'node:http';
import { summarizeDelivery } from '../delivery.js';
import { SIGNATURE_HEADER, verifySignature } from '../signature.js';
import type { ForwardReport } from './forward.js';

export type Verdict = 'valid' | 'invalid' | 'missing' | 'unchecked';

export interface DeliveryRecord {
  receivedAt: string;
  method: string;
  path: string;
  event: string | null;
  uuid: string | null;
  meeting: string | null;
  invitee: { name: string | null; email: string | null } | null;
  start: string | null;
  signature: Verdict;
  /** For an invalid signature, its likely cause (the one `sig verify` names); else null. */
  signatureReason: string | null;
  duplicate: boolean;
  userAgent: string | null;
  contentType: string | null;
  bytes: number;
  json: boolean;
  payload: unknown;
  /** The raw body as text, only when it is not JSON. */
  body?: string;
  forward?: ForwardReport;
}

/**
 * The signature header of a request, when it has one. Node joins a repeated header of this
 * kind into one string ("a, b"), which then verifies as no signature does.
 */
export function signatureHeader(req: IncomingMessage): string | undefined {
  return req.headers[SIGNATURE_HEADER] as string | undefined;
}

export function signatureVerdict(
  secret: string | undefined,
  header: string | undefined,
  body: Uint8Array,
): Verdict {
  if (!secret) return 'unchecked';
  if (header === undefined) return 'missing';
  return verifySignature(secret, body, header) ? 'valid' : 'invalid';
}

/** The record of a delivery as received (no forward yet). */
export function deliveryRecord(
  req: IncomingMessage,
  body: Buffer,
  seen: { receivedAt: Date; signature: Verdict; signatureReason?: string; duplicate: boolean },
): DeliveryRecord {
  const s = summarizeDelivery(body);
  return {
    receivedAt: seen.receivedAt.toISOString(),
    // A server's request always has a method and a URL.
    method: req.method!,
    path: req.url!,
    event: s.event ?? null,
    uuid: s.uuid ?? null,
    meeting: s.meetingUuid ?? null,
    invitee:
      s.inviteeName !== undefined || s.inviteeEmail !== undefined
        ? { name: s.inviteeName ?? null, email: s.inviteeEmail ?? null }
        : null,
    start: s.start ?? null,
    signature: seen.signature,
    signatureReason: seen.signatureReason ?? null,
    duplicate: seen.duplicate,
    userAgent: req.headers['user-agent'] ?? null,
    contentType: req.headers['content-type'] ?? null,
    bytes: body.length,
    json: s.json,
    payload: s.json ? s.payload : null,
    ...(s.json ? {} : { body: body.toString('utf8') }),
  };
}
