// `sched webhooks sync --file <path> [--prune] [--dry-run]`: make the account's webhooks match a
// file. Read and check the whole file first (nothing is sent while any entry is wrong), list
// what exists, plan by URL, print the plan, then send the requests one by one in a safe order:
// creates first, then the deletes that finish replaces, then prunes. Its output goes to CI logs,
// so no secret is ever printed: webhook objects carry "secret": null and every line written
// here passes through a redactor holding the file's secrets, as a last guard.
import type { Context } from '../../context.js';
import type { WebhooksSyncOptions } from './inputs.js';
import type { ApiClient } from '../../api/client.js';
import { createWebhook, removeWebhook, webhooks } from '../../api/endpoints.js';
import { heldWalk } from '../../bulk/page-walk.js';
import type { Webhook } from '../../api/types.js';
import type { SchedError } from '../../errors.js';
import { Interrupted, NetworkError, OutputFailed, UsageError } from '../../errors.js';
import { writeAfterChange } from '../../output/unwritten.js';
import { parseSyncText, readSyncInput } from '../../domain/webhooks/sync/parse.js';
import { masker } from '../../mask.js';
import { validateSyncDocument } from '../../domain/webhooks/sync/validate.js';
import {
  countPlan,
  deletesEverything,
  executionSteps,
  hasChanges,
  planSync,
} from '../../domain/webhooks/sync/plan.js';
import { confirmDeletion } from './common.js';
import { applySteps, SyncStopped, type SyncOps } from '../../domain/webhooks/sync/apply.js';
import {
  countsOf,
  doneLine,
  planLines,
  plannedResult,
  resultFromDone,
  resultRecords,
  type ResultRecord,
  stoppedDetails,
  summaryLine,
  type PlannedResult,
} from '../../domain/webhooks/sync/report.js';
import type { Plan, Step, SyncResult } from '../../domain/webhooks/sync/types.js';
import { show, type Column } from '../../output/render.js';
import { plural } from '../../text/plural.js';
import { partialStopError } from '../stopped.js';
import { shellCommand } from '../../text/quote.js';
import { invocationOf, type Invocation } from '../../text/hints.js';

export async function run(ctx: Context, flags: WebhooksSyncOptions): Promise<void> {
  const { io } = ctx;
  const quiet = ctx.globals.quiet;

  // 1. The file, checked whole before any request.
  const input = await readSyncInput(flags.file, ctx.io.stdin, ctx.signal);
  if (!input.ok) {
    throw new UsageError(input.problem, {
      hint: 'give the path of a JSON or YAML file (at most 1 MiB): {"webhooks":[{"url","events","secretEnv"}]}',
    });
  }
  const { name, text } = input;
  const parsed = await parseSyncText(name, text);
  if (!parsed.ok) {
    throw new UsageError(parsed.problem, {
      hint: 'nothing was sent; the file must be JSON or YAML: {"webhooks":[{"url","events","secretEnv"}]}',
    });
  }
  const validation = validateSyncDocument(parsed.value, ctx.env, {
    needSecrets: flags.dryRun !== true,
  });
  // Every secret of the file masked in every line printed, as a last guard (a dry run may have none).
  io.addSecrets(validation.entries.map((e) => e.secret));
  const redact = masker(validation.entries.map((e) => e.secret));
  const say = (line: string) => io.err(redact(line));
  const warn = (line: string) => say(`${io.colorErr.yellow('warning:')} ${line}`);
  for (const w of validation.warnings) warn(w);
  if (validation.problems.length > 0) {
    const n = validation.problems.length;
    const unset = validation.unsetSecretEnv;
    throw new UsageError(`${name} has ${plural(n, 'problem')}; nothing was sent`, {
      details: validation.problems,
      hint:
        unset.length > 0
          ? `set ${unset.join(', ')}: webhooks are created with ${unset.length === 1 ? 'that secret' : 'those secrets'} ` +
            '(--dry-run plans without them)'
          : undefined,
    });
  }
  const entries = validation.entries;
  if (flags.dryRun && validation.unsetSecretEnv.length > 0 && !quiet) {
    const names = validation.unsetSecretEnv.join(', ');
    say(
      io.colorErr.dim(
        `dry run without ${names} set: planned anyway (the API never returns secrets); the real run needs ${validation.unsetSecretEnv.length === 1 ? 'it' : 'them'}`,
      ),
    );
  }

  // 2. What exists, and the plan.
  const api = await ctx.api();
  const current = await listAllWebhooks(api, ctx.signal, warn);
  const plan = planSync(entries, current, {
    prune: flags.prune === true || flags.pruneAll === true,
  });
  const everything = deletesEverything(plan);
  if (everything) {
    warn(
      entries.length === 0
        ? `${name} lists no webhooks: --prune deletes every webhook of the account`
        : `the plan deletes every webhook of the account (${plan.currentCount}): none has a URL of ${name}`,
    );
  }
  if (!quiet) printPlan(ctx, say, name, plan, entries.length);
  if (everything && !flags.pruneAll) {
    await allowDeletingEverything(ctx, flags, say, name, plan, entries.length === 0);
  }

  // 3. Dry run: the plan is the result.
  if (flags.dryRun) {
    await printResult(ctx, plan, plannedResult(plan), { incomplete: false });
    if (!quiet) say(io.colorErr.dim('dry run: nothing was changed'));
    return;
  }

  // 4. The requests, one at a time.
  if (!quiet && hasChanges(plan)) say(sendingLine(ctx, plan));
  const steps = executionSteps(plan);
  const ops: SyncOps = makeOps(api, ctx.signal, invocationOf(ctx.globals));
  try {
    const done = await applySteps(steps, ops, {
      signal: ctx.signal,
      onDone: (d) => {
        if (!quiet) say(doneLine(d, io.colorErr));
      },
    });
    const result = resultFromDone(plan, done);
    await writeAfterChange(`the sync was applied (${summaryLine(countsOf(result), false)})`, () =>
      printResult(ctx, plan, result, { incomplete: false }),
    );
  } catch (e) {
    if (!(e instanceof SyncStopped)) throw e;
    // What was done is said on stderr by the error below, whether or not stdout takes it.
    await printResult(ctx, plan, resultFromDone(plan, e.done), {
      incomplete: true,
    }).catch((x: unknown) => {
      if (!(x instanceof OutputFailed)) throw x;
    });
    throw stoppedError(ctx, e, flags, redact);
  }
}

