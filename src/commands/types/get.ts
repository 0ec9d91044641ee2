// sched types get <uuid|slug|name>: one meeting type, found as `link create` finds it.
import type { Context } from '../../context.js';
import type { TypesGetOptions } from './inputs.js';
import { getMeetingType } from './meeting-types.js';
import { COLUMNS } from './list.js';

export async function run(ctx: Context, opts: TypesGetOptions): Promise<void> {
  const client = await ctx.api();
  const type = await getMeetingType(ctx, client, opts.meetingType);
  const { show } = await import('../../output/render.js');
  await show(ctx.io, ctx.globals, {
    records: [type],
    one: true,
    columns: COLUMNS,
    lines: (t) => t.uuid,
  });
}
