// `sched sig verify`: recomputes the signature over the exact payload bytes and compares it in
// constant time. Exit 0 + "valid", or exit 1 + "invalid" with the likely reason on stderr
// (with --json: {"valid","reason"}, the reason null when valid).
import type { Context } from '../../context.js';
import type { SigVerifyOptions } from './inputs.js';
import { Failure, UsageError } from '../../errors.js';
import { payloadSource, requireSecret, signPayloadSource } from '../../domain/webhooks/input.js';
import {
  diagnoseSignature,
  likelyCause,
  NO_KNOWN_CAUSE,
  notDiagnosed,
  receivedMatches,
} from '../../domain/webhooks/signature.js';
import { renderEvent } from '../../output/render.js';

export async function run(ctx: Context, flags: SigVerifyOptions): Promise<void> {
  const received = flags.signature;
  if (received.trim() === '') {
    throw new UsageError('--signature is empty', {
      hint: 'pass the webhook-signature header value exactly as received',
    });
  }
  const src = await payloadSource(ctx, flags.payloadFile);
  const secret = await requireSecret(ctx, flags.secret, 'to verify');
  const signed = await signPayloadSource(ctx, src, secret);
  const valid = receivedMatches(signed.signature, received);
  const reasons = valid ? [] : diagnoseSignature({ secret, received, payload: signed.body });
  const reason = valid
    ? null
    : likelyCause(reasons, { kept: signed.body !== undefined, bytes: signed.bytes });
  await renderEvent(ctx.io, ctx.globals, { valid, reason }, [valid ? 'valid' : 'invalid']);
  if (valid) return;

  const details = reasons.map(
    (d) => `${d.confirmed ? 'cause' : d.skipped ? 'skipped' : 'check'}: ${d.reason}`,
  );
  const explained = reasons.some((d) => !d.skipped);
  if (!explained) details.unshift(signed.body ? NO_KNOWN_CAUSE : notDiagnosed(signed.bytes));
  throw new Failure(`the signature does not match the payload from ${src.label}`, {
    details,
    hint: !explained
      ? "use the webhook's own secret and the raw body exactly as received (before any JSON parsing)"
      : undefined,
  });
}