/**
 * A plan that deletes every webhook of the account. When the file lists none, the account is
 * left with no webhook at all: what an emptied or generated-empty file asks for as much as a
 * real wish (a cut-short file fails to parse or to validate before this). Without --prune-all:
 * a terminal asks first, listing them, as `webhooks rm --all` does (--yes answers for it); off
 * a terminal (CI) a file that lists none is refused, exit 2, nothing sent, while one that
 * lists webhooks (at other URLs: a move) does what it says, with the warning. A dry run plans
 * it and says what the real run needs.
 */
async function allowDeletingEverything(
  ctx: Context,
  flags: WebhooksSyncOptions,
  say: (line: string) => void,
  name: string,
  plan: Plan,
  listsNone: boolean,
): Promise<void> {
  const { io } = ctx;
  if (flags.dryRun) {
    if (listsNone && !ctx.globals.quiet) {
      say(
        io.colorErr.dim(
          'off a terminal, the real run refuses to leave the account with no webhook unless given --prune-all',
        ),
      );
    }
    return;
  }
  if (!io.canPrompt()) {
    if (!listsNone) return;
    throw new UsageError(
      `${name} lists no webhooks: refusing to delete every webhook of the account (${plan.currentCount}) without --prune-all; nothing was changed`,
      {
        hint: `check ${name} (an emptied or generated-empty file lists none); if it is right, run again with --prune-all`,
      },
    );
  }
  if (flags.yes) return;
  const targets = plan.items.flatMap((i) => (i.kind === 'delete' ? [i.webhook] : []));
  await confirmDeletion(
    ctx,
    targets.map((w) => ({ uuid: w.uuid, webhook: w })),
    `every webhook of the account, as ${name} says`,
    'nothing was changed',
  );
}

/**
 * Every webhook of the account. A list that changes while it is read can repeat an item across
 * pages: repeats are dropped by UUID. Missing one would make sync create a duplicate, which the
 * next run reports (and --prune removes), so a count that disagrees with `total` is a warning.
 */
async function listAllWebhooks(
  api: ApiClient,
  signal: AbortSignal,
  warn: (line: string) => void,
): Promise<Webhook[]> {
  const list = webhooks(api, heldWalk(signal));
  const seen = new Map<string, Webhook>();
  for await (const w of list) seen.set(w.uuid, w);
  const total = list.stats.total;
  if (total !== undefined && total !== seen.size) {
    warn(
      `the webhook list changed while it was read (${seen.size} read, ${total} reported); run sync again to check`,
    );
  }
  return [...seen.values()];
}

