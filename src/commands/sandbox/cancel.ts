// sched sandbox cancel <meeting-uuid>: cancels a meeting in a running sandbox, which delivers
// meetingCancelled (with canceled_at and the cancellation) to every subscribed webhook.
import type { Context } from '../../context.js';
import type { SandboxCancelOptions } from './inputs.js';
import { checkMeetingUuid, meetingAction } from './shared.js';

export async function run(ctx: Context, opts: SandboxCancelOptions): Promise<void> {
  const uuid = checkMeetingUuid(opts.meetingUuid);
  const reason = opts.reason;
  await meetingAction(
    ctx,
    uuid,
    'cancel',
    reason === undefined ? {} : { reason },
    'Cancelled',
    opts,
  );
}
