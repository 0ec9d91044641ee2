// Sandbox-only control endpoints under /api/_sandbox: they stand in for what invitees do on the
// real service (book, cancel, reschedule) and let tests look inside (meetings, links,
// deliveries). They need X-API-KEY like the rest of /api.
import { linkUrl, parsePaging, envelope } from './api.js';
import { httpError, validationError } from './http.js';
import { actionResult, bookLink, cancel, findLink, reschedule } from './meetings.js';
import type { Route } from './router.js';
import type { SandboxCore } from './core.js';
import type { LinkRecord } from './state.js';

function linkView(core: SandboxCore, l: LinkRecord) {
  return {
    code: l.code,
    url: linkUrl(core, l.code),
    meeting_type_uuid: l.meeting_type_uuid,
    created_at: l.created_at,
    used_at: l.used_at,
    meeting_uuid: l.meeting_uuid,
  };
}

export const controlRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/_sandbox/book',
    auth: true,
    body: 'json',
    handle: (core, r) => {
      const { code, url } = r.body;
      const given = code ?? url;
      if (given === undefined || given === null || given === '') {
        throw validationError({ code: ['Give the link as "code" or "url".'] });
      }
      if (typeof given !== 'string') {
        throw validationError({
          [code !== undefined ? 'code' : 'url']: ['This value should be of type string.'],
        });
      }
      const link = findLink(core, given);
      if (!link) throw httpError(404, 'Not found.', { detail: `No single-use link "${given}".` });
      return { status: 201, json: actionResult(bookLink(core, link, r.body)) };
    },
  },
  {
    method: 'GET',
    path: '/api/_sandbox/meetings',
    auth: true,
    body: 'none',
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
    auth: true,
    body: 'none',
    handle: (core, r) => {
      const m = core.state.meetings.get(r.params.uuid!);
      if (!m) throw httpError(404, 'Not found.');
      return { status: 200, json: m.meeting };
    },
  },
  {
    method: 'POST',
    path: '/api/_sandbox/meetings/:uuid/cancel',
    auth: true,
    body: 'json',
    handle: (core, r) => ({
      status: 200,
      json: actionResult(cancel(core, r.params.uuid!, r.body)),
    }),
  },
  {
    method: 'POST',
    path: '/api/_sandbox/meetings/:uuid/reschedule',
    auth: true,
    body: 'json',
    handle: (core, r) => ({
      status: 200,
      json: actionResult(reschedule(core, r.params.uuid!, r.body)),
    }),
  },
  {
    method: 'GET',
    path: '/api/_sandbox/links',
    auth: true,
    body: 'none',
    handle: (core) => ({
      status: 200,
      json: { items: [...core.state.links.values()].map((l) => linkView(core, l)) },
    }),
  },
  {
    method: 'GET',
    path: '/api/_sandbox/links/:code',
    auth: true,
    body: 'none',
    handle: (core, r) => {
      const l = core.state.links.get(r.params.code!);
      if (!l) throw httpError(404, 'Not found.');
      return { status: 200, json: linkView(core, l) };
    },
  },
  {
    method: 'GET',
    path: '/api/_sandbox/deliveries',
    auth: true,
    body: 'none',
    handle: (core, r) => {
      const q = r.url.searchParams;
      const meeting = q.get('meeting');
      const event = q.get('event');
      const webhook = q.get('webhook');
      const items = core.deliveries.records.filter(
        (d) =>
          (meeting === null || d.meeting_uuid === meeting) &&
          (event === null || d.event === event) &&
          (webhook === null || d.webhook_uuid === webhook),
      );
      return { status: 200, json: { items } };
    },
  },
];
