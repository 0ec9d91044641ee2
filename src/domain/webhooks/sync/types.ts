// The vocabulary of `sched webhooks sync`: what the file asks for, what the plan decides and
// what the run did. Pure data, shared by the validator, the planner, the executor and the report.
import type { EventName, Webhook } from '../../../api/types.js';

/** One valid entry of the file, ready to create. */
export interface DesiredWebhook {
  /** Position in the file's `webhooks` array, for messages such as `webhooks[2]`. */
  index: number;
  /** The URL as written in the file (sent to the API as is). */
  url: string;
  /** The URL normalised for matching (scheme and host case, default port, empty path). */
  key: string;
  /** Without duplicates, in the file's order. */
  events: EventName[];
  /** The signing secret to create with. Never printed, never logged. */
  secret: string;
  /** Where the secret came from; only the variable's name may be shown. */
  secretSource: { kind: 'env'; name: string } | { kind: 'literal' };
}

/**
 * Why a webhook is deleted (or would be, with --prune):
 * - `stale`: its URL is in the file but its events differ, and another webhook at that URL
 *   has (or will have) the file's events. Always deleted: that is what a replace means, and it
 *   lets a re-run finish a replace that an earlier run left half done.
 * - `duplicate`: a second webhook at a URL of the file with exactly the file's events.
 * - `not-in-file`: its URL is not in the file.
 */
export type DeleteReason = 'stale' | 'duplicate' | 'not-in-file';

export type PlanItem =
  | { kind: 'create'; entry: DesiredWebhook }
  | { kind: 'replace'; entry: DesiredWebhook; old: Webhook }
  | { kind: 'unchanged'; entry: DesiredWebhook; webhook: Webhook }
  | { kind: 'delete'; webhook: Webhook; reason: DeleteReason }
  /** Left alone because --prune was not given; reported so nobody is surprised. */
  | { kind: 'keep'; webhook: Webhook; reason: 'duplicate' | 'not-in-file' };

export interface Plan {
  /** In display order: the file's entries in order (each followed by deletes at its URL), then prunes. */
  items: PlanItem[];
  /** How many webhooks the server had. */
  currentCount: number;
}

/** One request the executor sends, in execution order. */
export type Step =
  | { op: 'create'; item: Extract<PlanItem, { kind: 'create' }> }
  | { op: 'replace-create'; item: Extract<PlanItem, { kind: 'replace' }> }
  | { op: 'replace-delete'; item: Extract<PlanItem, { kind: 'replace' }> }
  | { op: 'delete'; item: Extract<PlanItem, { kind: 'delete' }> };

/** A webhook as sync prints it: whatever the API returned, with the secret always null. */
export type PrintableWebhook = Webhook & { secret: null };

/** The `--json` shape of `webhooks sync` (docs/commands/sched-webhooks-sync.md). */
export interface SyncResult {
  created: PrintableWebhook[];
  replaced: Array<{ old: string; new: PrintableWebhook }>;
  deleted: string[];
  unchanged: PrintableWebhook[];
}
