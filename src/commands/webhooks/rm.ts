// sched webhooks rm <uuid>... | --url <url> | --all [-y|--yes]
//
// Exactly one way of choosing is allowed. Explicit UUIDs are checked locally (nothing is sent
// when one is malformed) and deleted without a question; --url and --all read every page
// first, then ask on a terminal (showing what will go) or need --yes. Deletions run a few at
// a time; stdout gets the UUID of each deleted webhook as it goes (JSON: {"deleted":[...]}).
// A stop part-way (failure, Ctrl-C) still reports what was deleted, then the error; Ctrl-C
// starts no new DELETE and lets those in flight finish.
import type { Context } from '../../context.js';
import type { WebhooksRmOptions } from './inputs.js';
import type { SchedError } from '../../errors.js';
import { Interrupted, NotFoundError, OutputFailed } from '../../errors.js';
import { changedThenOutputFailed, trackWrites, type WriteCount } from '../../output/unwritten.js';
import { cannotAsk } from '../../text/no-prompt.js';
import type { ApiClient } from '../../api/client.js';
import { BoundedStop, runBounded } from '../../bulk/run-bounded.js';
import { forPeople, show, type Column, type ListSource } from '../../output/render.js';
import { urlKey } from '../../domain/webhooks/url.js';
import { quote } from '../../text/quote.js';
import { plural } from '../../text/plural.js';
import { partialStopError } from '../stopped.js';
import { allWebhooks, confirmDeletion, type ListedWebhook } from './common.js';

const DELETE_CONCURRENCY = 4;

/** The webhook is known for --url/--all (from the listing), for the confirmation list. */
type Target = ListedWebhook;

type Outcome = { uuid: string; deleted: true } | { uuid: string; deleted: false };

const COLUMNS: readonly Column<{ uuid: string }>[] = [{ key: 'uuid', value: (d) => d.uuid }];

const webhooks = (n: number) => plural(n, 'webhook');

/** The one way of choosing that the definition let through (rmInput's `target` group). */
function chooseMode(
  flags: WebhooksRmOptions,
): { kind: 'uuids'; uuids: string[] } | { kind: 'url'; url: string } | { kind: 'all' } {
  if (flags.uuid.length > 0) return { kind: 'uuids', uuids: flags.uuid };
  if (flags.url !== undefined) return { kind: 'url', url: flags.url };
  return { kind: 'all' };
}

export async function run(ctx: Context, flags: WebhooksRmOptions): Promise<void> {
  const { io } = ctx;
  const mode = chooseMode(flags);
  const yes = flags.yes === true;
  if (mode.kind !== 'uuids' && !yes && !io.canPrompt()) {
    throw cannotAsk(
      ctx,
      `${mode.kind === 'all' ? '--all' : '--url'} deletes without asking only with --yes`,
      'add --yes to confirm; nothing was deleted',
    );
  }

  const client = await ctx.api();
  let targets: Target[];
  if (mode.kind === 'uuids') {
    targets = mode.uuids.map((uuid) => ({ uuid }));
  } else {
    const list = await allWebhooks(ctx, client);
    const chosen =
      mode.kind === 'all' ? list : list.filter((w) => urlKey(String(w.url)) === urlKey(mode.url));
    targets = chosen.map((w) => ({ uuid: w.uuid, webhook: w }));
    if (targets.length === 0) {
      io.err(
        mode.kind === 'all'
          ? 'There are no webhooks; nothing was deleted.'
          : `No webhook has the URL ${quote(mode.url)}; nothing was deleted.`,
      );
      await printDeleted(io, ctx.globals, []);
      return;
    }
    if (!yes) {
      await confirmDeletion(
        ctx,
        targets,
        mode.kind === 'all' ? 'every webhook' : `URL ${quote(mode.url)}`,
        'nothing was deleted',
      );
    }
  }

  await deleteAll(ctx, client, targets, mode.kind === 'uuids');
}

