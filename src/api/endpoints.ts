// One typed function per endpoint of the service API. Each returns exactly the
// objects the API returned, unknown fields included, after checking only what the CLI relies
// on (so a wrong shape is one clear error rather than a crash further on).
import { ApiError, NotFoundError } from '../errors.js';
import type { ApiClient, RateLimitOwner } from './client.js';
import {
  paginate,
  parseEnvelope,
  type Page,
  type Paginated,
  type PaginateOptions,
} from './paginate.js';
import type { MeetingType, SingleUseLink, Webhook } from './types.js';
import { webhookCreatedHint, type Invocation } from '../text/hints.js';

export type SortDirection = 'asc' | 'desc';

export interface CallOptions {
  signal?: AbortSignal;
  /** The flags a suggested command keeps (--profile, --base-url). */
  invocation?: Invocation;
  /** The scheduler that owns this request's 429s (see ApiRequest.rateLimitOwner). */
  rateLimitOwner?: RateLimitOwner;
}

export interface ListOptions extends CallOptions {
  page?: number;
  limit?: number;
}

export interface MeetingTypeListOptions extends ListOptions {
  /** `[['name', 'asc']]` is sent as `sorting[name]=asc`, in the given order. */
  sorting?: Array<[string, SortDirection]>;
}

export const MEETING_TYPES_PATH = '/users/me/meeting-types';
export const WEBHOOKS_PATH = '/webhooks';
export const SINGLE_USE_LINK_PATH = '/single-use-link';

function pageQuery(o: ListOptions): Array<[string, string]> {
  const q: Array<[string, string]> = [];
  if (o.page !== undefined) q.push(['page', String(o.page)]);
  if (o.limit !== undefined) q.push(['limit', String(o.limit)]);
  return q;
}

function shapeError(what: string, why: string): ApiError {
  return new ApiError(`unexpected response shape from ${what}: ${why}`);
}

function requireObject(body: unknown, what: string, fields: string[]): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw shapeError(what, 'not a JSON object');
  }
  const o = body as Record<string, unknown>;
  for (const f of fields) {
    if (typeof o[f] !== 'string') throw shapeError(what, `\`${f}\` is missing or not a string`);
  }
  return o;
}

/** GET /users/me/meeting-types — one page. */
export async function listMeetingTypes(
  client: ApiClient,
  opts: MeetingTypeListOptions = {},
): Promise<Page<MeetingType>> {
  const query = pageQuery(opts);
  for (const [field, dir] of opts.sorting ?? []) query.push([`sorting[${field}]`, dir]);
  const res = await client.request<unknown>({
    method: 'GET',
    path: MEETING_TYPES_PATH,
    query,
    signal: opts.signal,
    rateLimitOwner: opts.rateLimitOwner,
  });
  return parseEnvelope<MeetingType>(res.body, `GET ${MEETING_TYPES_PATH}`);
}

/** POST /single-use-link — answers 200 with {code, url}; 422 when the meeting type is unknown. */
export async function createSingleUseLink(
  client: ApiClient,
  meetingTypeUuid: string,
  opts: CallOptions = {},
): Promise<SingleUseLink> {
  const what = `POST ${SINGLE_USE_LINK_PATH}`;
  const res = await client.request<unknown>({
    method: 'POST',
    path: SINGLE_USE_LINK_PATH,
    body: { meeting_type_uuid: meetingTypeUuid },
    signal: opts.signal,
    rateLimitOwner: opts.rateLimitOwner,
    unknownOutcomeHint:
      'a link may have been created without being shown; running the command again makes a new one',
  });
  return requireObject(res.body, what, ['url']) as SingleUseLink;
}

export interface WebhookInput {
  url: string;
  events: string[];
  /**
   * The signing secret. Undefined (or null) leaves the field out of the body: the older API
   * docs make it optional, and leaving it out (rather than sending null) is how an unsigned
   * webhook was created there. The newer docs mark it required; a service that insists
   * answers 422, which the caller reports with the field error.
   */
  secret?: string | null;
}

