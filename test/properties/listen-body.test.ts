// The listener's body and its signature diagnosis against adversarial shapes: nesting up to
// 100,000 deep, sizes at and just past the caps, invalid UTF-8, many tiny items. For every one,
// everything the listener does with a body it did not verify — the verdict, the diagnosis and
// its likely cause, the delivery record and its --json line, the recording's line — finishes
// (within the test's timeout, no speed assertion) without throwing, and a diagnosis that
// skipped a check says so.
import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { fc } from '../helpers/fc.js';
import {
  diagnoseSignature,
  jsonDepth,
  likelyCause,
  RESERIALISE_MAX_BYTES,
  RESERIALISE_MAX_DEPTH,
  signPayload,
} from '../../src/domain/webhooks/signature.js';
import { deliveryRecord, signatureVerdict } from '../../src/domain/webhooks/listen/record.js';
import { captureOf, capturedBody } from '../../src/domain/webhooks/listen/capture.js';
import { DEFAULT_MAX_DELIVERY_BYTES } from '../../src/domain/webhooks/listen/receiver.js';
import { jsonText } from '../../src/output/json-value.js';

const SECRET = 'prop-secret';

/** `open` repeated `depth` times, `inner`, then the matching closers. */
function nested(depth: number, inner: string, kind: 'array' | 'object' | 'mixed'): Buffer {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    const obj = kind === 'object' || (kind === 'mixed' && i % 2 === 1);
    open += obj ? '{"a":' : '[';
    close = (obj ? '}' : ']') + close;
  }
  return Buffer.from(open + inner + close);
}

const deep = fc
  .record({
    depth: fc.oneof(
      fc.integer({ min: 1, max: 100 }),
      fc.constantFrom(RESERIALISE_MAX_DEPTH, RESERIALISE_MAX_DEPTH + 1, 10_000, 100_000),
    ),
    kind: fc.constantFrom('array' as const, 'object' as const, 'mixed' as const),
    inner: fc.constantFrom('0', '"x"', '"[[[{{"', 'null', ''),
  })
  .map(
    ({ depth, kind, inner }) =>
      () =>
        nested(depth, inner, kind),
  );

/** Sizes at and just past the caps: the diagnosis's and the listener's. */
const sized = fc
  .record({
    size: fc.constantFrom(
      RESERIALISE_MAX_BYTES - 1,
      RESERIALISE_MAX_BYTES,
      RESERIALISE_MAX_BYTES + 1,
      DEFAULT_MAX_DELIVERY_BYTES,
    ),
    shape: fc.constantFrom('tiny-items', 'string', 'deep-zeros'),
  })
  .map(({ size, shape }) => () => {
    if (shape === 'string') return Buffer.from(`"${'x'.repeat(size - 2)}"`);
    if (shape === 'tiny-items') {
      const n = Math.floor((size - 2) / 2);
      return Buffer.from(`[${'0,'.repeat(n - 1)}0]`.padEnd(size, ' '));
    }
    const wrap = 1000;
    const n = Math.floor((size - 2 * wrap) / 2);
    return Buffer.from(
      ('['.repeat(wrap) + '0,'.repeat(n - 1) + '0' + ']'.repeat(wrap)).slice(0, size),
    );
  });

const invalidUtf8 = fc
  .uint8Array({ minLength: 0, maxLength: 4096 })
  .map((b) =>
    Buffer.concat([
      Buffer.from('{"event":"meetingScheduled","x":"'),
      Buffer.from(b),
      Buffer.from([0xff, 0xfe, 0xc0]),
      Buffer.from('"}'),
    ]),
  );

const tinyItems = fc
  .record({
    n: fc.integer({ min: 0, max: 200_000 }),
    item: fc.constantFrom('0', '{}', '[]', '""', 'null'),
  })
  .map(
    ({ n, item }) =>
      () =>
        Buffer.from(`[${Array(n).fill(item).join(',')}]`),
  );

const fakeRequest = (signature: string) =>
  ({
    method: 'POST',
    url: '/hook',
    headers: { 'webhook-signature': signature, 'content-type': 'application/json' },
    rawHeaders: ['webhook-signature', signature, 'content-type', 'application/json'],
  }) as unknown as IncomingMessage;

/** All the listener does with an unverified body; returns the likely cause. */
function handleUnverified(body: Buffer, signature: string): string {
  const verdict = signatureVerdict(SECRET, signature, body);
  expect(verdict).toBe('invalid');
  const diagnoses = diagnoseSignature({ secret: SECRET, received: signature, payload: body });
  const cause = likelyCause(diagnoses, { kept: true, bytes: body.length });
  const req = fakeRequest(signature);
  const record = deliveryRecord(req, body, {
    receivedAt: new Date(0),
    signature: verdict,
    signatureReason: cause,
    duplicate: false,
  });
  expect(typeof jsonText(record)).toBe('string');
  const line = JSON.stringify(
    captureOf(
      { method: 'POST', path: '/hook', rawHeaders: req.rawHeaders, body },
      {
        receivedAt: new Date(0),
        event: null,
        uuid: null,
        signature: verdict,
        signatureReason: cause,
      },
    ),
  );
  expect(capturedBody(JSON.parse(line)).equals(body)).toBe(true);
  return cause;
}

/** What the reason must say of a body the re-serialised check cannot afford. */
function expectSkipSaid(body: Buffer, cause: string) {
  const over =
    body.length > RESERIALISE_MAX_BYTES ||
    jsonDepth(body, RESERIALISE_MAX_DEPTH) > RESERIALISE_MAX_DEPTH;
  expect(cause.includes('not checked for a re-serialised JSON body')).toBe(over);
}

describe('the listener with a body it did not verify', () => {
  it('any nesting up to 100,000 deep: handled, and a skipped check is said', () => {
    fc.assert(
      fc.property(deep, fc.constantFrom('AAAA', 'sha256=00', 'v1,AAAA', ' x '), (make, sig) => {
        const body = make();
        expectSkipSaid(body, handleUnverified(body, sig));
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('sizes at and just past the caps', () => {
    fc.assert(
      fc.property(sized, (make) => {
        const body = make();
        expectSkipSaid(body, handleUnverified(body, 'AAAA'));
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it('invalid UTF-8: handled, recorded byte-exact', () => {
    fc.assert(
      fc.property(invalidUtf8, (body) => {
        handleUnverified(body, 'AAAA');
      }),
    );
  }, 120_000);

  it('many tiny items', () => {
    fc.assert(
      fc.property(tinyItems, (make) => {
        const body = make();
        expectSkipSaid(body, handleUnverified(body, signPayload('another', body)));
      }),
      { numRuns: 20 },
    );
  }, 120_000);

  it('the bracket scan matches the parser on what it can parse', () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'medium' }), (text) => {
        const depthOf = (v: unknown): number =>
          v !== null && typeof v === 'object'
            ? 1 + Math.max(0, ...Object.values(v as object).map(depthOf))
            : 0;
        expect(jsonDepth(Buffer.from(text))).toBe(depthOf(JSON.parse(text)));
      }),
    );
  });
});
