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
//
// Rate limits: every POST goes through an adaptive limiter (src/bulk/limiter.ts). A 429
// halves the requests in flight for the whole job, waits as long as the service asks, and
// sends that request again (a 429 means it created nothing, so no duplicate is possible);
// successes raise the limit back up to --concurrency.
//
// Output: one URL per line by default, also on a terminal (docs/commands/sched-link-create.md). An explicit
// `-o table` asks for the table format: a table (meeting type, URL, code) on a terminal,
// tab-separated rows otherwise.
import type { Context } from '../../context.js';
import { LARGE_BATCH, type LinkCreateOptions } from './inputs.js';
import type { SchedError } from '../../errors.js';
import { ExitCode, NetworkError, OutputFailed, QuietExit, asSchedError } from '../../errors.js';
import type { SingleUseLink } from '../../api/types.js';
import { BoundedStop, runBounded } from '../../bulk/run-bounded.js';
import { AdaptiveLimiter, type LimiterStats } from '../../bulk/limiter.js';
import { show, type Column } from '../../output/render.js';
import { createProgress } from '../../output/progress.js';
import { grouped, plural } from '../../text/plural.js';
import { partialStopError } from '../stopped.js';
import { changedThenOutputFailed, trackWrites, type WriteCount } from '../../output/unwritten.js';
import {
  pickMeetingType,
  resolveMeetingTypes,
  type ResolvedMeetingType,
} from '../types/meeting-types.js';
import { cannotAsk } from '../../text/no-prompt.js';
import { accountCommand, invocationOf, type Invocation } from '../../text/hints.js';

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

/** -o table, asked for explicitly. */
const TABLE_COLUMNS: readonly Column<Minted>[] = [
  { key: 'meeting_type', header: 'MEETING TYPE', value: (m) => m.type.ref, shrink: true },
  { key: 'url', value: (m) => m.link.url, style: 'cyan' },
  { key: 'code', value: (m) => m.link.code },
];

/**
 * The objects --json and -o ndjson print: the API's link exactly, or, when several meeting
 * types were given, the same object with the meeting type it is for added (`meeting_type` as
 * given, `meeting_type_uuid`), so a script can tell them apart. A field the API already
 * returns under either name is kept as the API gave it.
 */
function linkOf(m: Minted, withType: boolean): SingleUseLink {
  if (!withType) return m.link;
  const o: Record<string, unknown> = { ...m.link };
  if (!('meeting_type' in o)) o.meeting_type = m.type.ref;
  if (!('meeting_type_uuid' in o)) o.meeting_type_uuid = m.type.uuid;
  return o as SingleUseLink;
}

/**
 * Several meeting types on a terminal: the URLs under a heading naming the meeting type they are
 * for (as given, with its link count), a blank line between groups. Each URL stays alone on its
 * line, whole, so it is still copied with a double-click.
 */
function groupedUrls(count: number): (m: Minted) => string[] {
  // Compared by UUID: the renderer hands over masked copies, never the same object twice.
  let current: string | undefined;
  return (m) => {
    const heading =
      m.type.uuid === current
        ? []
        : [...(current !== undefined ? [''] : []), `${m.type.ref} (${plural(count, 'link')}):`];
    current = m.type.uuid;
    return [...heading, m.link.url];
  };
}

/** What to give when no meeting type was given and none can be picked. */
export function linkCreateHint(inv: Invocation): string {
  const cmd = accountCommand(inv);
  return (
    `give a meeting-type slug, name or UUID, e.g. \`${cmd`sched link create intro-call --count 5 -o csv`} > links.csv\`; ` +
    `\`${cmd`sched types list`}\` shows them`
  );
}