async function deleteAll(
  ctx: Context,
  client: ApiClient,
  targets: Target[],
  explicit: boolean,
): Promise<void> {
  const { io } = ctx;
  const { deleteWebhook } = await import('../../api/endpoints.js');
  const outputFailed = new AbortController();
  const outcomes = runBounded<Outcome>(
    targets.length,
    async (i) => {
      const uuid = targets[i]!.uuid;
      try {
        // No ctx.signal: on Ctrl-C the DELETEs in flight finish (at most DELETE_CONCURRENCY),
        // so what is reported as deleted is exactly what the server deleted.
        await deleteWebhook(client, uuid);
        return { uuid, deleted: true };
      } catch (e) {
        if (e instanceof NotFoundError) return { uuid, deleted: false };
        throw e;
      }
    },
    // A failed write of the list stops new DELETEs (those in flight finish and are counted).
    { concurrency: DELETE_CONCURRENCY, signal: AbortSignal.any([ctx.signal, outputFailed.signal]) },
  );

  const deleted: string[] = [];
  const missing: string[] = [];
  async function* deletions(): AsyncGenerator<{ uuid: string }> {
    for await (const o of outcomes) {
      if (o.deleted) {
        deleted.push(o.uuid);
        yield { uuid: o.uuid };
      } else {
        missing.push(o.uuid);
      }
    }
  }

  const tracked = trackWrites(io, deletions());
  let stop: BoundedStop | undefined;
  try {
    await printDeleted(tracked.io, ctx.globals, tracked.source);
  } catch (e) {
    if (e instanceof OutputFailed && tracked.count.failure) {
      outputFailed.abort();
      await tracked.rest();
      throw unlistedError(tracked.count, deleted.length);
    }
    if (!(e instanceof BoundedStop)) throw e;
    stop = e;
  }

  if (missing.length > 0 && !explicit) {
    // Listed a moment ago, gone now: someone else deleted it; the goal is met all the same.
    io.err(`${webhooks(missing.length)} had already been deleted: ${missing.join(', ')}`);
  }
  if (stop) throw stoppedError(stop, deleted.length, ctx);
  if (forPeople(ctx.globals) && io.stderrIsTTY && deleted.length > 0) {
    io.err(io.colorErr.green(`Deleted ${webhooks(deleted.length)}.`));
  }
  if (missing.length > 0 && explicit) {
    throw new NotFoundError(
      `no webhook with UUID ${missing.join(', ')}` +
        (deleted.length > 0 ? ` (the other ${webhooks(deleted.length)} were deleted)` : ''),
      { hint: '`sched webhooks ls` shows the UUIDs' },
    );
  }
}

/**
 * The deleted webhooks: their UUIDs for people, one record each, or one JSON object written
 * whole once the work is over (or cut short).
 */
async function printDeleted(
  io: Context['io'],
  settings: Context['globals'],
  deleted: ListSource<{ uuid: string }>,
): Promise<void> {
  await show(io, settings, {
    records: deleted,
    columns: COLUMNS,
    lines: (d) => d.uuid,
    linesWhen: 'always',
    document: (all) => ({ deleted: (all as Array<{ uuid: string }>).map((d) => d.uuid) }),
  });
}

/** stdout failed while deleting: how many were deleted, how many listed, the others' UUIDs. */
function unlistedError(count: WriteCount<{ uuid: string }>, deleted: number): OutputFailed {
  return changedThenOutputFailed(
    count.failure!,
    { made: deleted, noun: ['webhook', 'webhooks'], verb: 'deleted', written: count.written },
    {
      label: 'the webhooks deleted but not listed on stdout:',
      lines: count.unwritten.map((d) => d.uuid),
    },
  );
}

function stoppedError(stop: BoundedStop, deleted: number, ctx: Context): SchedError {
  const rest = stop.total - stop.succeeded;
  return partialStopError({
    cause: stop.error,
    aborted: stop.aborted || stop.error instanceof Interrupted,
    signalReason: ctx.signal.reason,
    done: `deleted ${deleted} of ${webhooks(stop.total)}${deleted > 0 ? ' (listed on stdout)' : ''}`,
    details: rest > 0 ? [`${webhooks(rest)} not deleted`] : [],
  });
}
