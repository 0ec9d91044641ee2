// Meeting types as several commands need them: their table columns, and turning what a user
// typed (a UUID, a slug or a name) into a meeting-type UUID — by argument, or from a pick list.
import type { Context } from '../../context.js';
import { Failure, NotFoundError, UsageError } from '../../errors.js';
import type { ApiClient } from '../../api/client.js';
import type { MeetingType } from '../../api/types.js';
import type { Column } from '../../output/render.js';
import { sanitizeCell } from '../../text/sanitize.js';
import { quote, shellQuote } from '../../text/quote.js';
import { closest } from '../../text/suggest.js';
import { accountCommand, invocationOf, type Invocation } from '../../text/hints.js';

export const MEETING_TYPE_COLUMNS: readonly Column<MeetingType>[] = [
  { key: 'name', value: (t) => t.name, shrink: true },
  { key: 'slug', value: (t) => t.slug, style: 'cyan' },
  { key: 'duration', header: 'MINUTES', value: (t) => t.duration },
  { key: 'uuid', value: (t) => t.uuid },
];

import { isUuid } from '../../api/uuid.js';

export interface ResolvedMeetingType {
  /** What the user gave (a UUID or slug), or the slug picked from the list. */
  ref: string;
  uuid: string;
}

/** What resolving needs of the context: the signal that stops it (a command's, or a tool call's). */
export type Cancellable = Pick<Context, 'signal'> & Partial<Pick<Context, 'globals'>>;

/** The flags a suggested command keeps (none for a caller without global options: `sched mcp`). */
function invocation(ctx: Cancellable): Invocation {
  return ctx.globals ? invocationOf(ctx.globals) : {};
}

/**
 * Every meeting type of the account (all pages), held to look one up or to pick one: at most
 * MAX_HELD_ITEMS (10,000, docs/links.md), past which the walk stops with one `error:` line
 * (exit 1) instead of reading whatever a server announces. A UUID needs no list.
 */
export async function allMeetingTypes(ctx: Cancellable, client: ApiClient): Promise<MeetingType[]> {
  const [{ meetingTypes }, { heldWalk }] = await Promise.all([
    import('../../api/endpoints.js'),
    import('../../bulk/page-walk.js'),
  ]);
  const hint = `give the meeting type by its UUID (\`${accountCommand(invocation(ctx))`sched types list --name <text>`}\` finds it): a UUID needs no list`;
  const list: MeetingType[] = [];
  for await (const t of meetingTypes(client, heldWalk(ctx.signal, hint))) list.push(t);
  return list;
}

