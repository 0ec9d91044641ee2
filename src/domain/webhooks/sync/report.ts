// Everything sync shows: the plan as a diff, a line per finished request, the summary, the
// `--json` result (also for --dry-run and for a run cut short) and the account of a stopped run.
// Only URLs, event names and UUIDs are ever shown: a secret has no way into this module's output
// (webhook objects are printed through withoutSecret).
import type { ChalkInstance } from 'chalk';
import type { Webhook } from '../../../api/types.js';
import { sanitizeCell } from '../../../text/sanitize.js';
import { withoutSecret, type StepDone, type SyncStopped } from './apply.js';
import type { DeleteReason, Plan, PrintableWebhook, Step, SyncResult } from './types.js';

const REASON: Record<DeleteReason, string> = {
  stale: 'its events differ from the file',
  duplicate: 'a duplicate at this URL',
  'not-in-file': 'not in the file',
};

function ev(events: readonly string[]): string {
  return `[${events.map(sanitizeCell).join(', ')}]`;
}

function url(u: string): string {
  return sanitizeCell(u);
}

/** The plan as diff lines (colour comes from `c`, which is off when stderr is not a terminal). */
export function planLines(plan: Plan, c: ChalkInstance): string[] {
  // A loop, not Math.max(...items): spreading thousands of arguments overflows the stack.
  const width = Math.min(
    60,
    plan.items.reduce(
      (w, i) => Math.max(w, url('entry' in i ? i.entry.url : i.webhook.url).length),
      0,
    ),
  );
  const pad = (u: string) => url(u).padEnd(width);
  return plan.items.map((item) => {
    switch (item.kind) {
      case 'create':
        return c.green(`+ create     ${pad(item.entry.url)}  ${ev(item.entry.events)}`);
      case 'replace':
        return c.yellow(
          `~ replace    ${pad(item.entry.url)}  ${ev(item.old.events)} -> ${ev(item.entry.events)}  (old ${item.old.uuid})`,
        );
      case 'unchanged':
        return c.dim(
          `= unchanged  ${pad(item.entry.url)}  ${ev(item.entry.events)}  (${item.webhook.uuid})`,
        );
      case 'delete':
        return c.red(
          `- delete     ${pad(item.webhook.url)}  ${ev(item.webhook.events)}  (${item.webhook.uuid}: ${REASON[item.reason]})`,
        );
      case 'keep':
        return c.cyan(
          `! keep       ${pad(item.webhook.url)}  ${ev(item.webhook.events)}  (${item.webhook.uuid}: ${REASON[item.reason]}; --prune deletes it)`,
        );
    }
  });
}

export function describeStep(step: Step): string {
  switch (step.op) {
    case 'create':
      return `create ${url(step.item.entry.url)} ${ev(step.item.entry.events)}`;
    case 'replace-create':
      return `create ${url(step.item.entry.url)} ${ev(step.item.entry.events)} (to replace ${step.item.old.uuid})`;
    case 'replace-delete':
      return `delete ${step.item.old.uuid} ${url(step.item.old.url)} (replaced)`;
    case 'delete':
      return `delete ${step.item.webhook.uuid} ${url(step.item.webhook.url)} (${REASON[step.item.reason]})`;
  }
}

/** One line per finished request, as it finishes: what, which uuid, which URL, why. */
export function doneLine(d: StepDone, c: ChalkInstance): string {
  const { step } = d;
  switch (step.op) {
    case 'create':
      return `${c.green('created')}  ${d.created!.uuid}  ${url(step.item.entry.url)}`;
    case 'replace-create':
      return `${c.green('created')}  ${d.created!.uuid}  ${url(step.item.entry.url)}  (replaces ${step.item.old.uuid})`;
    case 'replace-delete':
    case 'delete': {
      const w = step.op === 'delete' ? step.item.webhook : step.item.old;
      const why = step.op === 'delete' ? REASON[step.item.reason] : 'replaced';
      const gone = d.gone ? '; it was already gone' : '';
      return `${c.red('deleted')}  ${w.uuid}  ${url(w.url)}  (${why}${gone})`;
    }
  }
}

export interface Counts {
  created: number;
  replaced: number;
  deleted: number;
  unchanged: number;
}

export function countsOf(r: {
  created: unknown[];
  replaced: unknown[];
  deleted: unknown[];
  unchanged: unknown[];
}): Counts {
  return {
    created: r.created.length,
    replaced: r.replaced.length,
    deleted: r.deleted.length,
    unchanged: r.unchanged.length,
  };
}

export function summaryLine(n: Counts, dryRun: boolean): string {
  return dryRun
    ? `dry run: ${n.created} to create, ${n.replaced} to replace, ${n.deleted} to delete, ${n.unchanged} unchanged`
    : `${n.created} created, ${n.replaced} replaced, ${n.deleted} deleted, ${n.unchanged} unchanged`;
}

