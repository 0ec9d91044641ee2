// Webhook signatures (spec 6.2): base64 of the raw HMAC-SHA256 digest of the exact body bytes,
// keyed with the webhook's secret. Pure functions over bytes; shared by the CLI and the sandbox.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'webhook-signature';

export function signPayload(secret: string | Uint8Array, payload: string | Uint8Array): string {
  return createHmac('sha256', secret).update(payload).digest('base64');
}

/** Constant-time comparison of a received signature with the expected one. */
export function signaturesEqual(expected: string, received: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(received, 'utf8');
  if (a.length !== b.length) {
    // Compare anyway so the time taken does not depend on where the strings differ.
    timingSafeEqual(a, a);
    return false;
  }
  return timingSafeEqual(a, b);
}

export function verifySignature(
  secret: string | Uint8Array,
  payload: string | Uint8Array,
  received: string,
): boolean {
  return signaturesEqual(signPayload(secret, payload), received.trim());
}
