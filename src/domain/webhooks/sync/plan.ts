// Decides what sync does, from the file's entries and the webhooks on the server. Pure: the
// same inputs always give the same plan, which is what makes --dry-run honest.
import type { Webhook } from '../../../api/types.js';
import type { DesiredWebhook, Plan, PlanItem, Step } from './types.js';
import { urlKey } from '../url.js';

export interface PlanOptions {
  prune: boolean;
}

export function sameEvents(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((e) => sb.has(e));
}

/** Oldest first (the one most likely wired up at the receiver); ties keep the server's order. */
function byAge(list: Webhook[]): Webhook[] {
  return list
    .map((w, i) => ({ w, i, t: Date.parse(w.created_at) }))
    .sort((x, y) => {
      const tx = Number.isNaN(x.t) ? Infinity : x.t;
      const ty = Number.isNaN(y.t) ? Infinity : y.t;
      return tx === ty ? x.i - y.i : tx - ty;
    })
    .map((x) => x.w);
}

export function planSync(
  entries: readonly DesiredWebhook[],
  current: readonly Webhook[],
  opts: PlanOptions,
): Plan {
  const byUrl = new Map<string, Webhook[]>();
  for (const w of current) {
    const k = urlKey(w.url);
    const list = byUrl.get(k);
    if (list) list.push(w);
    else byUrl.set(k, [w]);
  }

  const items: PlanItem[] = [];
  const wanted = new Set<string>();
  for (const entry of entries) {
    wanted.add(entry.key);
    const existing = byAge(byUrl.get(entry.key) ?? []);
    if (existing.length === 0) {
      items.push({ kind: 'create', entry });
      continue;
    }
    const matching = existing.filter((w) => sameEvents(w.events, entry.events));
    const kept = matching[0];
    let others: Webhook[];
    if (kept) {
      items.push({ kind: 'unchanged', entry, webhook: kept });
      others = existing.filter((w) => w !== kept);
    } else {
      const old = existing[0]!;
      items.push({ kind: 'replace', entry, old });
      others = existing.slice(1);
    }
    for (const w of others) {
      if (!sameEvents(w.events, entry.events)) {
        items.push({ kind: 'delete', webhook: w, reason: 'stale' });
      } else if (opts.prune) {
        items.push({ kind: 'delete', webhook: w, reason: 'duplicate' });
      } else {
        items.push({ kind: 'keep', webhook: w, reason: 'duplicate' });
      }
    }
  }

  for (const w of current) {
    if (wanted.has(urlKey(w.url))) continue;
    items.push(
      opts.prune
        ? { kind: 'delete', webhook: w, reason: 'not-in-file' }
        : { kind: 'keep', webhook: w, reason: 'not-in-file' },
    );
  }

  return { items, currentCount: current.length };
}

/**
 * The order requests are sent in: every create first (plain and replacing ones), so no event is
 * missed; then the deletes that finish replaces; then the prunes.
 */
export function executionSteps(plan: Plan): Step[] {
  const creates: Step[] = [];
  const replaceDeletes: Step[] = [];
  const prunes: Step[] = [];
  for (const item of plan.items) {
    if (item.kind === 'create') creates.push({ op: 'create', item });
    else if (item.kind === 'replace') {
      creates.push({ op: 'replace-create', item });
      replaceDeletes.push({ op: 'replace-delete', item });
    } else if (item.kind === 'delete') {
      (item.reason === 'stale' ? replaceDeletes : prunes).push({ op: 'delete', item });
    }
  }
  return [...creates, ...replaceDeletes, ...prunes];
}

export interface PlanCounts {
  create: number;
  replace: number;
  delete: number;
  unchanged: number;
  keep: number;
}

export function countPlan(plan: Plan): PlanCounts {
  const c: PlanCounts = { create: 0, replace: 0, delete: 0, unchanged: 0, keep: 0 };
  for (const item of plan.items) c[item.kind]++;
  return c;
}

/** The plan deletes every webhook the account has (and there was at least one). */
export function deletesEverything(plan: Plan): boolean {
  return plan.currentCount > 0 && countPlan(plan).delete === plan.currentCount;
}

export function hasChanges(plan: Plan): boolean {
  return plan.items.some((i) => i.kind === 'create' || i.kind === 'replace' || i.kind === 'delete');
}
