// `sched events sample <event>`: a realistic delivery payload for one event, as JSON
// (pretty on a terminal, compact when piped, so `> body.json` gives the bytes a service sends).
import type { Context } from '../../context.js';
import type { EventsSampleOptions } from './inputs.js';
import { checkEventName } from '../../webhooks/event-names.js';
import { sampleDelivery } from '../../webhooks/sample.js';
import { renderObject } from '../../output/render.js';

export async function run(ctx: Context, opts: EventsSampleOptions): Promise<void> {
  const event = checkEventName(opts.event);
  // Always JSON (the payload is the result): compact in a pipe, the very bytes sent.
  const { payload } = sampleDelivery(event);
  await renderObject(ctx.io, payload, { format: 'json', columns: [] });
}
