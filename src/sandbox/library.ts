// The sandbox as a library (`import { startSandbox } from 'sched/sandbox'`): a local emulator of
// the service, in-process, for tests of a webhook handler. It serves the same HTTP API as
// `sched sandbox` (which starts through this same function) and adds what an invitee does on
// the service — book a link, cancel, reschedule — as calls that resolve once the deliveries
// they caused are settled. It loads nothing of the CLI: node built-ins and the sandbox only.
// docs/sandbox.md: "Testing your webhook handler with the sandbox".
import type { EventName, Meeting } from '../api/types.js';
import { DEFAULT_RETRY_DELAYS_MS, type DeliveryRecord } from './deliveries.js';
import { HttpError, type SandboxErrorReason } from './http.js';
import type { SandboxLogEvent } from './log.js';
import { performAction, type ActionOutcome } from './meetings.js';
import {
  ACTION_VERBS,
  SANDBOX_ACTIONS,
  type ActionCalls,
  type CancelOptions,
  type Invitee,
  type RescheduleOptions,
} from './actions.js';
import { startSandboxServer, type SandboxHandle } from './server.js';
import { filterDeliveries } from './control.js';
import {
  FaultSpecError,
  parseFaults,
  type ApiFault,
  type ApiFaultSpec,
  type DeliveryFault,
  type DeliveryFaultSpec,
  type Fault,
  type FaultsSpec,
} from './faults.js';

export type { EventName, Meeting, SandboxLogEvent, DeliveryRecord };
export type { ActionCalls, CancelOptions, Invitee, RescheduleOptions };

type Body = (...args: unknown[]) => Record<string, unknown>;
export type { ApiFault, ApiFaultSpec, DeliveryFault, DeliveryFaultSpec, Fault, FaultsSpec };
export { StateFileError } from './state.js';
export { DEFAULT_SANDBOX_API_KEY } from '../defaults.js';

export interface StartSandboxOptions {
  /** Port to listen on; default 0, any free port (read it back from `baseUrl` or `port`). */
  port?: number;
  /** Address to listen on; default 127.0.0.1. */
  host?: string;
  /** The X-API-KEY the sandbox accepts; default the documented sandbox key. */
  apiKey?: string;
  /** Start with exactly this many meeting types (8 realistic ones, then synthetic ones). */
  seedTypes?: number;
  /** A JSON file to load the state from (when it exists) and keep it in after every change. */
  state?: string;
  /** The origin link URLs point to ({publicUrl}/s/<code>), e.g. a tunnel; default the sandbox. */
  publicUrl?: string;
  /** `user-agent` of deliveries; default "SimplyMeet.me". */
  serviceName?: string;
  /**
   * Waits before each retry of a failed delivery (its length is the number of retries);
   * default the service's 1 s, 5 s, 25 s. A test of a failing handler wants `[]` or short ones:
   * book/cancel/reschedule wait for the last attempt.
   */
  retryDelaysMs?: number[];
  /** How long one delivery attempt may take; default 10 s. */
  deliveryTimeoutMs?: number;
  /**
   * Makes UUIDs, link codes and generated times repeatable: the same calls in the same order
   * give the same values (the clock starts at 2026-01-05T09:00:00Z and moves one second per
   * change). For snapshot tests.
   */
  seed?: number;
  /** Faults active from the start, as a faults file holds them ({ api: [...], deliveries: [...] }). */
  faults?: FaultsSpec;
  /** Receives each request, delivery attempt and state-file problem. */
  log?: (event: SandboxLogEvent) => void;
}

export interface DeliveryAttempt {
  attempt: number;
  startedAt: string;
  /** The receiver's HTTP status; null when it never answered. */
  status: number | null;
  error: string | null;
}

/** One delivery an action caused, once it was delivered or given up. */
export interface DeliveryReport {
  webhook: { uuid: string; url: string };
  event: EventName;
  /** The `uuid` of the delivered body (fresh for every delivery). */
  notificationUuid: string;
  /** 'delivered' (a 2xx answer) or 'failed' (every attempt failed, or the sandbox closed). */
  status: 'delivered' | 'failed';
  attempts: DeliveryAttempt[];
  signed: boolean;
  /** The exact bytes sent (and signed), as text. */
  body: string;
  headers: Record<string, string>;
}

