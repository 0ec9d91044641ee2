// Faults on purpose, for testing how a client copes: the next N requests to an API route
// answer 429 (with Retry-After), a 5xx, a reset connection, or come late; the next N
// deliveries to a webhook fail with a status, time out, or are slow. Set from a file at start
// (`sched sandbox --faults <file>`), the control endpoint (/api/_sandbox/faults), the console
// and the library (`sb.faults`). Synthetic: the real service's 429 and 5xx bodies are unknown,
// so these bodies are the sandbox's own `{"code","message"}`.
//
// One parser (parseFaults) checks every source, so a file, a request and a library call are
// refused with the same words.

/** A fault on API routes. `route` is "METHOD /path" or "/path" (any method); "*" is every route. */
export type ApiFaultSpec = {
  /** e.g. "GET /users/me/meeting-types", "DELETE /webhooks/:id", "/webhooks", "*" (default). */
  route?: string;
  /** How many requests it applies to; default 1. */
  times?: number;
} & (
  | { type: 'status'; status: number; retryAfter?: number }
  | { type: 'reset' }
  | { type: 'delay'; ms: number }
);

/** A fault on deliveries. `webhook` is a webhook UUID, or "*" (default) for every webhook. */
export type DeliveryFaultSpec = {
  webhook?: string;
  times?: number;
} & ({ type: 'status'; status: number } | { type: 'timeout' } | { type: 'slow'; ms: number });

/** What a faults file, the control endpoint and the console send: either list may be absent. */
export interface FaultsSpec {
  api?: ApiFaultSpec[];
  deliveries?: DeliveryFaultSpec[];
}

/** An active fault as listed: its id and how many uses are left. */
export type ApiFault = ApiFaultSpec & {
  id: number;
  target: 'api';
  route: string;
  times: number;
  remaining: number;
};
export type DeliveryFault = DeliveryFaultSpec & {
  id: number;
  target: 'delivery';
  webhook: string;
  times: number;
  remaining: number;
};
export type Fault = ApiFault | DeliveryFault;

