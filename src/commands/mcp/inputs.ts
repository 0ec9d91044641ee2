// The options of `sched mcp`, declared once (see ../define.ts): index.ts registers them, and
// serve.ts's run() takes its type from here.
import { flag, input, value, type InputOf } from '../define.js';

/** `--tools a, b`: the names as given, split on commas (spaces around a name ignored). */
function toolList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export const mcpInput = input({
  options: [
    flag('--read-only', 'only tools that change nothing: no links minted (lists, verify, sample)', {
      exclusive: 'access',
    }),
    flag('--allow-write', 'also create_webhook and delete_webhook (off by default)', {
      exclusive: 'access',
    }),
    flag('--sandbox', 'serve against an embedded sandbox: no account, nothing real touched'),
    value(
      '--tools <names>',
      'serve only these tools (comma-separated), within the level: e.g. list_meeting_types,create_single_use_link',
      { parse: toolList },
    ),
  ],
  groups: [
    {
      name: 'access',
      tooMany: '--read-only and --allow-write contradict each other',
      hint: 'give one: --read-only for lists only, --allow-write to also change webhooks',
    },
  ],
});
export type McpOptions = InputOf<typeof mcpInput>;
