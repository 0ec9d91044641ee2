// sched webhooks ls [--page n] [--limit n] [--all]
import type { Context } from '../../context.js';
import type { WebhooksLsOptions } from './inputs.js';
import { pageFlags, printListing } from '../listing.js';
import { WEBHOOK_COLUMNS } from './common.js';

export async function run(ctx: Context, flags: WebhooksLsOptions): Promise<void> {
  const paging = pageFlags(flags);
  const client = await ctx.api();
  const { webhooks } = await import('../../api/endpoints.js');
  const { adaptivePageLimiter } = await import('../../bulk/page-walk.js');
  const listing = webhooks(client, { ...paging, signal: ctx.signal, limiter: adaptivePageLimiter });
  await printListing(ctx, listing, paging, {
    columns: WEBHOOK_COLUMNS,
    quietValue: (w) => w.uuid,
    noun: ['webhook', 'webhooks'],
  });
}