/** Why a fault description was refused: the field and what is wrong with it. */
export class FaultSpecError extends Error {
  constructor(
    readonly field: string,
    /** What is wrong, without the field: an error map (`{[field]: [reason]}`) names it once. */
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

const MAX_DELAY_MS = 600_000;
const MAX_TIMES = 1_000_000;
const METHODS = ['GET', 'POST', 'DELETE'];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function wholeNumber(field: string, v: unknown, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new FaultSpecError(field, `must be a whole number from ${min} to ${max}`);
  }
  return v;
}

function known(field: string, o: Record<string, unknown>, keys: string[]): void {
  const extra = Object.keys(o).filter((k) => !keys.includes(k));
  if (extra.length > 0) {
    throw new FaultSpecError(field, `unknown field "${extra[0]}" (known: ${keys.join(', ')})`);
  }
}

/** "GET /users/me/meeting-types" → method and a pattern over /api paths; "*" → every route. */
function parseRoute(field: string, v: unknown): string {
  if (v === undefined || v === '*') return '*';
  if (typeof v !== 'string') throw new FaultSpecError(field, 'must be a string');
  const m = /^(?:([A-Za-z]+)\s+)?(\/\S*)$/.exec(v.trim());
  if (!m || (m[1] !== undefined && !METHODS.includes(m[1].toUpperCase()))) {
    throw new FaultSpecError(
      field,
      `"${v}" is not a route: use "METHOD /path" (GET, POST or DELETE) or "/path", e.g. "GET /users/me/meeting-types", or "*"`,
    );
  }
  let path = m[2]!.replace(/\/+$/, '') || '/';
  if (!path.startsWith('/api/')) path = `/api${path}`;
  if (path.startsWith('/api/_sandbox')) {
    throw new FaultSpecError(field, 'the sandbox control endpoints cannot be given faults');
  }
  return m[1] ? `${m[1].toUpperCase()} ${path}` : path;
}

function parseApiFault(
  field: string,
  v: unknown,
): Required<Pick<ApiFaultSpec, 'route' | 'times'>> & ApiFaultSpec {
  if (!isObject(v)) throw new FaultSpecError(field, 'must be an object');
  const route = parseRoute(`${field}.route`, v.route);
  const times = v.times === undefined ? 1 : wholeNumber(`${field}.times`, v.times, 1, MAX_TIMES);
  switch (v.type) {
    case 'status': {
      known(field, v, ['type', 'route', 'times', 'status', 'retryAfter']);
      const status = wholeNumber(`${field}.status`, v.status, 100, 599);
      if (status !== 429 && status < 500) {
        throw new FaultSpecError(`${field}.status`, 'must be 429 or a 5xx status');
      }
      if (v.retryAfter !== undefined && status !== 429 && status !== 503) {
        throw new FaultSpecError(`${field}.retryAfter`, 'goes with status 429 or 503 only');
      }
      const retryAfter =
        v.retryAfter === undefined
          ? status === 429
            ? 1
            : undefined
          : wholeNumber(`${field}.retryAfter`, v.retryAfter, 0, 86_400);
      return {
        type: 'status',
        route,
        times,
        status,
        ...(retryAfter === undefined ? {} : { retryAfter }),
      };
    }
    case 'reset':
      known(field, v, ['type', 'route', 'times']);
      return { type: 'reset', route, times };
    case 'delay':
      known(field, v, ['type', 'route', 'times', 'ms']);
      return { type: 'delay', route, times, ms: wholeNumber(`${field}.ms`, v.ms, 1, MAX_DELAY_MS) };
    default:
      throw new FaultSpecError(`${field}.type`, 'must be "status", "reset" or "delay"');
  }
}

function parseDeliveryFault(
  field: string,
  v: unknown,
): Required<Pick<DeliveryFaultSpec, 'webhook' | 'times'>> & DeliveryFaultSpec {
  if (!isObject(v)) throw new FaultSpecError(field, 'must be an object');
  const webhook = v.webhook === undefined ? '*' : v.webhook;
  if (typeof webhook !== 'string' || webhook === '') {
    throw new FaultSpecError(`${field}.webhook`, 'must be a webhook UUID or "*"');
  }
  const times = v.times === undefined ? 1 : wholeNumber(`${field}.times`, v.times, 1, MAX_TIMES);
  switch (v.type) {
    case 'status':
      known(field, v, ['type', 'webhook', 'times', 'status']);
      return {
        type: 'status',
        webhook,
        times,
        status: wholeNumber(`${field}.status`, v.status, 100, 599),
      };
    case 'timeout':
      known(field, v, ['type', 'webhook', 'times']);
      return { type: 'timeout', webhook, times };
    case 'slow':
      known(field, v, ['type', 'webhook', 'times', 'ms']);
      return {
        type: 'slow',
        webhook,
        times,
        ms: wholeNumber(`${field}.ms`, v.ms, 1, MAX_DELAY_MS),
      };
    default:
      throw new FaultSpecError(`${field}.type`, 'must be "status", "timeout" or "slow"');
  }
}

/** Checks a faults description (a file's content, a request body); throws FaultSpecError. */
export function parseFaults(v: unknown): {
  api: ReturnType<typeof parseApiFault>[];
  deliveries: ReturnType<typeof parseDeliveryFault>[];
} {
  if (!isObject(v))
    throw new FaultSpecError('faults', 'must be an object with "api" and/or "deliveries" lists');
  known('faults', v, ['api', 'deliveries']);
  const list = (key: 'api' | 'deliveries') => {
    const l = v[key];
    if (l === undefined) return [];
    if (!Array.isArray(l)) throw new FaultSpecError(key, 'must be a list');
    return l;
  };
  return {
    api: list('api').map((f, i) => parseApiFault(`api[${i}]`, f)),
    deliveries: list('deliveries').map((f, i) => parseDeliveryFault(`deliveries[${i}]`, f)),
  };
}

/**
 * The sandbox's own control endpoints (`/api/_sandbox/*`: the console, the CLI's sandbox
 * commands, clearing faults): no fault ever matches them, whatever its route's parameters
 * (`/:a/:b`, `GET /:x/snapshot`), or a fault could lock everyone out until a restart.
 */
function isControlPath(pathname: string): boolean {
  return /^\/api\/+_sandbox(?:\/|$)/i.test(pathname);
}

/** Matches a fault's route against a request: method (when given) and path (":x" a segment). */
function routeMatcher(route: string): (method: string, pathname: string) => boolean {
  const matches = apiRouteMatcher(route);
  return (m, p) => !isControlPath(p) && matches(m, p);
}

function apiRouteMatcher(route: string): (method: string, pathname: string) => boolean {
  if (route === '*') return (_m, p) => p.startsWith('/api/');
  const [method, path] = route.includes(' ') ? route.split(' ') : [undefined, route];
  const pattern = new RegExp(
    '^' +
      path!
        .split('/')
        .map((s) => (s.startsWith(':') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/') +
      '/?$',
  );
  return (m, p) => (method === undefined || method === m) && pattern.test(p);
}

/** The active faults of one sandbox, used up as requests and deliveries meet them. */
export class Faults {
  private nextId = 1;
  private readonly active: Array<{ fault: Fault; matches?: (m: string, p: string) => boolean }> =
    [];
  private readonly listeners: Array<() => void> = [];

  /** Adds the faults described (checked first: all or none); returns them as listed. */
  add(spec: unknown): Fault[] {
    const parsed = parseFaults(spec);
    const added: Fault[] = [];
    for (const f of parsed.api) {
      const fault: ApiFault = { id: this.nextId++, target: 'api', ...f, remaining: f.times };
      this.active.push({ fault, matches: routeMatcher(f.route) });
      added.push(fault);
    }
    for (const f of parsed.deliveries) {
      const fault: DeliveryFault = {
        id: this.nextId++,
        target: 'delivery',
        ...f,
        remaining: f.times,
      };
      this.active.push({ fault });
      added.push(fault);
    }
    if (added.length > 0) this.changed();
    return added.map((f) => ({ ...f }));
  }

  list(): Fault[] {
    return this.active.map((a) => ({ ...a.fault }));
  }

  /** Removes one fault (true) or none (false, no such id). */
  remove(id: number): boolean {
    const i = this.active.findIndex((a) => a.fault.id === id);
    if (i < 0) return false;
    this.active.splice(i, 1);
    this.changed();
    return true;
  }

  clear(): void {
    if (this.active.length === 0) return;
    this.active.length = 0;
    this.changed();
  }

  /** The first API fault for this request, used once (gone when used up). */
  takeApi(method: string, pathname: string): ApiFault | undefined {
    const i = this.active.findIndex(
      (a) => a.fault.target === 'api' && a.matches!(method, pathname),
    );
    return i < 0 ? undefined : (this.use(i) as ApiFault);
  }

  /** The first delivery fault for this webhook, used once. */
  takeDelivery(webhookUuid: string): DeliveryFault | undefined {
    const i = this.active.findIndex(
      (a) =>
        a.fault.target === 'delivery' &&
        (a.fault.webhook === '*' || a.fault.webhook === webhookUuid),
    );
    return i < 0 ? undefined : (this.use(i) as DeliveryFault);
  }

  /** Called after every change (the console's live view listens). */
  onChange(fn: () => void): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  private use(i: number): Fault {
    const a = this.active[i]!;
    a.fault.remaining -= 1;
    if (a.fault.remaining <= 0) this.active.splice(i, 1);
    this.changed();
    return { ...a.fault };
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }
}

/** A fault in a few words, for the log and the console: "429 (Retry-After: 1)", "timeout". */
export function describeFault(f: ApiFaultSpec | DeliveryFaultSpec): string {
  switch (f.type) {
    case 'status':
      return 'retryAfter' in f && f.retryAfter !== undefined
        ? `${f.status} (Retry-After: ${f.retryAfter})`
        : String(f.status);
    case 'reset':
      return 'connection reset';
    case 'delay':
    case 'slow':
      return `${f.type} ${f.ms} ms`;
    case 'timeout':
      return 'timeout';
  }
}
