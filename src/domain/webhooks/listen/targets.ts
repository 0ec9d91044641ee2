// The --forward-to values of `sched webhooks listen`: where each kept delivery is re-sent.
import type { EventName } from '../../../api/types.js';
import { UsageError } from '../../../errors.js';
import { quote } from '../../../text/quote.js';
import { canonicalEventName, eventNameProblem } from '../event-names.js';
import { checkWebhookUrl } from '../url.js';
import type { ForwardTarget } from './forward.js';

/**
 * The --forward-to values: `url` receives every kept delivery, `event=url` only that event's.
 * Each URL passes the rule of `webhooks add --url`, each event the event-name rule; a route
 * for an event that --event does not keep would never fire, so it is a mistake.
 */
export function forwardTargets(
  values: readonly string[],
  kept: readonly EventName[] | undefined,
): ForwardTarget[] {
  return values.map((raw) => {
    const eq = raw.indexOf('=');
    const head = eq > 0 ? raw.slice(0, eq) : '';
    // `https://x/?a=b` is a plain URL: an event name has neither ':' nor '/'.
    if (head === '' || /[:/]/.test(head)) {
      return { url: new URL(checkWebhookUrl(raw, '--forward-to')) };
    }
    const event = canonicalEventName(head);
    if (!event) {
      throw new UsageError(`--forward-to ${quote(raw)}: ${eventNameProblem(head)}`, {
        hint: 'route one event as <event>=<url>, e.g. meetingCancelled=http://localhost:3000/cancel',
      });
    }
    if (kept && !kept.includes(event)) {
      throw new UsageError(
        `--forward-to ${event}=… would receive nothing: --event keeps only ${kept.join(', ')}`,
        { hint: `add --event ${event}, or drop that route` },
      );
    }
    return { url: new URL(checkWebhookUrl(raw.slice(eq + 1), '--forward-to')), events: [event] };
  });
}
