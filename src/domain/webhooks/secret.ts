// A signing secret for a new webhook, made when none is given (`webhooks add`,
// `webhooks listen --register`): one home for its strength and form.
import { randomBytes } from 'node:crypto';

/** A strong signing secret: 32 random bytes, base64url (43 characters, no padding). */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}
