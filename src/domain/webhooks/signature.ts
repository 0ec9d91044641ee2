// Webhook signatures (the `webhook-signature` header): base64 of the raw HMAC-SHA256 digest of the exact body bytes,
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

/**
 * Whether a signature value as received (a header, or pasted: whitespace around it is not part
 * of it) is the expected one.
 */
export function receivedMatches(expected: string, received: string): boolean {
  return signaturesEqual(expected, received.trim());
}

export function verifySignature(
  secret: string | Uint8Array,
  payload: string | Uint8Array,
  received: string,
): boolean {
  return receivedMatches(signPayload(secret, payload), received);
}

/** HMAC-SHA256 of the raw bytes as a Buffer (for hex comparisons in diagnoses). */
export function digestOf(secret: string | Uint8Array, payload: string | Uint8Array): Buffer {
  return createHmac('sha256', secret).update(payload).digest();
}

export interface StreamedSignature {
  /** base64 of the raw digest, as the service sends it. */
  signature: string;
  digest: Buffer;
  bytes: number;
  /** The payload itself, kept only when it is at most `keepUpTo` bytes (for diagnoses). */
  body: Buffer | undefined;
}

/** Default cap on the bytes kept for diagnoses; the signature itself has no size limit. */
export const DIAGNOSIS_LIMIT = 16 * 1024 * 1024;

/**
 * Signs a payload that arrives in chunks, without ever needing it whole: each chunk goes
 * through the HMAC as it comes, byte for byte (strings are taken as UTF-8).
 */
export async function signStream(
  secret: string | Uint8Array,
  source: AsyncIterable<Uint8Array | string>,
  keepUpTo: number = DIAGNOSIS_LIMIT,
): Promise<StreamedSignature> {
  const hmac = createHmac('sha256', secret);
  let kept: Buffer[] | undefined = [];
  let bytes = 0;
  for await (const chunk of source) {
    const buf =
      typeof chunk === 'string'
        ? Buffer.from(chunk, 'utf8')
        : Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(chunk);
    hmac.update(buf);
    bytes += buf.length;
    if (kept && bytes <= keepUpTo) kept.push(buf);
    else kept = undefined;
  }
  const digest = hmac.digest();
  return {
    signature: digest.toString('base64'),
    digest,
    bytes,
    body: kept ? Buffer.concat(kept) : undefined,
  };
}

export interface DiagnosisInput {
  secret: string;
  /** The value that failed, as received (untrimmed). */
  received: string;
  /** The payload, or undefined when it was too large to keep. */
  payload: Buffer | undefined;
  /**
   * The value came from a caller who must not learn the secret (an MCP client, which a prompt
   * injection can steer): it is never compared with the secret itself, which would make the
   * diagnosis an oracle for guesses.
   */
  untrusted?: boolean;
}

export interface Diagnosis {
  /** One sentence for a human. */
  reason: string;
  /** True when correcting exactly this mistake makes the signature match. */
  confirmed: boolean;
  /** True when this mistake was not checked (the body is too large or too deep for it). */
  skipped?: true;
}

/**
 * The re-serialised JSON check parses the body and writes it out again four ways (compact,
 * pretty with 2 and 4 spaces, escaped slashes): its cost grows with the body's size times its
 * depth (each pretty line is indented by its depth), and JSON.stringify recurses once per
 * level. Past these bounds it is skipped, and the diagnosis says so; every other check is a
 * fixed number of HMACs over the body, linear in its size. Real deliveries are a few KB,
 * nested 4 or 5 levels deep.
 */
export const RESERIALISE_MAX_BYTES = 256 * 1024;
export const RESERIALISE_MAX_DEPTH = 32;

/**
 * How deep the JSON in `bytes` nests (arrays and objects; brackets inside strings do not
 * count), scanning no further than it takes to pass `stopAt`. Linear, no recursion, no parse.
 */
export function jsonDepth(bytes: Uint8Array, stopAt = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === 0x5c)
        i++; // a backslash escapes the next byte
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      depth++;
      if (depth > max) max = depth;
      if (max > stopAt) return max;
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  return max;
}

