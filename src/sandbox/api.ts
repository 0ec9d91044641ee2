// The service's API endpoints: meeting types, single-use links, webhooks. Each handler
// validates strictly and answers with the service's exact statuses and bodies.
import { EVENT_NAMES, isEventName, type Envelope, type Webhook } from '../api/types.js';
import { httpError, validationError } from './http.js';
import type { SandboxCore } from './core.js';
import type { SandboxRandom } from './random.js';
import type { Route } from './router.js';
import { DEFAULT_SORT, LIST_FIELDS, type ListField, type SortSpec } from './state.js';
import type { LinkRecord } from './state.js';
import { isoWithOffset } from './seed.js';

export const DEFAULT_LIMIT = 10;
/** The largest page size served; a larger `limit` is clamped and the envelope says so. */
export const MAX_LIMIT = 100;

/** One value of a query parameter; PHP-style, the last occurrence wins. */
function lastParam(q: URLSearchParams, name: string): string | undefined {
  const all = q.getAll(name);
  return all.length > 0 ? all[all.length - 1] : undefined;
}

function positiveParam(q: URLSearchParams, name: string, fallback: number): number {
  const raw = lastParam(q, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1) {
    throw httpError(400, `Invalid ${name} "${raw}": it must be a whole number of at least 1.`);
  }
  return n;
}

export interface Paging {
  page: number;
  limit: number;
}

export function parsePaging(q: URLSearchParams): Paging {
  const page = positiveParam(q, 'page', 1);
  const limit = Math.min(positiveParam(q, 'limit', DEFAULT_LIMIT), MAX_LIMIT);
  return { page, limit };
}

/** `sorting[<field>]=asc|desc`, repeatable; the order of first appearance is the sort priority. */
export function parseSorting(q: URLSearchParams): SortSpec {
  const spec = new Map<ListField, 'asc' | 'desc'>();
  for (const [key, value] of q) {
    if (key !== 'sorting' && !key.startsWith('sorting[')) continue;
    const m = /^sorting\[([^[\]]*)\]$/.exec(key);
    if (!m) {
      throw httpError(
        400,
        `Invalid sorting parameter "${key}": use sorting[<field>]=asc|desc with a field among ${LIST_FIELDS.join(', ')}.`,
        { allowed_fields: LIST_FIELDS },
      );
    }
    const field = m[1]!;
    if (!(LIST_FIELDS as readonly string[]).includes(field)) {
      throw httpError(
        400,
        `Invalid sorting field "${field}": allowed fields are ${LIST_FIELDS.join(', ')}.`,
        { allowed_fields: LIST_FIELDS },
      );
    }
    const dir = value.toLowerCase();
    if (dir !== 'asc' && dir !== 'desc') {
      throw httpError(400, `Invalid sorting direction "${value}" for "${field}": use asc or desc.`);
    }
    spec.set(field as ListField, dir);
  }
  return spec.size === 0 ? DEFAULT_SORT : [...spec];
}

/** The paged list envelope ({page, limit, pages, total, _embedded.items}). `total` of 0 still has one (empty) page. */
export function envelope<T>(path: string, items: T[], paging: Paging, total: number): Envelope<T> {
  const pages = Math.max(1, Math.ceil(total / paging.limit));
  const href = (page: number) => ({ href: `/api${path}?page=${page}&limit=${paging.limit}` });
  return {
    page: paging.page,
    limit: paging.limit,
    pages,
    total,
    _links: { self: href(paging.page), first: href(1), last: href(pages) },
    _embedded: { items },
  };
}

export function listMeetingTypes(core: SandboxCore, q: URLSearchParams): Envelope<unknown> {
  const paging = parsePaging(q);
  const sorted = core.state.sortedMeetingTypes(parseSorting(q));
  const start = (paging.page - 1) * paging.limit;
  const items = [];
  for (let i = start; i < sorted.length && i < start + paging.limit; i++) {
    const t = sorted[i]!;
    items.push({
      uuid: t.uuid,
      name: t.name,
      slug: t.slug,
      description: t.description,
      duration: t.duration,
      position: t.position,
      created_at: t.created_at,
    });
  }
  return envelope('/users/me/meeting-types', items, paging, sorted.length);
}

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random URL-safe code, unbiased over 62 symbols. */
export function randomCode(random: SandboxRandom, length = 12): string {
  let out = '';
  while (out.length < length) {
    for (const b of random.bytes(length * 2)) {
      // 248 = 4 * 62: bytes above it would favour the first symbols.
      if (b < 248 && out.length < length) out += CODE_ALPHABET[b % 62];
    }
  }
  return out;
}

/**
 * A UUID not yet a key of `taken`: a seeded sandbox that loaded a state file starts its
 * sequence again, so it may draw one it made in an earlier run.
 */
export function freshUuid(core: SandboxCore, taken: ReadonlyMap<string, unknown>): string {
  let uuid = core.random.uuid();
  while (taken.has(uuid)) uuid = core.random.uuid();
  return uuid;
}

export function linkUrl(core: SandboxCore, code: string): string {
  return `${core.publicUrl}/s/${code}`;
}

