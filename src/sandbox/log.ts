// What the sandbox reports as it works. A leaf module, so the delivery queue and the core can
// both name it without importing each other.

/** One line of what the sandbox did, for the CLI to print (stderr) or a test to collect. */
export type SandboxLogEvent =
  | { type: 'request'; method: string; path: string; status: number; ms: number }
  | {
      type: 'delivery';
      event: string;
      url: string;
      webhookUuid: string;
      notificationUuid: string;
      attempt: number;
      /** HTTP status of the receiver's answer; undefined when there was none. */
      status: number | undefined;
      error: string | undefined;
      /** 'delivered', 'retrying' (another attempt follows) or 'failed' (given up). */
      outcome: 'delivered' | 'retrying' | 'failed';
      /** The synthetic fault the attempt met, when one was set (faults.ts). */
      fault?: string;
    }
  | { type: 'state-error'; message: string }
  /** A request answered by a synthetic fault (faults.ts) rather than its route. */
  | { type: 'fault'; method: string; path: string; fault: string };