function makeOps(api: ApiClient, signal: AbortSignal, invocation: Invocation): SyncOps {
  return {
    create: (input) => createWebhook(api, input, { signal, invocation }),
    // Someone else deleted it first: what sync wanted is done.
    remove: (uuid) => removeWebhook(api, uuid, { signal }),
  };
}

function printPlan(
  ctx: Context,
  say: (line: string) => void,
  name: string,
  plan: Plan,
  entryCount: number,
): void {
  const c = ctx.io.colorErr;
  const n = countPlan(plan);
  const on = `${plural(plan.currentCount, 'webhook')} on the server`;
  say(c.bold(`Plan for ${name} (${entryCount} in the file, ${on}):`));
  if (plan.items.length === 0) say('  (nothing in the file and nothing on the server)');
  for (const line of planLines(plan, c)) say(`  ${line}`);
  if (n.keep > 0) {
    say(c.dim(`${n.keep} webhook(s) marked "keep" are left alone; --prune deletes them`));
  }
  if (!hasChanges(plan)) say(c.green('Already in sync: nothing to change.'));
}

/** Said once the plan is confirmed, just before the requests go. */
function sendingLine(ctx: Context, plan: Plan): string {
  const n = countPlan(plan);
  const requests = n.create + n.replace * 2 + n.delete;
  return ctx.io.colorErr.dim(`Sending ${plural(requests, 'request')}, one at a time:`);
}

/** -o csv: one row per webhook of the result (events space-separated, as sync files have them). */
const CSV_COLUMNS: readonly Column<ResultRecord>[] = [
  { key: 'action', value: (r) => r.action },
  { key: 'uuid', value: (r) => r.uuid },
  { key: 'url', value: (r) => r.url },
  { key: 'events', value: (r) => r.events.join(' ') },
  { key: 'replaces', value: (r) => r.old },
];

async function printResult(
  ctx: Context,
  plan: Plan,
  result: SyncResult | PlannedResult,
  opts: { incomplete: boolean },
): Promise<void> {
  const dryRun = 'dryRun' in result;
  // JSON: the result whole; NDJSON a line per webhook; CSV a row; people one summary line
  // (none when incomplete: the error's details say what was done). The file's secrets are
  // masked in the data, as every secret the io knows.
  await show(ctx.io, ctx.globals, {
    records: resultRecords(plan, result),
    columns: CSV_COLUMNS,
    data: (r) => ({
      action: r.action,
      ...(r.action === 'deleted' ? { uuid: r.uuid } : {}),
      ...(r.action === 'replaced' ? { old: r.old, new: r.webhook } : {}),
      ...(r.action === 'created' || r.action === 'unchanged' ? { webhook: r.webhook } : {}),
      ...(dryRun ? { dryRun: true } : {}),
    }),
    document: () => (opts.incomplete ? { ...result, incomplete: true } : result),
    summary: () => (opts.incomplete ? undefined : summaryLine(countsOf(result), dryRun)),
  });
}

/** The error a stopped run ends with: its cause, plus what was done and what was not. */
function stoppedError(
  ctx: Context,
  stopped: SyncStopped,
  flags: WebhooksSyncOptions,
  redact: (s: string) => string,
): SchedError {
  const cause = stopped.error;
  const aborted = stopped.aborted || cause instanceof Interrupted;
  // A request sent without an answer (network failure, Ctrl-C while waiting) may have been applied.
  const uncertain =
    stopped.failed !== undefined && (cause instanceof NetworkError || cause instanceof Interrupted);
  const details = stoppedDetails(stopped, uncertain).map(redact);
  const rerun =
    shellCommand`sched webhooks sync --file ${flags.file}` + (flags.prune ? ' --prune' : '');
  const hint = `nothing is rolled back; run \`${rerun}\` again to finish (add --dry-run to see what is left)`;

  return partialStopError({
    cause,
    aborted,
    signalReason: ctx.signal.reason,
    done: 'sync stopped part-way',
    failed: (message) =>
      `${stopped.failed ? describeFailed(stopped.failed) : 'sync'} failed: ${message}`,
    details,
    hint,
    redact,
  });
}

function describeFailed(step: Step): string {
  switch (step.op) {
    case 'create':
    case 'replace-create':
      return `webhooks[${step.item.entry.index}] (${step.item.entry.url})`;
    case 'replace-delete':
      return `deleting ${step.item.old.uuid}`;
    case 'delete':
      return `deleting ${step.item.webhook.uuid}`;
  }
}