export interface SandboxActionResult {
  meeting: Meeting;
  deliveries: DeliveryReport[];
}

export type SandboxErrorCode =
  SandboxErrorReason | 'invalid_input' | 'closed' | 'delivery_not_found' | 'delivery_pending';

/** Why an action was refused; branch on `code`, never on the message. */
export class SandboxError extends Error {
  override readonly name = 'SandboxError';
  constructor(
    readonly code: SandboxErrorCode,
    message: string,
    /** For 'invalid_input': the messages per field, as the API's 422 gives them. */
    readonly details: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

/** A running sandbox: its addresses, its actions (ActionCalls: book, cancel, reschedule, …) and readouts. */
export interface Sandbox extends ActionCalls<SandboxActionResult> {
  /** e.g. http://127.0.0.1:41234/api — give it to the code under test as its base URL. */
  readonly baseUrl: string;
  /** e.g. http://127.0.0.1:41234 — link URLs are {publicUrl}/s/<code>. */
  readonly publicUrl: string;
  /** The console in a browser: {publicUrl}/ (no key on loopback; elsewhere it asks). */
  readonly consoleUrl: string;
  readonly apiKey: string;
  readonly host: string;
  readonly port: number;
  /** What the `state` file held when it was loaded; undefined when nothing was loaded. */
  readonly loaded: { webhooks: number; links: number; meetings: number } | undefined;
  /** Every meeting, oldest first, as `sched sandbox meetings --json` prints them. */
  meetings(): Meeting[];
  /**
   * The deliveries kept (the last 1000), oldest first, each with every attempt, as
   * `sched sandbox deliveries --json` prints them; narrowed by event, webhook or meeting.
   */
  deliveries(filter?: DeliveryFilter): DeliveryRecord[];
  /** Sends a settled delivery once more; resolves with it when that attempt is done. */
  resend(deliveryId: number): Promise<DeliveryRecord>;
  /** Synthetic faults on API routes and deliveries (see SandboxFaults). */
  readonly faults: SandboxFaults;
  /** Stops listening and delivering, and writes the state file. */
  close(): Promise<void>;
}

export interface DeliveryFilter {
  event?: EventName;
  webhook?: string;
  meeting?: string;
}

/**
 * Faults on purpose. Synthetic: the real service's 429 and 5xx bodies are unknown, so the
 * sandbox answers its own `{"code","message"}` (and `Retry-After` for 429).
 */
export interface SandboxFaults {
  /**
   * The next `times` (default 1) requests to `route` ("GET /users/me/meeting-types", "/webhooks",
   * "*" for every API route) answer `status` (429 or 5xx, `retryAfter` seconds), have their
   * connection reset, or wait `ms` first.
   */
  api(fault: ApiFaultSpec): ApiFault;
  /**
   * The next `times` deliveries to `webhook` (a UUID, or "*") fail with `status` (sent
   * nowhere), time out (after the delivery timeout), or wait `ms` before being sent.
   */
  delivery(fault: DeliveryFaultSpec): DeliveryFault;
  /** The active faults with what is left of each. */
  list(): Fault[];
  /** Removes one fault; false when there is no such id. */
  remove(id: number): boolean;
  clear(): void;
}

/** Starts a sandbox; resolves once it listens. */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<Sandbox> {
  const { faults } = options;
  if (faults !== undefined) faultInput(() => parseFaults(faults));
  const server = await startSandboxServer({
    host: options.host,
    port: options.port ?? 0,
    apiKey: options.apiKey,
    seedTypes: options.seedTypes,
    stateFile: options.state,
    publicUrl: options.publicUrl,
    serviceName: options.serviceName,
    retryDelaysMs: options.retryDelaysMs ?? [...DEFAULT_RETRY_DELAYS_MS],
    deliveryTimeoutMs: options.deliveryTimeoutMs,
    seed: options.seed,
    faults: options.faults,
    log: options.log,
  });
  return wrap(server);
}

function wrap(server: SandboxHandle): Sandbox {
  const { core } = server;
  let closed = false;
  // Runs the action as the control endpoints do, then waits for what it delivered.
  const act = async (target: string, action: () => ActionOutcome): Promise<SandboxActionResult> => {
    if (closed) throw new SandboxError('closed', 'the sandbox is closed');
    let outcome: ActionOutcome;
    try {
      outcome = action();
    } catch (e) {
      throw e instanceof HttpError ? refusal(e, target) : e;
    }
    const settled = await Promise.all(outcome.deliveries.map((d) => core.deliveries.settled(d)));
    return { meeting: outcome.meeting, deliveries: settled.map(report) };
  };
  const { state } = server;
  const actions = Object.fromEntries(
    ACTION_VERBS.map((verb) => [
      verb,
      (target: string, ...args: unknown[]) =>
        act(target, () =>
          performAction(
            core,
            verb,
            target,
            Reflect.apply(SANDBOX_ACTIONS[verb].body as Body, undefined, args),
          ),
        ),
    ]),
  ) as unknown as ActionCalls<SandboxActionResult>;
  return {
    ...actions,
    baseUrl: server.baseUrl,
    publicUrl: server.publicUrl,
    consoleUrl: server.consoleUrl,
    apiKey: server.apiKey,
    host: server.host,
    port: server.port,
    loaded: server.stateLoaded
      ? { webhooks: state.webhooks.size, links: state.links.size, meetings: state.meetings.size }
      : undefined,
    meetings: () => [...state.meetings.values()].map((m) => m.meeting),
    deliveries: (filter = {}) => filterDeliveries(core, filter),
    async resend(deliveryId) {
      if (closed) throw new SandboxError('closed', 'the sandbox is closed');
      const d = core.deliveries.get(deliveryId);
      if (!d) throw new SandboxError('delivery_not_found', `no delivery ${deliveryId} kept`);
      if (!core.deliveries.resend(d)) {
        throw new SandboxError(
          'delivery_pending',
          `delivery ${deliveryId} is still being attempted`,
        );
      }
      return core.deliveries.settled(d);
    },
    faults: {
      api: (fault) => addFault(core, { api: [fault] }) as ApiFault,
      delivery: (fault) => addFault(core, { deliveries: [fault] }) as DeliveryFault,
      list: () => core.faults.list(),
      remove: (id) => core.faults.remove(id),
      clear: () => core.faults.clear(),
    },
    close() {
      closed = true;
      return server.close();
    },
  };
}

/** `read()` of a fault description; a wrong one is an 'invalid_input' SandboxError naming the field. */
function faultInput<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof FaultSpecError) {
      throw new SandboxError('invalid_input', `invalid fault: ${e.message}`, {
        [e.field]: [e.reason],
      });
    }
    throw e;
  }
}

