// diagnoseSignature over every mistake it names: for each, what a user is told and whether it
// is confirmed (correcting exactly that mistake makes the signature match).
import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { diagnoseSignature, signStream } from '../../../src/domain/webhooks/signature.js';

const b64 = (secret: string, body: string) =>
  createHmac('sha256', secret).update(body).digest('base64');
const hex = (secret: string, body: string) =>
  createHmac('sha256', secret).update(body).digest('hex');
const BODY = '{"event":"meetingScheduled"}';
const PRETTY = JSON.stringify(JSON.parse(BODY), null, 2);
/** base64url (RFC 4648 §5): "-" and "_" for "+" and "/". */
const url = (b64value: string) => b64value.replace(/\+/g, '-').replace(/\//g, '_');

describe('diagnoseSignature', () => {
  it.each([
    {
      case: 'an empty value',
      received: '  ',
      want: [[false, /signature value is empty/]],
    },
    {
      case: 'hex that matches',
      received: hex('k', BODY),
      want: [[true, /is hex.*as hex it matches/]],
    },
    {
      case: 'hex that does not match',
      received: hex('other', BODY),
      want: [[false, /is hex.*does not match this payload/]],
    },
    {
      case: 'sha256= with the base64 value',
      received: `sha256=${b64('k', BODY)}`,
      want: [[true, /"sha256=" prefix.*without the prefix it matches/]],
    },
    {
      case: 'sha256= with the hex value',
      // The prefix is confirmed: without it, the value matches as hex.
      received: `sha256=${hex('k', BODY)}`,
      want: [[true, /"sha256=" prefix.*without the prefix it matches/]],
    },
    {
      case: 'SHA256= in capitals',
      received: `SHA256=${b64('k', BODY)}`,
      want: [[true, /"sha256=" prefix.*without the prefix it matches/]],
    },
    {
      case: 'a value that only contains "sha256=" is not said to have the prefix',
      received: `hmac-sha256=${b64('k', BODY)}`,
      want: [],
    },
    {
      case: 'a hex digest followed by more is not called hex',
      received: `${hex('k', BODY)},t=1700000000`,
      want: [],
    },
    {
      case: 'sha256= with a wrong value',
      received: `sha256=${b64('other', BODY)}`,
      want: [
        [false, /"sha256=" prefix \(GitHub style\); the service sends the bare base64 value$/],
      ],
    },
    {
      case: 'Standard Webhooks v1, that matches',
      received: `v1,${b64('k', BODY)}`,
      want: [[true, /Standard Webhooks.*does match the raw body/]],
    },
    {
      case: 'Standard Webhooks v1, that does not match',
      received: `v1,${b64('other', BODY)}`,
      want: [[false, /Standard Webhooks.*does not match the raw body either/]],
    },
    {
      // Several space-separated signatures (a secret being rotated): one matching is enough.
      case: 'Standard Webhooks with several values, the second one matching',
      received: `v1,${b64('other', BODY)} v1,${b64('k', BODY)}`,
      want: [[true, /Standard Webhooks.*does match the raw body/]],
    },
    {
      case: 'base64 without its "=" padding',
      received: b64('k', BODY).replace(/=+$/, ''),
      want: [[true, /"=" padding is missing or wrong.*padded so it matches/]],
    },
    {
      case: 'base64 with too much "=" padding',
      received: `${b64('k', BODY)}==`,
      want: [[true, /"=" padding is missing or wrong.*padded so it matches/]],
    },
    {
      case: 'a stray "=" inside the value is not called a padding mistake',
      received: `${b64('k', BODY).slice(0, 10)}=${b64('k', BODY).slice(10)}`,
      want: [],
    },
    {
      case: 'base64url with its "=" padding (Python urlsafe_b64encode)',
      secret: 'k2',
      received: url(b64('k2', 'x?>>')),
      body: 'x?>>',
      want: [[true, /base64url.*converted it matches/]],
    },
    {
      // JavaScript's "+/".replace("+", "-") replaces the first one only.
      case: 'base64 half converted to base64url',
      received: b64('k', BODY).replace('/', '_'),
      want: [[true, /base64url.*converted it matches/]],
    },
    {
      case: 'base64url',
      secret: 'k2',
      received: b64('k2', 'x?>>').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
      body: 'x?>>',
      want: [[true, /base64url/]],
    },
    {
      case: 'the secret sent as the signature',
      received: 'k',
      want: [[false, /the secret itself/]],
    },
    {
      case: 'the secret, trimmed, sent as the signature',
      secret: ' k\n',
      received: 'k',
      want: [
        [false, /the secret itself/],
        [false, /whitespace.*trimming it does not make it match either/],
      ],
    },
    {
      case: 'a secret with whitespace, trimmed on the sender',
      secret: 'k\n',
      received: b64('k', BODY),
      want: [[true, /whitespace.*trimmed, the signature matches/]],
    },
    {
      case: 'a payload that lost the signed newline',
      received: b64('k', `${BODY}\n`),
      want: [[true, /signed payload ended with a newline that this one lacks/]],
    },
    {
      case: 'a payload that lost the signed CRLF',
      received: b64('k', `${BODY}\r\n`),
      want: [[true, /signed payload ended with a newline that this one lacks/]],
    },
    {
      case: 'a payload with an unsigned newline',
      received: b64('k', BODY),
      body: `${BODY}\n`,
      want: [[true, /ends with a newline that was not signed/]],
    },
    {
      case: 'a payload ending in a newline, signed with another secret',
      received: b64('other', `${BODY}\n`),
      body: `${BODY}\n`,
      want: [],
    },
    {
      case: 'a payload ending in CRLF, signed with another secret',
      received: b64('other', `${BODY}\r\n`),
      body: `${BODY}\r\n`,
      want: [],
    },
    {
      // `jq . body.json` prints a newline the file may lack: the body has lines of its own.
      case: 'a payload of several lines that lost the signed newline',
      received: b64('k', `${PRETTY}\n`),
      body: PRETTY,
      want: [[true, /signed payload ended with a newline that this one lacks/]],
    },
    {
      case: 'a payload of several lines with an unsigned newline is not called re-serialised',
      received: b64('k', PRETTY),
      body: `${PRETTY}\n`,
      want: [[true, /ends with a newline that was not signed/]],
    },
    {
      case: 'pretty-printed JSON',
      received: b64('k', PRETTY),
      want: [[true, /pretty-printed with 2 spaces/]],
    },
    {
      case: 'JSON pretty-printed with 4 spaces',
      received: b64('k', JSON.stringify(JSON.parse(BODY), null, 4)),
      want: [[true, /matches this payload pretty-printed with 4 spaces, not its exact bytes/]],
    },
    {
      case: 'a body that is not JSON, signed with another secret',
      received: b64('other', 'plain'),
      body: 'plain',
      want: [],
    },
  ])('$case', ({ secret = 'k', received, body = BODY, want }) => {
    const got = diagnoseSignature({ secret, received, payload: Buffer.from(body) });
    expect(got).toEqual(
      (want as Array<[boolean, RegExp]>).map(([confirmed, reason]) => ({
        confirmed,
        reason: expect.stringMatching(reason) as unknown as string,
      })),
    );
  });

  it('without the payload (too large to keep), names only what the value itself shows', () => {
    const d = (secret: string, received: string) =>
      diagnoseSignature({ secret, received, payload: undefined });
    expect(d('k', hex('k', BODY))).toEqual([
      { confirmed: false, reason: expect.stringMatching(/is hex.*does not match/) },
    ]);
    expect(d('k', `sha256=${b64('k', BODY)}`)).toEqual([
      { confirmed: false, reason: expect.stringMatching(/"sha256=" prefix/) },
    ]);
    expect(d('k', `v1,${b64('k', BODY)}`)).toEqual([
      {
        confirmed: false,
        reason: expect.stringMatching(/Standard Webhooks.*this service signs the raw body alone$/),
      },
    ]);
    expect(d('k\n', b64('k', BODY))).toEqual([
      { confirmed: false, reason: expect.stringMatching(/whitespace.*does not make it match/) },
    ]);
  });
});

describe('signStream', () => {
  it('takes strings, Buffers and plain Uint8Arrays alike', async () => {
    async function* parts() {
      yield '{"a":';
      yield new Uint8Array([0x31]);
      yield Buffer.from('}');
    }
    const s = await signStream('k', parts());
    expect(s.signature).toBe(b64('k', '{"a":1}'));
    expect(s.body?.toString()).toBe('{"a":1}');
  });
});
