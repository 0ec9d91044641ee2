// Meeting types as several commands need them: their table columns, and turning what a user
// typed (a UUID or a slug) into a meeting-type UUID — by argument, or from a pick list.
import type { Context } from '../context.js';
import { Failure, UsageError } from '../errors.js';
import type { ApiClient } from '../api/client.js';
import type { MeetingType } from '../api/types.js';
import type { Column } from '../output/render.js';
import { sanitizeCell } from '../output/sanitize.js';
import { quote } from '../text/quote.js';

export const MEETING_TYPE_COLUMNS: readonly Column<MeetingType>[] = [
  { key: 'name', value: (t) => t.name, shrink: true },
  { key: 'slug', value: (t) => t.slug, style: 'cyan' },
  { key: 'duration', header: 'MINUTES', value: (t) => t.duration },
  { key: 'uuid', value: (t) => t.uuid },
];

import { isUuid } from '../api/uuid.js';

export interface ResolvedMeetingType {
  /** What the user gave (a UUID or slug), or the slug picked from the list. */
  ref: string;
  uuid: string;
}

/** Every meeting type of the account (all pages). */
export async function allMeetingTypes(ctx: Context, client: ApiClient): Promise<MeetingType[]> {
  const { meetingTypes } = await import('../api/endpoints.js');
  const { adaptivePageLimiter } = await import('../bulk/page-walk.js');
  const list: MeetingType[] = [];
  for await (const t of meetingTypes(client, {
    all: true,
    signal: ctx.signal,
    limiter: adaptivePageLimiter,
  }))
    list.push(t);
  return list;
}

function suggestions(ref: string, types: readonly MeetingType[]): string[] {
  const r = ref.toLowerCase();
  return types
    .filter((t) => {
      const slug = String(t.slug).toLowerCase();
      return slug.includes(r) || r.includes(slug) || String(t.name).toLowerCase().includes(r);
    })
    .slice(0, 5)
    .map((t) => `did you mean ${quote(String(t.slug))}? (${sanitizeCell(String(t.name))})`);
}

/** Longer than any slug the service makes; a longer argument is a paste gone wrong. */
const MAX_SLUG = 200;

/**
 * What can be neither a UUID nor a slug (empty, white space or control characters inside,
 * absurdly long) is a usage error before any request: a slug lookup would list every meeting
 * type only to say "no meeting type with slug ...".
 */
export function checkMeetingTypeRefs(refs: readonly string[]): void {
  const bad = refs.filter(
    // eslint-disable-next-line no-control-regex
    (r) => r.trim() === '' || /[\s\u0000-\u001f\u007f-\u009f/?#]/.test(r) || r.length > MAX_SLUG,
  );
  if (bad.length > 0) {
    throw new UsageError(
      `not a meeting-type UUID or slug: ${bad.map((r) => (r.trim() === '' ? '(empty)' : quote(r))).join(', ')}`,
      { hint: 'slugs have no spaces or slashes; `sched types list` shows the slugs and UUIDs' },
    );
  }
}

/**
 * UUIDs are taken as they are (the API answers 422 for one that does not exist). Slugs are
 * looked up in one listing of every page, made only when there is a slug to look up. An
 * unknown or ambiguous slug is a usage error naming it; all of them are named at once.
 */
export async function resolveMeetingTypes(
  ctx: Context,
  client: ApiClient,
  refs: readonly string[],
): Promise<ResolvedMeetingType[]> {
  checkMeetingTypeRefs(refs);
  const slugs = refs.filter((r) => !isUuid(r));
  if (slugs.length === 0) return refs.map((ref) => ({ ref, uuid: ref }));

  const types = await allMeetingTypes(ctx, client);
  const bySlug = new Map<string, MeetingType[]>();
  for (const t of types) {
    const key = String(t.slug);
    bySlug.set(key, [...(bySlug.get(key) ?? []), t]);
  }
  const find = (ref: string): MeetingType[] => {
    const exact = bySlug.get(ref);
    if (exact) return exact;
    // Slugs are URL parts and usually lower-case; forgive the case of what was typed.
    return types.filter((t) => String(t.slug).toLowerCase() === ref.toLowerCase());
  };

  const unknown: string[] = [];
  const details: string[] = [];
  const ambiguous: string[] = [];
  const resolved = refs.map((ref): ResolvedMeetingType => {
    if (isUuid(ref)) return { ref, uuid: ref };
    const found = find(ref);
    if (found.length === 1) return { ref, uuid: found[0]!.uuid };
    if (found.length === 0) {
      unknown.push(quote(ref));
      for (const line of suggestions(ref, types)) details.push(line);
    } else {
      ambiguous.push(quote(ref));
      details.push(`${quote(ref)} is the slug of ${found.length} meeting types:`);
      for (const t of found) details.push(`  ${t.uuid}  ${sanitizeCell(String(t.name))}`);
    }
    return { ref, uuid: '' };
  });

  if (unknown.length > 0) {
    throw new UsageError(
      `no meeting type with slug ${unknown.join(', ')} (${types.length} meeting types checked)`,
      { details, hint: 'run `sched types list --all` to see the slugs and UUIDs' },
    );
  }
  if (ambiguous.length > 0) {
    throw new UsageError(`ambiguous meeting-type slug ${ambiguous.join(', ')}`, {
      details,
      hint: 'give the UUID of the one you mean instead',
    });
  }
  return resolved;
}

/** The pick list shown on a terminal when no meeting type was given. */
export async function pickMeetingType(
  ctx: Context,
  client: ApiClient,
): Promise<ResolvedMeetingType> {
  const types = await allMeetingTypes(ctx, client);
  if (types.length === 0) {
    throw new Failure('this account has no meeting types to make a link for', {
      hint: 'create a meeting type in the web app first',
    });
  }
  const prompter = await ctx.prompter();
  const uuid = await prompter.select(
    'Meeting type',
    types.map((t) => ({
      name: `${sanitizeCell(String(t.name))} · ${t.duration} min · ${sanitizeCell(String(t.slug))}`,
      value: t.uuid,
    })),
  );
  const picked = types.find((t) => t.uuid === uuid);
  return { ref: picked ? String(picked.slug) : uuid, uuid };
}
