// PLACEHOLDER: replaced by the issue that implements `sched auth status`.
import type { Context } from '../../context.js';
import { Failure } from '../../errors.js';

export async function run(
  _ctx: Context,
  _args: string[],
  _flags: Record<string, unknown>,
): Promise<void> {
  throw new Failure('`sched auth status` is not implemented yet');
}
