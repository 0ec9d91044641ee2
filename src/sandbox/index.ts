// The local emulator of the service. Import lazily: it pulls in node:http.
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
