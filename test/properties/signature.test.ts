// Webhook signatures (src/domain/webhooks/signature.ts) on any secret and payload: sign then verify is
// valid; any one changed bit of the payload or the secret, or any one changed character of
// the signature, is invalid; the diagnosis never blames a valid pair and names the mistake
// that was made.
import { describe, expect, it } from 'vitest';
import { fc } from '../helpers/fc.js';
import {
  diagnoseSignature,
  signPayload,
  signStream,
  verifySignature,
} from '../../src/domain/webhooks/signature.js';

const secret = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
  fc.base64String({ minLength: 4, maxLength: 44 }),
);
const payload = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
  fc.json({ maxDepth: 2 }).map((j) => Buffer.from(j, 'utf8')),
);

function flipBit(buf: Buffer, bit: number): Buffer {
  const out = Buffer.from(buf);
  out[Math.floor(bit / 8)]! ^= 1 << (bit % 8);
  return out;
}

describe('webhook signatures (property)', () => {
  it('sign then verify is valid, and a streamed signature is the same', async () => {
    await fc.assert(
      fc.asyncProperty(
        secret,
        payload,
        fc.array(fc.nat(), { maxLength: 4 }),
        async (s, p, cuts) => {
          const sig = signPayload(s, p);
          expect(verifySignature(s, p, sig)).toBe(true);
          const points = [...new Set(cuts.map((c) => c % (p.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...points, p.length]
            .slice(0, -1)
            .map((from, i, all) => p.subarray(from, all[i + 1] ?? p.length));
          async function* source() {
            yield* chunks;
          }
          expect((await signStream(s, source())).signature).toBe(sig);
        },
      ),
    );
  });

  it('any one changed bit of the payload makes it invalid', () => {
    fc.assert(
      fc.property(
        secret,
        payload.filter((p) => p.length > 0),
        fc.nat(),
        (s, p, bit) => {
          const sig = signPayload(s, p);
          expect(verifySignature(s, flipBit(p, bit % (p.length * 8)), sig)).toBe(false);
        },
      ),
    );
  });

  it('any one changed bit of the secret makes it invalid', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 100 }).map((a) => Buffer.from(a)),
        payload,
        fc.nat(),
        (key, p, bit) => {
          const sig = signPayload(key, p);
          expect(verifySignature(flipBit(key, bit % (key.length * 8)), p, sig)).toBe(false);
        },
      ),
    );
  });

  it('any one changed character of the signature makes it invalid', () => {
    const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=';
    fc.assert(
      fc.property(secret, payload, fc.nat(), fc.nat(), (s, p, at, by) => {
        const sig = signPayload(s, p);
        const i = at % sig.length;
        const options = B64.replace(sig[i]!, '');
        const changed = sig.slice(0, i) + options[by % options.length]! + sig.slice(i + 1);
        expect(verifySignature(s, p, changed)).toBe(false);
      }),
    );
  });

  it('the diagnosis never confirms a mistake for a valid pair', () => {
    fc.assert(
      fc.property(secret, payload, (s, p) => {
        const sig = signPayload(s, p);
        const confirmed = diagnoseSignature({ secret: s, received: sig, payload: p }).filter(
          (d) => d.confirmed,
        );
        expect(confirmed).toEqual([]);
      }),
    );
  });

  it('the diagnosis confirms the mistake that was made, and no other', () => {
    const MISTAKES: Array<{
      name: string;
      make: (s: string, p: Buffer) => { received: string; payload: Buffer } | undefined;
      named: RegExp;
    }> = [
      {
        name: 'hex',
        make: (s, p) => ({
          received: Buffer.from(signPayload(s, p), 'base64').toString('hex'),
          payload: p,
        }),
        named: /is hex/,
      },
      {
        name: 'sha256= prefix',
        make: (s, p) => ({ received: `sha256=${signPayload(s, p)}`, payload: p }),
        named: /"sha256=" prefix/,
      },
      {
        name: 'Standard Webhooks',
        make: (s, p) => ({ received: `v1,${signPayload(s, p)}`, payload: p }),
        named: /Standard Webhooks/,
      },
      {
        name: 'base64url',
        make: (s, p) => {
          const sig = signPayload(s, p);
          if (!/[+/]/.test(sig)) return undefined;
          return {
            received: sig.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
            payload: p,
          };
        },
        named: /base64url/,
      },
      {
        name: 'newline added after signing',
        make: (s, p) =>
          /\n$/.test(p.toString('latin1'))
            ? undefined
            : { received: signPayload(s, p), payload: Buffer.concat([p, Buffer.from('\n')]) },
        named: /ends with a newline that was not signed/,
      },
    ];
    fc.assert(
      fc.property(
        secret.filter((s) => s.trim() === s),
        payload,
        fc.nat({ max: MISTAKES.length - 1 }),
        (s, p, m) => {
          const mistake = MISTAKES[m]!;
          const input = mistake.make(s, p);
          fc.pre(input !== undefined);
          expect(verifySignature(s, input!.payload, input!.received)).toBe(false);
          const confirmed = diagnoseSignature({ secret: s, ...input! }).filter((d) => d.confirmed);
          expect(confirmed.map((d) => d.reason)).toEqual([expect.stringMatching(mistake.named)]);
        },
      ),
    );
  });
});