/** A name as people type it: case, and runs of white space, do not count. */
function nameKey(s: string): string {
  return s.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * "did you mean" lines for what matched nothing: the closest slugs first (a near miss of the
 * slug or the name: `intro_call`, `Intro-Cal`), then slugs or names containing what was typed.
 * Bounded by closest() (text/suggest.ts): names far longer than any reference are skipped, and
 * only so many meeting types are compared.
 */
function suggestions(ref: string, types: readonly MeetingType[]): string[] {
  return closest(ref, types, (t) => [String(t.slug), String(t.name)]).items.map(
    (t) => `did you mean ${quote(String(t.slug))}? (${sanitizeCell(String(t.name))})`,
  );
}

/** Unknown references given suggestions: the first few (each compares up to MAX_COMPARED). */
const MAX_SUGGESTED_REFS = 5;

/** The lines that name each meeting type an ambiguous slug or name matched. */
function ambiguity(ref: string, found: readonly MeetingType[]): string[] {
  return [
    `${quote(ref)} names ${found.length} meeting types:`,
    ...found.map(
      (t) => `  ${t.uuid}  ${sanitizeCell(String(t.slug))}  ${sanitizeCell(String(t.name))}`,
    ),
  ];
}

/** Longer than any slug or name the service makes; a longer argument is a paste gone wrong. */
const MAX_REF = 200;

/**
 * What can be no UUID, slug or name (empty, control characters inside, absurdly long) is a
 * usage error before any request: a lookup would list every meeting type only to say "no
 * meeting type ...".
 */
export function checkMeetingTypeRefs(refs: readonly string[], inv: Invocation = {}): void {
  const bad = refs.filter(
    // eslint-disable-next-line no-control-regex
    (r) => r.trim() === '' || /[\u0000-\u001f\u007f-\u009f]/.test(r) || r.length > MAX_REF,
  );
  if (bad.length > 0) {
    throw new UsageError(
      `not a meeting-type UUID, slug or name: ${bad.map((r) => (r.trim() === '' ? '(empty)' : quote(r))).join(', ')}`,
      { hint: `\`${accountCommand(inv)`sched types list`}\` shows the names, slugs and UUIDs` },
    );
  }
}

/**
 * UUIDs are taken as they are, in lower case (the API answers 422 for one that does not
 * exist). Anything else is looked up in one listing of every page, made only when there is
 * something to look up: a slug (its case forgiven), else a name as people see it (case and
 * white space forgiven). An unknown or ambiguous one is a usage error naming it, with the
 * closest slugs; all of them are named at once.
 */
export async function resolveMeetingTypes(
  ctx: Cancellable,
  client: ApiClient,
  refs: readonly string[],
): Promise<ResolvedMeetingType[]> {
  checkMeetingTypeRefs(refs, invocation(ctx));
  const byUuid = (ref: string): ResolvedMeetingType => ({ ref, uuid: ref.toLowerCase() });
  const lookups = refs.filter((r) => !isUuid(r));
  if (lookups.length === 0) return refs.map(byUuid);

  const types = await allMeetingTypes(ctx, client);
  const find = (ref: string) => matchMeetingTypes(types, ref);

  const unknown: string[] = [];
  const unknownRefs: string[] = [];
  // A set: two words of one name (`intro call`) would each suggest the same meeting type.
  const details = new Set<string>();
  const ambiguous: string[] = [];
  const resolved = refs.map((ref): ResolvedMeetingType => {
    if (isUuid(ref)) return byUuid(ref);
    const found = find(ref);
    if (found.length === 1) return { ref, uuid: found[0]!.uuid };
    if (found.length === 0) {
      unknown.push(quote(ref));
      unknownRefs.push(ref);
      if (unknown.length <= MAX_SUGGESTED_REFS) {
        for (const line of suggestions(ref, types)) details.add(line);
      }
    } else {
      ambiguous.push(quote(ref));
      for (const d of ambiguity(ref, found)) details.add(d);
    }
    return { ref, uuid: '' };
  });

  if (unknown.length > 0) {
    // The words of one name given unquoted (`link create intro call`): say to quote it.
    const whole = unknownRefs.join(' ');
    const oneName = unknownRefs.length > 1 && find(whole).length > 0;
    throw new UsageError(
      `no meeting type with slug or name ${unknown.join(', ')} (${types.length} meeting types checked)`,
      {
        details: [...details],
        hint: oneName
          ? `a name with spaces is one argument: quote it, e.g. ${shellQuote(whole)}`
          : `run \`${accountCommand(invocation(ctx))`sched types list --all`}\` to see the names, slugs and UUIDs`,
      },
    );
  }
  if (ambiguous.length > 0) {
    throw new UsageError(`ambiguous meeting type ${ambiguous.join(', ')}`, {
      details: [...details],
      hint: 'give the UUID of the one you mean instead',
    });
  }
  return resolved;
}

/**
 * The meeting types a UUID, slug or name given by a user means, the one rule of `link create`
 * and `types get`: a UUID (any case); else the slug exactly, else the slug in any case (slugs
 * are URL parts, usually lower-case); else the name as people see it (case and runs of white
 * space forgiven). Several when a slug or name is shared.
 */
export function matchMeetingTypes(types: readonly MeetingType[], ref: string): MeetingType[] {
  if (isUuid(ref)) return types.filter((t) => String(t.uuid).toLowerCase() === ref.toLowerCase());
  const exact = types.filter((t) => String(t.slug) === ref);
  if (exact.length > 0) return exact;
  const slug = types.filter((t) => String(t.slug).toLowerCase() === ref.toLowerCase());
  if (slug.length > 0) return slug;
  return types.filter((t) => nameKey(String(t.name)) === nameKey(ref));
}

/** `types list --name`: the text anywhere in the name or the slug, case forgiven. */
export function nameFilter(text: string): (t: MeetingType) => boolean {
  const want = nameKey(text);
  return (t) => nameKey(String(t.name)).includes(want) || nameKey(String(t.slug)).includes(want);
}

/**
 * `types get`: the one meeting type a UUID, slug or name means (every page read: the API has
 * no single-type endpoint). None: not found (exit 5), with the closest; several: ambiguous.
 */
export async function getMeetingType(
  ctx: Context,
  client: ApiClient,
  ref: string,
): Promise<MeetingType> {
  checkMeetingTypeRefs([ref], invocation(ctx));
  const types = await allMeetingTypes(ctx, client);
  const found = matchMeetingTypes(types, ref);
  if (found.length === 1) return found[0]!;
  if (found.length === 0) {
    throw new NotFoundError(
      `no meeting type with UUID, slug or name ${quote(ref)} (${types.length} meeting types checked)`,
      {
        details: suggestions(ref, types),
        hint: `run \`${accountCommand(invocation(ctx))`sched types list --name <text>`}\` to find it by part of its name`,
      },
    );
  }
  throw new UsageError(`ambiguous meeting type ${quote(ref)}`, {
    details: ambiguity(ref, found),
    hint: 'give the UUID of the one you mean instead',
  });
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
    // Hundreds of types: typing filters the list, and the prompt shows what was typed.
    { filter: true },
  );
  const picked = types.find((t) => t.uuid === uuid);
  return { ref: picked ? String(picked.slug) : uuid, uuid };
}
