// `sched events sample <event>`: a realistic delivery payload for one event, as JSON
// (pretty on a terminal, compact when piped, so `> body.json` gives the bytes a service sends).
// --override/--override-new change fields first (src/domain/webhooks/override.ts).
import type { Context } from '../../context.js';
import type { EventsSampleOptions } from './inputs.js';
import { checkEventName } from '../../domain/webhooks/event-names.js';
import { sampleDelivery } from '../../domain/webhooks/sample.js';
import { overridesOf } from '../../domain/webhooks/override.js';
import { show } from '../../output/render.js';
import { overridden } from './payload.js';

export async function run(ctx: Context, opts: EventsSampleOptions): Promise<void> {
  const event = checkEventName(opts.event);
  const overrides = overridesOf(opts);
  const sample = sampleDelivery(event);
  // Always JSON (the payload is the result): compact in a pipe, the very bytes sent.
  const { payload } = overrides.length > 0 ? overridden(sample.payload, overrides) : sample;
  await show(ctx.io, ctx.globals, { records: [payload], one: true });
}