/** Why the re-serialised JSON check is not run on `payload`, or undefined when it is. */
function reserialiseSkipped(payload: Buffer): string | undefined {
  const why =
    payload.length > RESERIALISE_MAX_BYTES
      ? `the body is over ${RESERIALISE_MAX_BYTES / 1024} KiB`
      : jsonDepth(payload, RESERIALISE_MAX_DEPTH) > RESERIALISE_MAX_DEPTH
        ? `the body nests over ${RESERIALISE_MAX_DEPTH} levels deep`
        : undefined;
  return why && `not checked for a re-serialised JSON body (${why})`;
}

function b64Matches(secret: string, payload: Uint8Array, candidate: string): boolean {
  return signaturesEqual(signPayload(secret, payload), candidate);
}

const HEX_DIGEST = /^[0-9a-f]{64}$/i;
const GITHUB_PREFIX = 'sha256=';

/**
 * A value as standard padded base64: base64url's "-" and "_" (RFC 4648 §5) as "+" and "/", and
 * "=" padding (none, or too much) as the length needs. Anything that is not base64 stays so.
 */
function asStandardBase64(value: string): string {
  const bare = value.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  return bare + '='.repeat((4 - (bare.length % 4)) % 4);
}

/**
 * Why a signature most likely failed, for a human: the mistakes people make with this scheme
 * (hex instead of base64, the Standard Webhooks `v1,` format, the secret sent as the signature,
 * whitespace around the secret, a trailing newline, a re-serialised JSON body). Empty when
 * nothing known explains it. Call it only after verification failed: it recomputes HMACs of
 * variants, which is fine for a diagnosis and pointless otherwise.
 */
export function diagnoseSignature(input: DiagnosisInput): Diagnosis[] {
  const { secret, payload } = input;
  const received = input.received.trim();
  const out: Diagnosis[] = [];
  const add = (confirmed: boolean, reason: string) => out.push({ reason, confirmed });
  const skip = (reason: string) => out.push({ reason, confirmed: false, skipped: true });
  if (received === '') {
    add(false, 'the signature value is empty (was the webhook-signature header sent?)');
    return out;
  }
  const digest = payload ? digestOf(secret, payload) : undefined;
  const matchesBase64 = (v: string) => (payload ? b64Matches(secret, payload, v) : false);
  const matchesHex = (v: string) => Boolean(digest && v.toLowerCase() === digest.toString('hex'));

  if (HEX_DIGEST.test(received)) {
    const ok = matchesHex(received);
    add(
      ok,
      ok
        ? 'the signature is hex, but the service sends base64 of the raw digest; as hex it matches, so only the encoding is wrong (use digest("base64"))'
        : 'the signature is hex, but the service sends base64 of the raw digest (and as hex it does not match this payload and secret either)',
    );
  }

  const prefixed = received.toLowerCase().startsWith(GITHUB_PREFIX)
    ? received.slice(GITHUB_PREFIX.length)
    : undefined;
  if (prefixed) {
    const ok = matchesBase64(prefixed) || matchesHex(prefixed);
    add(
      ok,
      `the signature has a "sha256=" prefix (GitHub style); the service sends the bare base64 value${ok ? ', and without the prefix it matches' : ''}`,
    );
  }

  // The group is not optional: every match has it.
  const sw = [...received.matchAll(/(?:^|\s)v1[,=]([A-Za-z0-9+/=_-]+)/g)].map(
    (m) => m[1] as string,
  );
  if (sw.length > 0) {
    const ok = sw.some((v) => matchesBase64(v));
    add(
      ok,
      'this looks like a Standard Webhooks signature ("v1,<base64>"): a different scheme, which signs "<webhook-id>.<webhook-timestamp>.<body>"; this service signs the raw body alone' +
        (payload
          ? ok
            ? ' — the base64 part does match the raw body, so drop the "v1," prefix'
            : ' — the base64 part does not match the raw body either'
          : ''),
    );
  }

  const standard = asStandardBase64(received);
  if (standard !== received && matchesBase64(standard)) {
    add(
      true,
      /[-_]/.test(received)
        ? 'the signature is base64url ("-" and "_" for "+" and "/"); the service uses standard base64, and converted it matches'
        : 'the signature\'s "=" padding is missing or wrong; the service sends standard base64 padded with "=", and padded so it matches',
    );
  }

  if (input.untrusted !== true && received === secret.trim()) {
    add(
      false,
      'the signature value is the secret itself: the header carries HMAC-SHA256(secret, body), never the secret',
    );
  }

  if (secret !== secret.trim()) {
    const ok = payload ? b64Matches(secret.trim(), payload, received) : false;
    add(
      ok,
      ok
        ? 'the secret has leading or trailing whitespace (a copied newline?); trimmed, the signature matches'
        : 'the secret has leading or trailing whitespace (a copied newline?); trimming it does not make it match either',
    );
  }

  if (payload) {
    const nl = /\r?\n$/.exec(payload.toString('latin1'));
    if (nl) {
      // CRLF added, or LF added to a body that ended with CR: try both cuts.
      const unsigned = (cut: number) =>
        b64Matches(secret, payload.subarray(0, payload.length - cut), received);
      if (unsigned(nl[0].length) || (nl[0].length === 2 && unsigned(1))) {
        add(
          true,
          'the payload ends with a newline that was not signed (an editor, echo or a heredoc adds one); without it the signature matches — use the body bytes exactly as received',
        );
      }
    } else if (
      b64Matches(secret, Buffer.concat([payload, Buffer.from('\n')]), received) ||
      b64Matches(secret, Buffer.concat([payload, Buffer.from('\r\n')]), received)
    ) {
      add(
        true,
        'the signed payload ended with a newline that this one lacks; with it the signature matches — use the body bytes exactly as received',
      );
    }
    const skipped = reserialiseSkipped(payload);
    const reserialised = skipped ? undefined : reserialisedMatch(secret, payload, received);
    if (skipped) skip(skipped);
    else if (reserialised) {
      add(
        true,
        `the signature matches this payload ${reserialised}, not its exact bytes: the JSON was parsed and re-encoded on one side — sign and verify the raw body bytes as received`,
      );
    }
  }
  return out;
}

