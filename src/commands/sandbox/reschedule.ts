// sched sandbox reschedule <meeting-uuid> --at <iso>: moves a meeting in a running sandbox
// (same uuid, same duration), which delivers meetingRescheduled to every subscribed webhook.
import type { Context } from '../../context.js';
import {
  checkActionResult,
  checkIsoTime,
  checkMeetingUuid,
  controlError,
  printResult,
  sandboxClient,
  type ActionResult,
} from './shared.js';

export async function run(
  ctx: Context,
  args: string[],
  flags: Record<string, unknown>,
): Promise<void> {
  const uuid = checkMeetingUuid(args[0]);
  const at = checkIsoTime(String(flags.at ?? ''));
  const client = await sandboxClient(ctx);
  let result: ActionResult;
  try {
    const res = await client.request<ActionResult>({
      method: 'POST',
      path: `/_sandbox/meetings/${encodeURIComponent(uuid)}/reschedule`,
      body: { at },
      signal: ctx.signal,
    });
    result = checkActionResult(res.body, client);
  } catch (e) {
    throw controlError(e, client, `no meeting ${uuid} in the sandbox at ${client.baseUrl}`);
  }
  await printResult(ctx, client, `Rescheduled meeting ${uuid}`, result);
}
