// sched sandbox cancel <meeting-uuid>: cancels a meeting in a running sandbox, which delivers
// meetingCancelled (with canceled_at and the cancellation) to every subscribed webhook.
import type { Context } from '../../context.js';
import {
  checkActionResult,
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
  const reason = flags.reason as string | undefined;
  const client = await sandboxClient(ctx);
  let result: ActionResult;
  try {
    const res = await client.request<ActionResult>({
      method: 'POST',
      path: `/_sandbox/meetings/${encodeURIComponent(uuid)}/cancel`,
      body: reason === undefined ? {} : { reason },
      signal: ctx.signal,
    });
    result = checkActionResult(res.body, client);
  } catch (e) {
    throw controlError(e, client, `no meeting ${uuid} in the sandbox at ${client.baseUrl}`);
  }
  await printResult(ctx, client, `Cancelled meeting ${uuid}`, result);
}
