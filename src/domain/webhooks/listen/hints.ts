// The command lines the listener suggests (replay what no forward took, remove a webhook):
// each value from outside is one shell word (shellCommand).
import { shellCommand } from '../../../text/quote.js';
import { webhookRemoveHint, type Invocation } from '../../../text/hints.js';

/**
 * What to run once the app is fixed, after a delivery no forward took: the recording, the
 * delivery's uuid (the sender chose it) and the app's URL, each one shell word.
 */
export function replayOneHint(file: string, uuid: string, to: string): string {
  return shellCommand`sched events replay ${file} --uuid ${uuid} --to ${to}`;
}

/**
 * The stop summary's suggestion when some deliveries reached no app: to the app's URL when they
 * were all for one (`to`, as the per-delivery hints name it), else a `<url>` to fill in.
 */
export function replayAllHint(
  file: string,
  uuids: readonly string[] = [],
  to: readonly string[] = [],
): string {
  // Only what no forward took, when each of them has a uuid to pick it by.
  const only = uuids.length > 0 && uuids.every((u) => u !== '');
  const picks = only ? uuids.map((u) => shellCommand` --uuid ${u}`).join('') : '';
  const target = to.length === 1 ? shellCommand` --to ${to[0]!}` : ' --to <url>';
  return shellCommand`sched events replay ${file}` + picks + target;
}

/** How to remove a webhook by hand (one `--register` could not delete, or an older one). */
export function removeWebhookHint(uuid: string, inv: Invocation = {}): string {
  return webhookRemoveHint(inv, uuid);
}
