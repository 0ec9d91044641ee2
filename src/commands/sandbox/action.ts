// sched sandbox <verb> <meeting-uuid> for each meeting action of the sandbox (cancel,
// reschedule, …; their rows in src/sandbox/actions.ts): checks the meeting UUID and --at
// locally (ISO 8601 with an offset), then asks the running sandbox to do it,
// which delivers the row's event to every subscribed webhook.
import type { Context } from '../../context.js';
import { actionPath, SANDBOX_ACTIONS, type ActionVerb } from '../../sandbox/actions.js';
import type { SandboxActionOptions } from './inputs.js';
import { invocationOf } from '../../text/hints.js';
import { callControl, checkIsoTime, checkUuid, printResult, sandboxClient } from './shared.js';

/** The run of the meeting action `verb`. */
export function runAction(verb: ActionVerb) {
  const row = SANDBOX_ACTIONS[verb];
  return {
    async run(ctx: Context, opts: SandboxActionOptions): Promise<void> {
      const uuid = checkUuid(opts.meetingUuid, 'meeting', invocationOf(ctx.globals));
      const body: Record<string, string> = {};
      if (opts.at !== undefined) body.at = checkIsoTime(opts.at);
      if (opts.reason !== undefined) body.reason = opts.reason;
      const client = await sandboxClient(ctx, opts);
      const path = actionPath(verb, encodeURIComponent(uuid));
      const notFound = `no meeting ${uuid} in the sandbox at ${client.baseUrl}`;
      const result = await callControl(ctx, client, path, body, notFound);
      await printResult(ctx, client, `${row.done} meeting ${uuid}`, result);
    },
  };
}
