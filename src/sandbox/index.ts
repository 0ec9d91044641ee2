// The sandbox's internals, for tests that look inside (recorded requests, state, the delivery
// queue). Users and `sched sandbox` start it through library.ts. Import lazily: it pulls in
// node:http.
export {
  startSandboxServer,
  DEFAULT_SANDBOX_API_KEY,
  DEFAULT_SERVICE_NAME,
  type SandboxHandle,
  type SandboxOptions,
  type RecordedRequest,
} from './server.js';
export { MAX_LIMIT, DEFAULT_LIMIT } from './api.js';
export { SEEDED_MEETING_TYPES, type MeetingTypeInput, type MeetingTypeRecord } from './seed.js';
export type { SandboxLogEvent } from './log.js';
export type { DeliveryRecord } from './deliveries.js';
export { StateFileError } from './state.js';