/** A link as the control API and the console show it. */
export function linkView(core: SandboxCore, l: LinkRecord) {
  return {
    code: l.code,
    url: linkUrl(core, l.code),
    meeting_type_uuid: l.meeting_type_uuid,
    created_at: l.created_at,
    used_at: l.used_at,
    meeting_uuid: l.meeting_uuid,
  };
}

export function createSingleUseLink(
  core: SandboxCore,
  body: Record<string, unknown>,
): { code: string; url: string } {
  const uuid = body.meeting_type_uuid;
  if (uuid === undefined || uuid === null || uuid === '') {
    throw validationError({ meetingTypeUuid: ['This value should not be blank.'] });
  }
  if (typeof uuid !== 'string') {
    throw validationError({ meetingTypeUuid: ['This value should be of type string.'] });
  }
  if (!core.state.meetingTypesByUuid.has(uuid)) {
    throw validationError({
      meetingTypeUuid: [`Meeting Type with uuid ${uuid} was not found.`],
    });
  }
  let code = randomCode(core.random);
  while (core.state.links.has(code)) code = randomCode(core.random);
  core.state.links.set(code, {
    code,
    meeting_type_uuid: uuid,
    created_at: isoWithOffset(core.now()),
    used_at: null,
    meeting_uuid: null,
  });
  core.state.changed();
  return { code, url: linkUrl(core, code) };
}

/**
 * Symfony's Url constraint in spirit: an absolute http(s) URL with a host and no white space,
 * no control character (C0, DEL, C1) and no invisible format character. The URL is stored as
 * given and shown in the delivery log, so what it holds must be safe to print.
 */
export function isValidWebhookUrl(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (value.length > 2048 || /[\s\x00-\x1f\x7f-\x9f\p{Cf}]/u.test(value)) return false;
  if (!/^https?:\/\//i.test(value)) return false;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return false;
  }
  return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
}

export function createWebhook(core: SandboxCore, body: Record<string, unknown>): Webhook {
  const errors: Record<string, string[]> = {};
  const { url, events, secret } = body;

  if (url === undefined || url === null || url === '') {
    errors.url = ['This value should not be blank.'];
  } else if (typeof url !== 'string') {
    errors.url = ['This value should be of type string.'];
  } else if (!isValidWebhookUrl(url)) {
    errors.url = ['This value is not a valid URL.'];
  }

  let eventList: string[] = [];
  if (events === undefined || events === null) {
    errors.events = ['This value should not be blank.'];
  } else if (!Array.isArray(events) || events.some((e) => typeof e !== 'string')) {
    errors.events = ['This value should be of type array of strings.'];
  } else if (events.length === 0) {
    errors.events = ['This collection should contain 1 element or more.'];
  } else {
    const unknown = (events as string[]).filter((e) => !isEventName(e));
    if (unknown.length > 0) {
      errors.events = unknown.map(
        (e) =>
          `The value "${e}" is not a valid choice. Valid choices: ${EVENT_NAMES.map((n) => `"${n}"`).join(', ')}.`,
      );
    } else {
      eventList = [...new Set(events as string[])];
    }
  }

  if (secret !== undefined && secret !== null && typeof secret !== 'string') {
    errors.secret = ['This value should be of type string.'];
  }

  if (Object.keys(errors).length > 0) throw validationError(errors);

  const webhook = {
    url: url as string,
    secret: typeof secret === 'string' ? secret : null,
    events: eventList,
    created_at: isoWithOffset(core.now()),
    uuid: freshUuid(core, core.state.webhooks),
  };
  core.state.webhooks.set(webhook.uuid, webhook);
  core.state.changed();
  return { ...webhook };
}

export function listWebhooks(core: SandboxCore, q: URLSearchParams): Envelope<Webhook> {
  const paging = parsePaging(q);
  const all = [...core.state.webhooks.values()];
  const start = (paging.page - 1) * paging.limit;
  const items = all.slice(start, start + paging.limit).map((w) => ({
    url: w.url,
    secret: null,
    events: [...w.events],
    created_at: w.created_at,
    uuid: w.uuid,
  }));
  return envelope('/webhooks', items, paging, all.length);
}

export function deleteWebhook(core: SandboxCore, id: string): void {
  if (!core.state.webhooks.delete(id)) throw httpError(404, 'Not found.');
  core.state.changed();
}

/** The service API of spec section 4. */
export const apiRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/users/me/meeting-types',
    handle: (core, r) => ({ status: 200, json: listMeetingTypes(core, r.url.searchParams) }),
  },
  {
    method: 'POST',
    path: '/api/single-use-link',
    body: 'json',
    handle: (core, r) => ({ status: 200, json: createSingleUseLink(core, r.body) }),
  },
  {
    method: 'POST',
    path: '/api/webhooks',
    body: 'json',
    handle: (core, r) => ({ status: 201, json: createWebhook(core, r.body) }),
  },
  {
    method: 'GET',
    path: '/api/webhooks',
    handle: (core, r) => ({ status: 200, json: listWebhooks(core, r.url.searchParams) }),
  },
  {
    method: 'DELETE',
    path: '/api/webhooks/:id',
    handle: (core, r) => {
      deleteWebhook(core, r.params.id!);
      return { status: 204 };
    },
  },
];
