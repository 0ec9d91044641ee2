// `sched events sample <event>`: a realistic delivery payload (spec 6.1) for one event, as JSON
// (pretty on a terminal, compact when piped, so `> body.json` gives the bytes a service sends).
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { EVENT_NAMES, type EventName } from '../../api/types.js';
import { isEventName } from '../../webhooks/delivery.js';
import { sampleDelivery } from '../../webhooks/sample.js';

/** Checks an event name before anything else happens; exit 2 listing the allowed names. */
export function parseEventArg(value: string | undefined, what = 'event'): EventName {
  const v = (value ?? '').trim();
  if (isEventName(v)) return v;
  const near = EVENT_NAMES.find((n) => n.toLowerCase() === v.toLowerCase());
  throw new UsageError(
    `${v ? `unknown ${what} "${v}"` : `an ${what} name is required`}; use one of: ${EVENT_NAMES.join(', ')}`,
    near ? { hint: `did you mean ${near}? (event names are case-sensitive)` } : {},
  );
}

export async function run(ctx: Context, args: string[]): Promise<void> {
  const event = parseEventArg(args[0]);
  const { payload, body } = sampleDelivery(event);
  const text = ctx.io.stdoutIsTTY ? JSON.stringify(payload, null, 2) : body.toString('utf8');
  await ctx.io.out(text + '\n');
}
