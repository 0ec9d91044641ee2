// `sched webhooks listen --register <url>`: a webhook that exists exactly as long as the
// listener — created once it listens, deleted when it stops (and reported when that fails).
// The API calls come in as functions, so this module stays below the API client.
import type { EventName, Webhook } from '../../../api/types.js';
import { messageOf } from '../../../errors.js';
import { urlKey } from '../url.js';
import { removeWebhookHint } from './hints.js';
import type { Invocation } from '../../../text/hints.js';

export interface WebhookApi {
  list(signal: AbortSignal): AsyncIterable<Webhook>;
  create(input: { url: string; events: EventName[]; secret?: string }): Promise<Webhook>;
  /** Deletes it; a webhook already gone counts as deleted (src/api/endpoints.ts removeWebhook). */
  remove(uuid: string): Promise<'deleted' | 'gone'>;
}

export interface RegisterInput {
  url: string;
  events: EventName[];
  secret: string | undefined;
  /** Ends the courtesy listing of existing webhooks (the listener is stopping). */
  stop: AbortSignal;
  /** The command's interrupt: noted while the creation runs, which is not cut short. */
  interrupt: AbortSignal;
}

export class ListenerWebhook {
  /** The webhook created, once the service answered. */
  webhook: Webhook | undefined;
  /** What became of the deletion ("deleted webhook …"), once tried. */
  outcome: string | undefined;
  /** True when the deletion failed: the webhook was left behind. */
  failed = false;

  constructor(
    private readonly api: () => Promise<WebhookApi>,
    private readonly note: (line: string) => void,
    /** The flags its suggested commands keep (--profile, --base-url). */
    private readonly inv: Invocation = {},
  ) {}

  async register(input: RegisterInput): Promise<Webhook> {
    const api = await this.api();
    try {
      // Best effort: a webhook left by an earlier, killed run would deliver here too, with
      // another secret, and show up as "invalid" — say so up front.
      for await (const w of api.list(input.stop)) {
        if (urlKey(w.url) === urlKey(input.url)) {
          this.note(
            `note: webhook ${w.uuid} already points at ${input.url}; its deliveries will arrive too (remove it with \`${removeWebhookHint(w.uuid, this.inv)}\`)`,
          );
        }
      }
    } catch {
      // Listing is only a courtesy; the creation below reports real problems.
    }
    // Not cut short by Ctrl-C: the service may already have created the webhook, and only
    // its answer says which one to delete. Once it is known, a stop requested meanwhile ends
    // the listener at once, through the deletion.
    const onStop = () =>
      this.note('stopping once the webhook is registered, to delete it (Ctrl-C again quits now)');
    input.interrupt.addEventListener('abort', onStop, { once: true });
    try {
      this.webhook = await api.create({
        url: input.url,
        events: input.events,
        secret: input.secret,
      });
    } finally {
      input.interrupt.removeEventListener('abort', onStop);
    }
    return this.webhook;
  }

  /** Deletes the webhook once; never throws (the outcome says what happened). */
  async unregister(): Promise<void> {
    if (!this.webhook || this.outcome !== undefined) return;
    const uuid = this.webhook.uuid;
    try {
      const r = await (await this.api()).remove(uuid);
      this.outcome = r === 'gone' ? `webhook ${uuid} was already gone` : `deleted webhook ${uuid}`;
    } catch (e) {
      this.failed = true;
      const why = messageOf(e);
      this.outcome = `could not delete webhook ${uuid}: ${why}`;
    }
  }
}
