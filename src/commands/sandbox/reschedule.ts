// sched sandbox reschedule <meeting-uuid> --at <iso>: moves a meeting in a running sandbox
// (same uuid, same duration), which delivers meetingRescheduled to every subscribed webhook.
import type { Context } from '../../context.js';
import { checkIsoTime, checkMeetingUuid, meetingAction } from './shared.js';

export async function run(
  ctx: Context,
  args: string[],
  flags: Record<string, unknown>,
): Promise<void> {
  const uuid = checkMeetingUuid(args[0]);
  const at = checkIsoTime(String(flags.at ?? ''));
  await meetingAction(ctx, uuid, 'reschedule', { at }, 'Rescheduled');
}
