// Duplicate detection for `sched webhooks listen`: a retried delivery carries the notification
// uuid of the first one. The most recent uuids are remembered (oldest forgotten first), so a
// listener running for days keeps bounded memory.

/** Notification uuids remembered by default. */
export const SEEN_LIMIT = 10_000;

export interface SeenCheck {
  duplicate: boolean;
  /** When the first delivery with this uuid arrived (ISO), for a duplicate. */
  firstAt: string | undefined;
}

export class SeenNotifications {
  private readonly seen = new Map<string, string>();

  constructor(private readonly limit = SEEN_LIMIT) {}

  /** Records `uuid` as received at `at` unless it was seen before; says which it was. */
  check(uuid: string | undefined, at: Date): SeenCheck {
    if (uuid === undefined) return { duplicate: false, firstAt: undefined };
    const firstAt = this.seen.get(uuid);
    if (firstAt !== undefined) return { duplicate: true, firstAt };
    if (this.seen.size >= this.limit) this.seen.delete(this.seen.keys().next().value as string);
    this.seen.set(uuid, at.toISOString());
    return { duplicate: false, firstAt: undefined };
  }
}
