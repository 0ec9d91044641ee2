// What every route handler of the sandbox works with: the state and the running settings.
import type { SandboxState } from './state.js';
import type { Deliveries } from './deliveries.js';
import type { SandboxLogEvent } from './log.js';

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
