// sched sandbox deliveries [--event <name>] [--webhook <uuid>] [--meeting <uuid>]: the
// deliveries a running sandbox keeps, with every attempt (readouts.ts).
import type { Context } from '../../context.js';
import { checkEventName } from '../../domain/webhooks/event-names.js';
import type { SandboxDeliveriesOptions } from './inputs.js';
import { deliveries } from './readouts.js';
import { checkUuid } from './shared.js';
import { invocationOf } from '../../text/hints.js';

export async function run(ctx: Context, opts: SandboxDeliveriesOptions): Promise<void> {
  const inv = invocationOf(ctx.globals);
  await deliveries(ctx, opts, {
    event: opts.event === undefined ? undefined : checkEventName(opts.event),
    webhook: opts.webhook === undefined ? undefined : checkUuid(opts.webhook, 'webhook', inv),
    meeting: opts.meeting === undefined ? undefined : checkUuid(opts.meeting, 'meeting', inv),
  });
}
