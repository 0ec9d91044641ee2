// `sched events sample <event>`: a realistic delivery payload for one event, as JSON
// (pretty on a terminal, compact when piped, so `> body.json` gives the bytes a service sends).
import type { Context } from '../../context.js';
import type { EventsSampleOptions } from './inputs.js';
import { checkEventName } from '../../webhooks/event-names.js';
import { sampleDelivery } from '../../webhooks/sample.js';

export async function run(ctx: Context, opts: EventsSampleOptions): Promise<void> {
  const event = checkEventName(opts.event);
  const { payload, body } = sampleDelivery(event);
  const text = ctx.io.stdoutIsTTY ? JSON.stringify(payload, null, 2) : body.toString('utf8');
  await ctx.io.out(text + '\n');
}
