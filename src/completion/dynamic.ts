// `sched __complete <kind>` (hidden): the values the completion scripts cannot know in
// advance. Protocol: one candidate per line, "value" or "value<TAB>description", exit 0.
// It runs under a shell's TAB key, so it never prints an error and never outlives
// --timeout (the scripts pass 2 seconds): any failure or delay simply means no candidates.
// What the server lists is kept for a minute (./cache.ts), so the next TAB needs no request.
import type { ApiClient } from '../api/client.js';
import type * as Endpoints from '../api/endpoints.js';
import { removeInvisible } from '../text/sanitize.js';
import type { Context, Credentials } from '../context.js';
import { completionCache, readCached, writeCached } from './cache.js';
import { DYNAMIC_KINDS, type DynamicKind } from './model.js';
import { renderText } from '../output/render.js';

export type Candidate = [value: string, description?: string];

/** One page is enough for completion; it keeps the cost to a single request. */
const PAGE_SIZE = 50;

/**
 * Server and config strings reach a terminal: no control characters, no tabs (the protocol's
 * separator), one line, and no bidi or invisible characters.
 */
function clean(s: string): string {
  // eslint-disable-next-line no-control-regex
  return removeInvisible(s.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')).trim();
}

async function profiles(ctx: Context): Promise<Candidate[]> {
  const { listProfiles } = await import('./profiles.js');
  return (await listProfiles(ctx.env)).map(({ name, baseUrl }) => [name, baseUrl]);
}

/**
 * A client that does not retry: under a TAB key one quick attempt is right, and the user can
 * press TAB again.
 */
async function completionClient(ctx: Context, creds: Credentials): Promise<ApiClient> {
  const { createApiClient } = await import('../api/client.js');
  const client = createApiClient({
    baseUrl: creds.baseUrl,
    apiKey: creds.apiKey!,
    timeoutMs: ctx.globals.timeoutMs,
    userAgent: `sched/${ctx.version}`,
    env: ctx.env,
    retry: { retries: 0 },
    connections: 1,
  });
  ctx.defer(() => client.close());
  return client;
}

/**
 * Candidates read from the server, or from the completion cache (./cache.ts) while a list of
 * the same profile, base URL and kind is fresh. No key (or only a key command) means nothing to
 * offer (never an error).
 */
async function fromServer(
  ctx: Context,
  kind: DynamicKind,
  read: (client: ApiClient, endpoints: typeof Endpoints) => Promise<Candidate[]>,
): Promise<Candidate[]> {
  // A profile's key command is never run under TAB (it may ask for a password or take
  // seconds): such a profile has no key here, so nothing from the server is offered.
  const creds = await ctx.credentials({ runKeyCommand: false });
  if (!creds.apiKey) return [];
  const cache = completionCache(ctx.env);
  const key = { profile: creds.profile, baseUrl: creds.baseUrl, kind, apiKey: creds.apiKey };
  const hit = cache && readCached(cache, key);
  if (hit) return hit;
  const [client, endpoints] = await Promise.all([
    completionClient(ctx, creds),
    import('../api/endpoints.js'),
  ]);
  const list = await read(client, endpoints);
  if (cache) writeCached(cache, key, list);
  return list;
}

const meetingTypes = (ctx: Context, signal: AbortSignal) =>
  fromServer(ctx, 'meeting-types', async (client, { listMeetingTypes }) =>
    (await listMeetingTypes(client, { limit: PAGE_SIZE, signal })).items
      .filter((t) => typeof t.slug === 'string' && t.slug !== '')
      .map((t): Candidate => [t.slug, `${t.name} (${t.duration} min)`]),
  );

const webhooks = (ctx: Context, signal: AbortSignal) =>
  fromServer(ctx, 'webhooks', async (client, { listWebhooks }) =>
    (await listWebhooks(client, { limit: PAGE_SIZE, signal })).items
      .filter((w) => typeof w.uuid === 'string' && w.uuid !== '')
      .map((w): Candidate => [w.uuid, `${w.url} (${(w.events ?? []).join(', ')})`]),
  );

export function candidates(
  ctx: Context,
  kind: DynamicKind,
  signal: AbortSignal,
): Promise<Candidate[]> {
  switch (kind) {
    case 'profiles':
      return profiles(ctx);
    case 'meeting-types':
      return meetingTypes(ctx, signal);
    case 'webhooks':
      return webhooks(ctx, signal);
  }
}

export function formatCandidates(list: Candidate[]): string {
  return list
    .map(([value, description]) => {
      const v = clean(value);
      const d = description === undefined ? '' : clean(description);
      return v === '' ? '' : d ? `${v}\t${d}\n` : `${v}\n`;
    })
    .join('');
}

export async function run(ctx: Context, opts: { kind: string }): Promise<void> {
  const kind = opts.kind as DynamicKind;
  if (!DYNAMIC_KINDS.includes(kind)) return;
  const deadline = new AbortController();
  const signal = AbortSignal.any([ctx.signal, deadline.signal]);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<Candidate[]>((resolve) => {
    timer = setTimeout(() => {
      deadline.abort();
      resolve([]);
    }, ctx.globals.timeoutMs);
  });
  try {
    // The race keeps the promise of silence even if some step ignores the signal.
    const work = candidates(ctx, kind, signal);
    work.catch(() => {}); // it may still fail after the deadline won the race
    const list = await Promise.race([work, expired]);
    await renderText(ctx.io, formatCandidates(list));
  } catch {
    // Nothing to offer: a shell completion must never show an error.
  } finally {
    clearTimeout(timer);
    deadline.abort();
  }
}
