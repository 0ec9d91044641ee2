// sched types get <uuid|slug|name>: one meeting type, found as `link create` finds it.
import type { Context } from '../../context.js';
import type { TypesGetOptions } from './inputs.js';
import { getMeetingType } from './meeting-types.js';
import { quietOutput } from '../listing.js';
import { COLUMNS } from './list.js';

export async function run(ctx: Context, opts: TypesGetOptions): Promise<void> {
  const client = await ctx.api();
  const type = await getMeetingType(ctx, client, opts.meetingType);
  const { renderLines, renderObject } = await import('../../output/render.js');
  if (quietOutput(ctx)) await renderLines(ctx.io, [type.uuid]);
  else await renderObject(ctx.io, type, { format: ctx.globals.output, columns: COLUMNS });
}