/** What the run did. A replace whose old webhook was not deleted yet counts as a create. */
export function resultFromDone(plan: Plan, done: readonly StepDone[]): SyncResult {
  const result: SyncResult = { created: [], replaced: [], deleted: [], unchanged: [] };
  const newFor = new Map<string, PrintableWebhook>();
  for (const d of done) {
    if (d.step.op === 'create' && d.created) result.created.push(d.created);
    else if (d.step.op === 'replace-create' && d.created)
      newFor.set(d.step.item.old.uuid, d.created);
    else if (d.step.op === 'delete') result.deleted.push(d.step.item.webhook.uuid);
  }
  const finished = new Set<string>();
  for (const d of done) {
    if (d.step.op !== 'replace-delete') continue;
    // A replacement is created before the old one is deleted (executionSteps), so a done
    // delete of a replace always has its new webhook.
    const old = d.step.item.old.uuid;
    result.replaced.push({ old, new: newFor.get(old)! });
    finished.add(old);
  }
  for (const [old, created] of newFor) if (!finished.has(old)) result.created.push(created);
  for (const item of plan.items) {
    if (item.kind === 'unchanged') result.unchanged.push(withoutSecret(item.webhook));
  }
  return result;
}

/** A webhook that a dry run would create: no uuid or created_at yet. */
export interface PlannedWebhook {
  url: string;
  events: string[];
  secret: null;
}

export interface PlannedResult {
  dryRun: true;
  created: PlannedWebhook[];
  replaced: Array<{ old: string; new: PlannedWebhook }>;
  deleted: string[];
  unchanged: PrintableWebhook[];
}

export function plannedResult(plan: Plan): PlannedResult {
  const r: PlannedResult = { dryRun: true, created: [], replaced: [], deleted: [], unchanged: [] };
  const planned = (e: { url: string; events: string[] }): PlannedWebhook => ({
    url: e.url,
    events: [...e.events],
    secret: null,
  });
  for (const item of plan.items) {
    if (item.kind === 'create') r.created.push(planned(item.entry));
    else if (item.kind === 'replace')
      r.replaced.push({ old: item.old.uuid, new: planned(item.entry) });
    else if (item.kind === 'delete') r.deleted.push(item.webhook.uuid);
    else if (item.kind === 'unchanged') r.unchanged.push(withoutSecret(item.webhook));
  }
  return r;
}

/** One flat record per result entry, for ndjson and csv. */
export interface ResultRecord {
  action: 'created' | 'replaced' | 'deleted' | 'unchanged';
  uuid: string | null;
  url: string;
  events: string[];
  /** For `replaced`: the UUID of the webhook it replaced. */
  old: string | null;
  /** The whole webhook object (secret null), when there is one. */
  webhook: PrintableWebhook | PlannedWebhook | null;
}

export function resultRecords(plan: Plan, r: SyncResult | PlannedResult): ResultRecord[] {
  const known = new Map<string, Webhook>();
  for (const i of plan.items) {
    if (i.kind === 'delete' || i.kind === 'keep') known.set(i.webhook.uuid, i.webhook);
  }
  const uuidOf = (w: PrintableWebhook | PlannedWebhook) =>
    'uuid' in w && typeof w.uuid === 'string' ? w.uuid : null;
  return [
    ...r.created.map((w) => ({
      action: 'created' as const,
      uuid: uuidOf(w),
      url: w.url,
      events: w.events,
      old: null,
      webhook: w,
    })),
    ...r.replaced.map((x) => ({
      action: 'replaced' as const,
      uuid: uuidOf(x.new),
      url: x.new.url,
      events: x.new.events,
      old: x.old,
      webhook: x.new,
    })),
    ...r.deleted.map((uuid) => {
      // Every deleted uuid is a delete item's (resultFromDone, plannedResult): it is known.
      const w = known.get(uuid) as Webhook;
      return {
        action: 'deleted' as const,
        uuid,
        url: w.url,
        events: w.events,
        old: null,
        webhook: null,
      };
    }),
    ...r.unchanged.map((w) => ({
      action: 'unchanged' as const,
      uuid: w.uuid,
      url: w.url,
      events: w.events,
      old: null,
      webhook: w,
    })),
  ];
}

/**
 * The account of a stopped run, for the error's detail lines: what was done, what may have
 * happened (a request that got no answer), and what was not done.
 */
export function stoppedDetails(stopped: SyncStopped, uncertain: boolean): string[] {
  const lines: string[] = [];
  for (const d of stopped.done) lines.push(`done:     ${doneText(d)}`);
  if (stopped.done.length === 0) lines.push('done:     nothing was changed');
  if (stopped.failed) {
    lines.push(
      uncertain
        ? `unknown:  ${describeStep(stopped.failed)} (sent, but no answer came back: it may have been applied)`
        : `failed:   ${describeStep(stopped.failed)}`,
    );
  }
  for (const s of stopped.pending) lines.push(`not done: ${describeStep(s)}`);
  return lines;
}

function doneText(d: StepDone): string {
  const s = d.step;
  switch (s.op) {
    case 'create':
      return `created ${d.created!.uuid} ${url(s.item.entry.url)}`;
    case 'replace-create':
      return `created ${d.created!.uuid} ${url(s.item.entry.url)} (replacement for ${s.item.old.uuid})`;
    case 'replace-delete':
      return `deleted ${s.item.old.uuid} ${url(s.item.old.url)} (replaced)`;
    case 'delete':
      return `deleted ${s.item.webhook.uuid} ${url(s.item.webhook.url)} (${REASON[s.item.reason]})`;
  }
}
