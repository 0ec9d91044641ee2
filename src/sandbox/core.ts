// What every route handler of the sandbox works with: the state and the running settings.
import type { SandboxState } from './state.js';
import type { Deliveries } from './deliveries.js';
import type { Faults } from './faults.js';
import type { SandboxLogEvent } from './log.js';
import type { SandboxRandom } from './random.js';

export interface SandboxCore {
  readonly state: SandboxState;
  readonly publicUrl: string;
  readonly baseUrl: string;
  readonly serviceName: string;
  readonly hostTimezone: string;
  readonly deliveries: Deliveries;
  /** Synthetic faults of API routes and deliveries. */
  readonly faults: Faults;
  /** UUIDs and bytes for codes: crypto, or seeded (random.ts). */
  readonly random: SandboxRandom;
  /** The key the console page carries: on a loopback address; else undefined (it asks). */
  readonly consoleKey: string | undefined;
  now(): Date;
  log(event: SandboxLogEvent): void;
}
