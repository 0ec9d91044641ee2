import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  diagnoseSignature,
  signPayload,
  signStream,
  verifySignature,
} from '../../../src/domain/webhooks/signature.js';

const sig = (secret: string, body: string | Buffer) =>
  createHmac('sha256', secret).update(body).digest('base64');

describe('signature', () => {
  // Regressions found by test/properties/signature.test.ts: an unsigned trailing newline is
  // named, and named alone.
  it.each([
    // Only a whole CRLF was tried as the added newline.
    { case: 'LF added to a body ending in CR', secret: 'AAAA', signed: '\r', got: '\r\n' },
    // The compact re-serialisation of "0\n" is "0" too: it was also confirmed as "re-serialised".
    { case: 'a JSON body with an unsigned LF', secret: '!', signed: '0', got: '0\n' },
  ])('$case: the unsigned newline alone is confirmed', ({ secret, signed, got }) => {
    const d = diagnoseSignature({
      secret,
      received: sig(secret, signed),
      payload: Buffer.from(got),
    });
    expect(d.filter((x) => x.confirmed).map((x) => x.reason)).toEqual([
      expect.stringMatching(/ends with a newline that was not signed/),
    ]);
  });

  it('signs and verifies base64 HMAC-SHA256 of the bytes', () => {
    expect(signPayload('k', 'abc')).toBe(sig('k', 'abc'));
    expect(verifySignature('k', 'abc', sig('k', 'abc'))).toBe(true);
    expect(verifySignature('k', 'abd', sig('k', 'abc'))).toBe(false);
    expect(verifySignature('k', 'abc', 'short')).toBe(false);
  });

  it('signs a stream chunk by chunk and keeps the body only up to the limit', async () => {
    const parts = ['{"a":', Buffer.from('1'), '}'];
    const small = await signStream('k', Readable.from(parts));
    expect(small).toMatchObject({ signature: sig('k', '{"a":1}'), bytes: 7 });
    expect(small.body?.toString()).toBe('{"a":1}');
    const big = await signStream('k', Readable.from(parts), 4);
    expect(big.signature).toBe(sig('k', '{"a":1}'));
    expect(big.body).toBeUndefined();
  });

  it('marks a diagnosis confirmed only when the corrected value matches', () => {
    const body = Buffer.from('{"event":"meetingScheduled","data":{"url":"https://x/y"}}');
    const hex = createHmac('sha256', 'k').update(body).digest('hex');
    expect(diagnoseSignature({ secret: 'k', received: hex, payload: body })).toEqual([
      { confirmed: true, reason: expect.stringMatching(/hex/) as unknown as string },
    ]);
    const php = sig('k', body.toString().replace(/\//g, '\\/'));
    expect(diagnoseSignature({ secret: 'k', received: php, payload: body })).toEqual([
      { confirmed: true, reason: expect.stringMatching(/escaped slashes/) as unknown as string },
    ]);
    expect(diagnoseSignature({ secret: 'k', received: sig('other', body), payload: body })).toEqual(
      [],
    );
    // Without the payload (too large to keep) only what the value alone shows is said.
    const noBody = diagnoseSignature({
      secret: 'k',
      received: `v1,${sig('k', body)}`,
      payload: undefined,
    });
    expect(noBody).toHaveLength(1);
    expect(noBody[0]?.confirmed).toBe(false);
  });
});
