// sched sandbox <verb> <meeting-uuid> for each meeting action of the sandbox (cancel,
// reschedule, …; their rows in src/sandbox/actions.ts): checks the meeting UUID and the row's
// options locally (a time is ISO 8601 with an offset), then asks the running sandbox to do it,
// which delivers the row's event to every subscribed webhook.
import type { Context } from '../../context.js';
import { SANDBOX_ACTIONS, type ActionVerb } from '../../sandbox/actions.js';
import type { SandboxActionOptions } from './inputs.js';
import { checkIsoTime, checkMeetingUuid, meetingAction } from './shared.js';

/** The option name commander gives a field's flag (`--reason <text>` is `reason`). */
function optionKey(flags: string): string {
  return flags.replace(/^--([\w-]+).*$/, '$1').replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
}

/** The run of the meeting action `verb`. */
export function runAction(verb: ActionVerb) {
  const row = SANDBOX_ACTIONS[verb];
  return {
    async run(ctx: Context, opts: SandboxActionOptions): Promise<void> {
      const uuid = checkMeetingUuid(opts.meetingUuid);
      const body: Record<string, string> = {};
      for (const field of row.cli.fields ?? []) {
        const key = optionKey(field.flags);
        const given = opts[key];
        if (given !== undefined) body[key] = field.time ? checkIsoTime(given) : given;
      }
      await meetingAction(ctx, uuid, verb, body, row.done, opts);
    },
  };
}