function reserialisedMatch(secret: string, payload: Buffer, received: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
  const compact = JSON.stringify(parsed);
  const variants: Array<[string, string]> = [
    ['re-serialised as compact JSON (JSON.stringify(JSON.parse(body)))', compact],
    ['pretty-printed with 2 spaces', JSON.stringify(parsed, null, 2)],
    ['pretty-printed with 4 spaces', JSON.stringify(parsed, null, 4)],
    ['re-serialised with escaped slashes (PHP json_encode)', compact.replace(/\//g, '\\/')],
  ];
  // The payload give or take a trailing newline is the newline mistake, diagnosed on its own:
  // naming it re-serialisation too would blame a JSON round trip that never happened.
  const text = payload.toString('utf8');
  const bare = text.replace(/\r?\n$/, '');
  const newlineOnly = new Set([text, bare, `${bare}\n`, `${bare}\r\n`]);
  for (const [how, variant] of variants) {
    // A file saved from a terminal or `> body.json` ends with a newline, and so was signed with
    // one: `sched events sample > body.json`, signed, then pretty-printed by `jq .`.
    for (const [tail, said] of [
      ['', ''],
      ['\n', ' (with a trailing newline)'],
    ] as const) {
      const candidate = variant + tail;
      if (newlineOnly.has(candidate)) continue;
      if (b64Matches(secret, Buffer.from(candidate, 'utf8'), received)) return how + said;
    }
  }
  return undefined;
}

/** When no known mistake explains a mismatch. */
export const NO_KNOWN_CAUSE =
  'no common mistake explains it: the payload bytes or the secret differ from what was signed';

/** When the payload was too large to keep for a diagnosis. */
export function notDiagnosed(bytes: number): string {
  return `the payload (${bytes} bytes) is over ${DIAGNOSIS_LIMIT / 1024 / 1024} MiB, so it was not checked for common mistakes`;
}

/**
 * The one likely cause named beside an invalid verdict (`sig verify --json`'s `reason`, the
 * line and `signatureReason` of `webhooks listen`): the first confirmed diagnosis, else the
 * first thing to check, else why nothing is known (`unexplained`, by default NO_KNOWN_CAUSE),
 * followed by the checks that were skipped.
 */
export function likelyCause(
  diagnoses: readonly Diagnosis[],
  payload: { kept: boolean; bytes: number },
  unexplained: string = NO_KNOWN_CAUSE,
): string {
  const confirmed = diagnoses.find((d) => d.confirmed);
  if (confirmed) return confirmed.reason;
  if (!payload.kept) return notDiagnosed(payload.bytes);
  const pick = diagnoses.find((d) => !d.skipped);
  const skipped = diagnoses.filter((d) => d.skipped).map((d) => d.reason);
  return [pick ? pick.reason : unexplained, ...skipped].join('; ');
}
