// sched sandbox meetings: every meeting of a running sandbox (readouts.ts).
import type { Context } from '../../context.js';
import type { SandboxMeetingsOptions } from './inputs.js';
import { meetings } from './readouts.js';

export async function run(ctx: Context, opts: SandboxMeetingsOptions): Promise<void> {
  await meetings(ctx, opts);
}
