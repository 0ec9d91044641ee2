// The one rule for an event name someone typed, whoever takes it: `webhooks add --event`,
// `webhooks listen --event`, the `events` of a `webhooks sync` file, and the argument of
// `events sample|send`. A name is one of the service's three, with the case forgiven and white
// space around it ignored (`meetingrescheduled` is meetingRescheduled); anything else is refused
// with the nearest name and the list of allowed ones. What is sent is always the API's spelling.
import { EVENT_NAMES, type EventName } from '../../api/types.js';
import { UsageError } from '../../errors.js';
import { quote } from '../../text/quote.js';
import { didYouMeanInline } from '../../text/suggest.js';

const ALLOWED = `allowed: ${EVENT_NAMES.join(', ')}`;

/** The event `raw` names, spelt as the API spells it, or undefined when it names none. */
export function canonicalEventName(raw: string): EventName | undefined {
  const v = raw.trim().toLowerCase();
  return EVENT_NAMES.find((e) => e.toLowerCase() === v);
}

/**
 * Why `raw` names no event, for a message (a caller may put its flag or field in front):
 * `unknown event "meetingBoked" (did you mean "meetingBooked"?); allowed: …`.
 */
export function eventNameProblem(raw: string): string {
  const v = raw.trim();
  if (v === '') return `the event name is empty; ${ALLOWED}`;
  return `unknown event ${quote(v)}${didYouMeanInline(v, EVENT_NAMES)}; ${ALLOWED}`;
}

/**
 * The events of a webhook that names none: every event, in the API's order. The one default
 * for `webhooks add` without --event, a `webhooks sync` entry without `events`, and
 * `webhooks listen --register` without --event (test/rules/default-events.test.ts).
 */
export function defaultEvents(): EventName[] {
  return [...EVENT_NAMES];
}

/** The event an argument or flag value names, or a usage error (exit 2). */
export function checkEventName(raw: string): EventName {
  const name = canonicalEventName(raw);
  if (name) return name;
  throw new UsageError(eventNameProblem(raw));
}

/**
 * Event names from a repeatable flag (`--event a --event b`, or `--event a,b`): duplicates
 * collapsed, in the canonical order; all three when the flag is not given. An empty value
 * (`--event ""`, an unset shell variable) is a mistake, not "all events". Every unknown name
 * is reported, the first in the message and the others under it.
 */
export function parseEventList(values: readonly string[] | undefined): EventName[] {
  const given = values ?? [];
  if (given.some((v) => v.trim() === '')) {
    throw new UsageError(eventNameProblem(''), {
      hint: 'leave --event out to subscribe to every event',
    });
  }
  const names = given
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  if (names.length === 0) return defaultEvents();
  const chosen = new Set<EventName>();
  const problems: string[] = [];
  for (const v of names) {
    const name = canonicalEventName(v);
    if (name) chosen.add(name);
    else problems.push(eventNameProblem(v));
  }
  if (problems.length > 0) throw new UsageError(problems[0]!, { details: problems.slice(1) });
  return EVENT_NAMES.filter((e) => chosen.has(e));
}
