// Sandbox-only control endpoints under /api/_sandbox: they stand in for what invitees do on the
// real service (book, cancel, reschedule), let tests look inside (meetings, links,
// deliveries), resend a delivery, and set synthetic faults. They need X-API-KEY like the rest
// of /api, and faults never apply to them.
import { linkView, parsePaging, envelope } from './api.js';
import { FaultSpecError } from './faults.js';
import { httpError, validationError } from './http.js';
import { ACTION_VERBS, actionPath, SANDBOX_ACTIONS } from './actions.js';
import { actionResult, performAction } from './meetings.js';
import type { Route } from './router.js';
import type { SandboxCore } from './core.js';

/** Adds faults (422 naming the field when the description is wrong). */
export function addFaults(core: SandboxCore, body: unknown) {
  try {
    return core.faults.add(body);
  } catch (e) {
    if (e instanceof FaultSpecError) throw validationError({ [e.field]: [e.reason] });
    throw e;
  }
}

/** The delivery with this id (404 when unknown or no longer kept). */
export function deliveryById(core: SandboxCore, raw: string) {
  const d = /^\d+$/.test(raw) ? core.deliveries.get(Number(raw)) : undefined;
  if (!d)
    throw httpError(404, 'Not found.', { detail: `No delivery ${raw} (kept: the last 1000).` });
  return d;
}

/** Resends a settled delivery (409 while its own retries are still running). */
export function resendDelivery(core: SandboxCore, raw: string) {
  const d = deliveryById(core, raw);
  if (!core.deliveries.resend(d)) {
    throw httpError(409, 'This delivery is still being attempted; resend it once it settles.');
  }
  return d;
}

/** Deliveries filtered as `sched sandbox deliveries` and the console ask (any may be null). */
export function filterDeliveries(
  core: SandboxCore,
  f: { event?: string | null; webhook?: string | null; meeting?: string | null },
) {
  return core.deliveries.records.filter(
    (d) =>
      (f.meeting == null || d.meeting_uuid === f.meeting) &&
      (f.event == null || d.event === f.event) &&
      (f.webhook == null || d.webhook_uuid === f.webhook),
  );
}

/** The link an action's body names (`code` or `url`), or a 422 naming the field. */
function linkTarget(body: Record<string, unknown>): string {
  const { code, url } = body;
  const given = code ?? url;
  if (given === undefined || given === null || given === '') {
    throw validationError({ code: ['Give the link as "code" or "url".'] });
  }
  if (typeof given !== 'string') {
    throw validationError({
      [code !== undefined ? 'code' : 'url']: ['This value should be of type string.'],
    });
  }
  return given;
}

/** The route of each sandbox action (actions.ts), answering what it did (ActionResult). */
const actionRoutes: Route[] = ACTION_VERBS.map((verb) => ({
  method: 'POST',
  path: `/api${actionPath(verb)}`,
  body: 'json',
  handle: (core, r) => {
    const target = SANDBOX_ACTIONS[verb].on === 'link' ? linkTarget(r.body) : r.params.uuid!;
    const json = actionResult(performAction(core, verb, target, r.body));
    // A link action makes a meeting (201); a meeting action changes one (200).
    return { status: SANDBOX_ACTIONS[verb].on === 'link' ? 201 : 200, json };
  },
}));

export const controlRoutes: Route[] = [
  ...actionRoutes,
  {
    method: 'GET',
    path: '/api/_sandbox/meetings',
    handle: (core, r) => {
      const paging = parsePaging(r.url.searchParams);
      const all = [...core.state.meetings.values()].map((m) => m.meeting);
      const start = (paging.page - 1) * paging.limit;
      return {
        status: 200,
        json: envelope(
          '/_sandbox/meetings',
          all.slice(start, start + paging.limit),
          paging,
          all.length,
        ),
      };
    },
  },
  {
    method: 'GET',
    path: '/api/_sandbox/meetings/:uuid',
    handle: (core, r) => {
      const m = core.state.meetings.get(r.params.uuid!);
      if (!m) throw httpError(404, 'Not found.');
      return { status: 200, json: m.meeting };
    },
  },
  {
    method: 'GET',
    path: '/api/_sandbox/links',
    handle: (core) => ({
      status: 200,
      json: { items: [...core.state.links.values()].map((l) => linkView(core, l)) },
    }),
  },
  {
    method: 'GET',
    path: '/api/_sandbox/links/:code',
    handle: (core, r) => {
      const l = core.state.links.get(r.params.code!);
      if (!l) throw httpError(404, 'Not found.');
      return { status: 200, json: linkView(core, l) };
    },
  },
  {
    method: 'GET',
    path: '/api/_sandbox/deliveries',
    handle: (core, r) => {
      const q = r.url.searchParams;
      const items = filterDeliveries(core, {
        meeting: q.get('meeting'),
        event: q.get('event'),
        webhook: q.get('webhook'),
      });
      return { status: 200, json: { items } };
    },
  },
  {
    method: 'GET',
    path: '/api/_sandbox/deliveries/:id',
    handle: (core, r) => ({ status: 200, json: deliveryById(core, r.params.id!) }),
  },
  {
    method: 'POST',
    path: '/api/_sandbox/deliveries/:id/resend',
    handle: (core, r) => ({ status: 202, json: resendDelivery(core, r.params.id!) }),
  },
  {
    method: 'GET',
    path: '/api/_sandbox/faults',
    handle: (core) => ({ status: 200, json: { items: core.faults.list() } }),
  },
  {
    method: 'POST',
    path: '/api/_sandbox/faults',
    body: 'json',
    handle: (core, r) => ({ status: 201, json: { items: addFaults(core, r.body) } }),
  },
  {
    method: 'DELETE',
    path: '/api/_sandbox/faults',
    handle: (core) => {
      core.faults.clear();
      return { status: 204 };
    },
  },
  {
    method: 'DELETE',
    path: '/api/_sandbox/faults/:id',
    handle: (core, r) => {
      if (!/^\d+$/.test(r.params.id!) || !core.faults.remove(Number(r.params.id))) {
        throw httpError(404, 'Not found.', { detail: `No active fault ${r.params.id}.` });
      }
      return { status: 204 };
    },
  },
];
