// sched sandbox deliveries [--event <name>] [--webhook <uuid>] [--meeting <uuid>]: the
// deliveries a running sandbox keeps, with every attempt (readouts.ts).
import type { Context } from '../../context.js';
import { checkEventName } from '../../domain/webhooks/event-names.js';
import type { SandboxDeliveriesOptions } from './inputs.js';
import { deliveries } from './readouts.js';
import { checkUuid } from './shared.js';

export async function run(ctx: Context, opts: SandboxDeliveriesOptions): Promise<void> {
  await deliveries(ctx, opts, {
    event: opts.event === undefined ? undefined : checkEventName(opts.event),
    webhook: opts.webhook === undefined ? undefined : checkUuid(opts.webhook, 'webhook'),
    meeting: opts.meeting === undefined ? undefined : checkUuid(opts.meeting, 'meeting'),
  });
}