/** Adds one fault (faultInput). */
function addFault(core: SandboxHandle['core'], spec: FaultsSpec): Fault {
  return faultInput(() => core.faults.add(spec)[0]!);
}

/** What a library caller is told when the link or meeting it named is not there. */
const NOT_FOUND: Partial<Record<SandboxErrorReason, (target: string) => string>> = {
  link_not_found: (code) => `no single-use link "${code}"`,
  meeting_not_found: (uuid) => `no meeting "${uuid}" in this sandbox`,
};

/** The HTTP refusal of the control endpoints, as an error with a code. */
function refusal(e: HttpError, target: string): SandboxError {
  const errors = (e.body.errors ?? {}) as Record<string, string[]>;
  const first = Object.values(errors)[0]?.[0];
  if (e.reason) {
    return new SandboxError(e.reason, NOT_FOUND[e.reason]?.(target) ?? first ?? e.message, errors);
  }
  // Without a reason, the refusal is a validation error: it always names its fields.
  const fields = Object.entries(errors).map(([k, v]) => `${k}: ${v.join(' ')}`);
  return new SandboxError('invalid_input', `invalid input: ${fields.join('; ')}`, errors);
}

function report(d: DeliveryRecord): DeliveryReport {
  return {
    webhook: { uuid: d.webhook_uuid, url: d.url },
    event: d.event,
    notificationUuid: d.notification_uuid,
    status: d.state === 'delivered' ? 'delivered' : 'failed',
    attempts: d.attempts.map((a) => ({
      attempt: a.attempt,
      startedAt: a.started_at,
      status: a.status,
      error: a.error,
    })),
    signed: d.signed,
    body: d.body,
    headers: { ...d.headers },
  };
}
