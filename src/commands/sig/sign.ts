// `sched sig sign`: base64 HMAC-SHA256 of the exact payload bytes, i.e. the value the
// service puts in `webhook-signature`. The payload is streamed, so its size does not matter.
import type { Context } from '../../context.js';
import type { SigSignOptions } from './inputs.js';
import { payloadSource, requireSecret, signPayloadSource } from '../../domain/webhooks/input.js';
import { renderEvent } from '../../output/render.js';

export async function run(ctx: Context, flags: SigSignOptions): Promise<void> {
  const src = await payloadSource(ctx, flags.payloadFile);
  const secret = await requireSecret(ctx, flags.secret, 'to sign');
  const { signature } = await signPayloadSource(ctx, src, secret);
  await renderEvent(ctx.io, ctx.globals, { signature }, [signature]);
}
