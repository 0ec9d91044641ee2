// Duplicate detection for `sched webhooks listen`: a retried delivery carries the notification
// uuid of the first one. The most recent uuids are remembered (oldest forgotten first), so a
// listener running for days keeps bounded memory.
//
// Verified deliveries (a valid signature) and the others are remembered apart, each with its own
// bound: anyone who can reach the listener can send unsigned deliveries with fresh uuids, and a
// flood of them must not push the uuids of real deliveries out, so that a real retry still shows
// as a duplicate.

/** Notification uuids remembered by default, per kind. */
export const SEEN_LIMIT = 10_000;

export interface SeenCheck {
  duplicate: boolean;
  /** When the first delivery with this uuid arrived (ISO), for a duplicate. */
  firstAt: string | undefined;
}

export class SeenNotifications {
  private readonly verified = new Map<string, string>();
  private readonly other = new Map<string, string>();

  constructor(private readonly limit = SEEN_LIMIT) {}

  /**
   * Records `uuid` as received at `at` unless it was seen before; says which it was.
   * `verified`: its signature was checked and valid (only those can take a verified place).
   */
  check(uuid: string | undefined, at: Date, verified = false): SeenCheck {
    if (uuid === undefined) return { duplicate: false, firstAt: undefined };
    const firstAt = this.verified.get(uuid) ?? this.other.get(uuid);
    if (firstAt !== undefined) return { duplicate: true, firstAt };
    const seen = verified ? this.verified : this.other;
    if (seen.size >= this.limit) seen.delete(seen.keys().next().value as string);
    seen.set(uuid, at.toISOString());
    return { duplicate: false, firstAt: undefined };
  }
}
