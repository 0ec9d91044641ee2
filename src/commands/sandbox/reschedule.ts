// sched sandbox reschedule <meeting-uuid> --at <iso>: moves a meeting in a running sandbox
// (same uuid, same duration), which delivers meetingRescheduled to every subscribed webhook.
import type { Context } from '../../context.js';
import type { SandboxRescheduleOptions } from './inputs.js';
import { checkIsoTime, checkMeetingUuid, meetingAction } from './shared.js';

export async function run(ctx: Context, opts: SandboxRescheduleOptions): Promise<void> {
  const uuid = checkMeetingUuid(opts.meetingUuid);
  const at = checkIsoTime(opts.at);
  await meetingAction(ctx, uuid, 'reschedule', { at }, 'Rescheduled', opts);
}
