// sched link create <meeting-type>... [--count n] [--concurrency n]
//
// Mints `count` single-use links per meeting type (UUID or slug), with a bounded number of
// requests in flight over the client's kept-alive pool, and prints them in request order
// (meeting types in argument order, then link index) as soon as they are contiguous.
//
// When it stops early — a failed request, or Ctrl-C — every link already minted is still
// printed (in order; a JSON array is closed), and the error says how many were created and
// that the rest were not. Requests already in flight at Ctrl-C are allowed to finish, since
// each may already have created a link on the server: losing its URL would waste it silently.
import type { Context } from '../../context.js';
import { Interrupted, SchedError, UsageError } from '../../errors.js';
import type { SingleUseLink } from '../../api/types.js';
import { BoundedStop, runBounded } from '../../run-bounded.js';
import { renderLines, renderList, renderObject, type Column } from '../../output/render.js';
import { createProgress } from '../../output/progress.js';
import {
  pickMeetingType,
  resolveMeetingTypes,
  type ResolvedMeetingType,
} from '../meeting-types.js';

interface Minted {
  type: ResolvedMeetingType;
  link: SingleUseLink;
}

/** -o csv: which meeting type (as given) each link is for, then the link. */
const COLUMNS: readonly Column<Minted>[] = [
  { key: 'meeting_type', value: (m) => m.type.ref },
  { key: 'meeting_type_uuid', value: (m) => m.type.uuid },
  { key: 'url', value: (m) => m.link.url },
  { key: 'code', value: (m) => m.link.code },
];

async function* linksOf(minted: AsyncIterable<Minted>): AsyncGenerator<SingleUseLink> {
  for await (const m of minted) yield m.link;
}

async function* urlsOf(minted: AsyncIterable<Minted>): AsyncGenerator<string> {
  for await (const m of minted) yield m.link.url;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export async function run(
  ctx: Context,
  args: string[],
  flags: Record<string, unknown>,
): Promise<void> {
  const { io, globals } = ctx;
  const count = (flags.count as number | undefined) ?? 1;
  const concurrency = (flags.concurrency as number | undefined) ?? 8;
  if (args.length === 0 && !io.canPrompt()) {
    throw new UsageError('give a meeting-type UUID or slug', {
      hint: 'e.g. `sched link create intro-call`; `sched types list` shows them',
    });
  }

  const client = await ctx.api();
  const types =
    args.length === 0
      ? [await pickMeetingType(ctx, client)]
      : await resolveMeetingTypes(ctx, client, args);
  const total = types.length * count;
  const { createSingleUseLink } = await import('../../api/endpoints.js');

  const progress = createProgress(io, 'Creating links', total);
  const onAbort = () =>
    io.err(
      io.colorErr.yellow(
        'Stopping: letting the requests in flight finish so their links are printed (Ctrl-C again quits at once)…',
      ),
    );
  ctx.signal.addEventListener('abort', onAbort, { once: true });

  // A function, so that a rate-limit aware caller can lower it mid-run (runBounded reads it
  // before each start).
  const inFlightLimit = () => concurrency;
  const minted = runBounded<Minted>(
    total,
    async (i) => {
      const type = types[Math.floor(i / count)]!;
      // No ctx.signal here on purpose: see the note at the top.
      return { type, link: await createSingleUseLink(client, type.uuid) };
    },
    {
      concurrency: inFlightLimit,
      signal: ctx.signal,
      onSettled: (p) => progress.update(p.settled),
    },
  );

  try {
    if (globals.output === 'json' && total === 1) {
      for await (const m of minted) await renderObject(io, m.link, { format: 'json', columns: [] });
    } else if (globals.output === 'json' || globals.output === 'ndjson') {
      await renderList(io, linksOf(minted), { format: globals.output, columns: [] });
    } else if (globals.output === 'csv') {
      await renderList(io, minted, { format: 'csv', columns: COLUMNS });
    } else {
      // `table` (the default, on a terminal too, as the contract says) and --quiet: one URL
      // per line, ready to paste or to pipe.
      await renderLines(io, urlsOf(minted));
    }
  } catch (e) {
    if (e instanceof BoundedStop) throw stoppedError(e, ctx);
    throw e;
  } finally {
    progress.done();
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

/** The error of a run cut short, saying what was done; the original's exit code is kept. */
function stoppedError(stop: BoundedStop, ctx: Context): SchedError {
  const created = `created ${stop.succeeded} of ${plural(stop.total, 'link', 'links')}`;
  const rest = stop.total - stop.succeeded;
  const restLine =
    rest === 0
      ? []
      : [
          `the other ${plural(rest, 'link was', 'links were')} not created` +
            (stop.failed > 0 && stop.notStarted > 0
              ? ` (${stop.failed} failed, ${stop.notStarted} not attempted)`
              : ''),
        ];
  const shown = stop.succeeded > 0 ? ' (printed on stdout)' : '';
  if (stop.aborted) {
    return new Interrupted(`interrupted: ${created}${shown}`, {
      details: restLine,
      signal: ctx.signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT',
    });
  }
  const e = stop.error;
  if (stop.total === 1 && e instanceof SchedError) return e;
  if (stop.succeeded === 0 && e instanceof SchedError) {
    return new SchedError(e.message, e.exitCode, {
      details: [...e.details, `no links were created (${stop.total} asked for)`],
      hint: e.hint,
    });
  }
  if (e instanceof SchedError) {
    return new SchedError(`${created}${shown}, then: ${e.message}`, e.exitCode, {
      details: [...e.details, ...restLine],
      hint: e.hint,
    });
  }
  return new SchedError(`${created}${shown}, then: ${String(stop.message)}`, 1, {
    details: restLine,
  });
}
