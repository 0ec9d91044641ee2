// sched sandbox cancel <meeting-uuid>: cancels a meeting in a running sandbox, which delivers
// meetingCancelled (with canceled_at and the cancellation) to every subscribed webhook.
import type { Context } from '../../context.js';
import { checkMeetingUuid, meetingAction } from './shared.js';

export async function run(
  ctx: Context,
  args: string[],
  flags: Record<string, unknown>,
): Promise<void> {
  const uuid = checkMeetingUuid(args[0]);
  const reason = flags.reason as string | undefined;
  await meetingAction(ctx, uuid, 'cancel', reason === undefined ? {} : { reason }, 'Cancelled');
}
