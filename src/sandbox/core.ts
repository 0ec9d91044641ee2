// What every route handler of the sandbox works with: the state and the running settings.
import type { SandboxState } from './state.js';
import type { Deliveries } from './deliveries.js';

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
    }
  | { type: 'state-error'; message: string };

export interface SandboxCore {
  readonly state: SandboxState;
  readonly publicUrl: string;
  readonly baseUrl: string;
  readonly serviceName: string;
  readonly hostTimezone: string;
  readonly deliveries: Deliveries;
  now(): Date;
  log(event: SandboxLogEvent): void;
}