/** POST /webhooks — answers 201 with the webhook (its secret included, this once). */
export async function createWebhook(
  client: ApiClient,
  input: WebhookInput,
  opts: CallOptions = {},
): Promise<Webhook> {
  const what = `POST ${WEBHOOKS_PATH}`;
  const body: Record<string, unknown> = { url: input.url, events: input.events };
  if (input.secret !== undefined && input.secret !== null) body.secret = input.secret;
  const res = await client.request<unknown>({
    method: 'POST',
    path: WEBHOOKS_PATH,
    body,
    sensitive: typeof body.secret === 'string' ? [body.secret] : undefined,
    signal: opts.signal,
    rateLimitOwner: opts.rateLimitOwner,
    unknownOutcomeHint: webhookCreatedHint(opts.invocation ?? {}),
  });
  return requireObject(res.body, what, ['uuid']) as Webhook;
}

/** GET /webhooks — one page (items carry secret: null). */
export async function listWebhooks(
  client: ApiClient,
  opts: ListOptions = {},
): Promise<Page<Webhook>> {
  const res = await client.request<unknown>({
    method: 'GET',
    path: WEBHOOKS_PATH,
    query: pageQuery(opts),
    signal: opts.signal,
    rateLimitOwner: opts.rateLimitOwner,
  });
  return parseEnvelope<Webhook>(res.body, `GET ${WEBHOOKS_PATH}`);
}

export interface DeleteResult {
  uuid: string;
  /** A retry found it gone after an earlier attempt may have deleted it. */
  alreadyGone: boolean;
}

/** DELETE /webhooks/:id — 204; NotFoundError (exit 5) when it does not exist. */
export async function deleteWebhook(
  client: ApiClient,
  uuid: string,
  opts: CallOptions = {},
): Promise<DeleteResult> {
  const res = await client.request<unknown>({
    method: 'DELETE',
    path: `${WEBHOOKS_PATH}/${encodeURIComponent(uuid)}`,
    signal: opts.signal,
    rateLimitOwner: opts.rateLimitOwner,
  });
  return { uuid, alreadyGone: res.alreadyGone === true };
}

/**
 * Deletes a webhook that should not exist any more, where one already gone (a 404, at once or
 * after an attempt that may have reached the server) is as good as deleted: how `webhooks sync`
 * and `webhooks listen --register` clean up. (`webhooks rm` names a missing webhook instead.)
 */
export async function removeWebhook(
  client: ApiClient,
  uuid: string,
  opts: CallOptions = {},
): Promise<'deleted' | 'gone'> {
  try {
    return (await deleteWebhook(client, uuid, opts)).alreadyGone ? 'gone' : 'deleted';
  } catch (e) {
    if (e instanceof NotFoundError) return 'gone';
    throw e;
  }
}

/** Meeting types across one page or (`all`) every page; see paginate(). */
export function meetingTypes(
  client: ApiClient,
  opts: PaginateOptions & { sorting?: Array<[string, SortDirection]> } = {},
): Paginated<MeetingType> {
  return paginate<MeetingType>(
    (page, limit, signal, rateLimitOwner) =>
      listMeetingTypes(client, { page, limit, signal, sorting: opts.sorting, rateLimitOwner }),
    { ...opts, what: `GET ${MEETING_TYPES_PATH}` },
  );
}

/** Webhooks across one page or (`all`) every page; see paginate(). */
export function webhooks(client: ApiClient, opts: PaginateOptions = {}): Paginated<Webhook> {
  return paginate<Webhook>(
    (page, limit, signal, rateLimitOwner) =>
      listWebhooks(client, { page, limit, signal, rateLimitOwner }),
    { ...opts, what: `GET ${WEBHOOKS_PATH}` },
  );
}