export async function run(ctx: Context, opts: LinkCreateOptions): Promise<void> {
  const { io, globals } = ctx;
  const { meetingType: args, concurrency } = opts;
  const count = opts.count ?? 1;
  if (args.length === 0 && !io.canPrompt()) {
    throw cannotAsk(
      ctx,
      'no meeting type given, and no pick list to choose one from',
      linkCreateHint(invocationOf(globals)),
    );
  }

  const client = await ctx.api();
  const types =
    args.length === 0
      ? [await pickMeetingType(ctx, client)]
      : await resolveMeetingTypes(ctx, client, args);
  const total = types.length * count;
  if (total > LARGE_BATCH && !opts.yes && io.canPrompt()) await confirmLarge(ctx, total, types);
  const { createSingleUseLink } = await import('../../api/endpoints.js');

  const progress = createProgress(io, 'Creating links', total);
  /** stderr lines while the bar may be on screen. */
  const note = (line: string) => {
    progress.clear();
    io.err(line);
  };
  const onAbort = () =>
    note(
      io.colorErr.yellow(
        'Stopping: letting the requests in flight finish so their links are printed (Ctrl-C again quits at once)…',
      ),
    );
  ctx.signal.addEventListener('abort', onAbort, { once: true });

  let warned = false;
  const limiter = new AdaptiveLimiter({
    max: concurrency,
    onChange: (e) => {
      if (e.kind === 'decrease' && !warned) {
        warned = true;
        note(
          io.colorErr.yellow(
            `The service is rate limiting (429): slowing down to ${plural(e.limit, 'request')} at a time; every link is still created.`,
          ),
        );
      }
    },
  });
  const rateNote = () =>
    ctx.signal.aborted
      ? 'stopping'
      : limiter.limit < limiter.max
        ? `${limiter.limit} at a time (rate limited)`
        : undefined;

  // A failed write of the links stops new requests at once (those in flight finish: each may
  // already have minted a link, which is then shown on stderr rather than lost).
  const outputFailed = new AbortController();
  const work = runBounded<Minted>(
    total,
    (i, stop) => {
      const type = types[Math.floor(i / count)]!;
      // The request gets no ctx.signal on purpose (see the note at the top): only `stop`,
      // which ends the wait for a turn. The limiter owns its 429s (it sends them again).
      return limiter.run(
        async (a) => ({
          type,
          link: await createSingleUseLink(client, type.uuid, {
            signal: a.signal,
            rateLimitOwner: a.onRateLimit,
          }),
        }),
        { signal: stop, priority: i },
      );
    },
    {
      concurrency,
      signal: AbortSignal.any([ctx.signal, outputFailed.signal]),
      onSettled: (p) => progress.update(p.succeeded, rateNote()),
    },
  );

  const tracked = trackWrites(progress.wrap(io), work);
  const { io: out, source: minted } = tracked;
  try {
    // JSON's shape follows what was asked, not how many came back: one object only for one
    // meeting type without --count; --count (even --count 1) or several types give an array.
    // People get the URLs, one a line (what they paste) unless they ask for the table by
    // name; several meeting types read on a terminal get a heading per type.
    await show(out, globals, {
      records: minted,
      one: types.length === 1 && opts.count === undefined,
      columns: COLUMNS,
      humanColumns: TABLE_COLUMNS,
      data: (m) => linkOf(m, types.length > 1),
      lines:
        io.stdoutIsTTY && !globals.quiet && types.length > 1
          ? groupedUrls(count)
          : (m) => m.link.url,
      linesWhen: 'default',
    });
  } catch (e) {
    if (e instanceof OutputFailed && tracked.count.failure) {
      outputFailed.abort();
      await tracked.rest();
      throw unwrittenError(tracked.count);
    }
    if (e instanceof BoundedStop) throw stoppedError(e, ctx);
    throw e;
  } finally {
    progress.done();
    ctx.signal.removeEventListener('abort', onAbort);
    const s = limiter.stats;
    if (s.rateLimited > 0) io.err(io.colorErr.dim(rateSummary(s, limiter.max)));
  }
}

/**
 * A batch above LARGE_BATCH on a terminal: single-use links cannot be taken back, and an extra
 * zero (`--count 100000`) is easy to type. Scripts (no terminal) and --yes are not asked.
 */
async function confirmLarge(
  ctx: Context,
  total: number,
  types: readonly ResolvedMeetingType[],
): Promise<void> {
  const n = grouped(total);
  const per = types.length > 1 ? ` (${types.length} meeting types)` : '';
  const prompter = await ctx.prompter();
  const ok = await prompter.confirm(
    `Create ${n} single-use links${per}? The API cannot delete them.`,
    {
      default: false,
    },
  );
  if (!ok) {
    ctx.io.err('Cancelled; no links were created.');
    throw new QuietExit(ExitCode.failure);
  }
}

/** One line on what the rate limiting did, for whoever wonders why it took longer. */
function rateSummary(s: LimiterStats, max: number): string {
  return (
    `Rate limited: ${plural(s.rateLimited, 'answer')} 429, each request sent again; ` +
    `requests in flight went down to ${s.minLimit} (from ${max}).`
  );
}

/**
 * Links were minted and stdout failed (full, or its reader left): how many were minted, how
 * many reached stdout, and the others' URLs on stderr — a booking URL is not a secret, and a
 * minted link cannot be taken back.
 */
function unwrittenError(count: WriteCount<Minted>): SchedError {
  const made = count.written + count.unwritten.length;
  return changedThenOutputFailed(
    count.failure!,
    { made, noun: ['link', 'links'], verb: 'minted', written: count.written },
    {
      label: 'the links not written to stdout (they exist; the API cannot delete them):',
      lines: count.unwritten.map((m) => m.link.url),
    },
  );
}

/** The error of a run cut short, saying what was done; the original's exit code is kept. */
function stoppedError(stop: BoundedStop, ctx: Context): SchedError {
  const e = stop.error;
  // A POST whose answer was lost (reset, timeout) may have created a link nobody will see:
  // say so rather than claim it was not created.
  const lost = e instanceof NetworkError && e.outcomeUnknown;
  const created = `created ${stop.succeeded} of ${plural(stop.total, 'link')}`;
  const rest = stop.total - stop.succeeded;
  let restLine: string[] = [];
  if (rest > 0 && lost) {
    restLine = [
      `the other ${plural(rest, 'link was', 'links were')} not shown: ${stop.failed} failed ` +
        `(${stop.failed === 1 ? 'its answer was lost, so it' : 'answers were lost, so they'} may have created a link anyway), ` +
        `${stop.notStarted} not attempted`,
    ];
  } else if (rest > 0) {
    restLine = [
      `the other ${plural(rest, 'link was', 'links were')} not created` +
        (stop.failed > 0 && stop.notStarted > 0
          ? ` (${stop.failed} failed, ${stop.notStarted} not attempted)`
          : ''),
    ];
  }
  const shown = stop.succeeded > 0 ? ' (printed on stdout)' : '';
  // One link asked for: its own error says it all.
  if (!stop.aborted && stop.total === 1) return asSchedError(e);
  return partialStopError({
    cause: e,
    aborted: stop.aborted,
    signalReason: ctx.signal.reason,
    done: `${created}${shown}`,
    // None created: the error as it is, and that nothing was made (or may have been).
    failed: (message) => (stop.succeeded === 0 ? message : `${created}${shown}, then: ${message}`),
    details:
      stop.aborted || stop.succeeded > 0
        ? restLine
        : [lost ? restLine[0]! : `no links were created (${stop.total} asked for)`],
  });
}
