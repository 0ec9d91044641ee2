// Checks the whole sync document before any request and collects every problem at once, each
// named by its place in the file (`webhooks[2].events[0]: ...`). Secrets are resolved here too,
// so an unset `secretEnv` stops the run before anything changes. No message ever quotes a secret.
import { EVENT_NAMES, type EventName } from '../../../api/types.js';
import { quote } from '../../../text/quote.js';
import { didYouMeanInline } from '../../../text/suggest.js';
import { canonicalEventName, defaultEvents, eventNameProblem } from '../event-names.js';
import { urlKey, webhookUrlProblem } from '../url.js';
import { envSecret, envSecretProblem } from '../secret.js';
import type { DesiredWebhook } from './types.js';

export interface Validation {
  entries: DesiredWebhook[];
  /** Errors: any of them means nothing may be sent. */
  problems: string[];
  /** Worth telling, not worth stopping for. */
  warnings: string[];
  /**
   * The secretEnv variables that are unset or empty. With `needSecrets` each is also a problem;
   * without (a dry run), their entries carry an empty secret that is never sent.
   */
  unsetSecretEnv: string[];
}

export interface ValidateOptions {
  /**
   * Whether the secrets must be there (a real run creates webhooks with them). A dry run only
   * plans, and the API never returns a secret, so a plan job without secrets can still plan.
   */
  needSecrets?: boolean;
}

const TOP_KEYS = ['webhooks'] as const;
// `$schema` lets editors attach a JSON schema; it means nothing to sync.
const TOP_IGNORED = ['$schema'];
const ENTRY_KEYS = ['url', 'events', 'secret', 'secretEnv'] as const;
const ALLOWED_EVENTS = EVENT_NAMES.join(', ');

export function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'number') return 'a number';
  if (typeof v === 'boolean') return 'a boolean';
  return typeof v;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What the rules of one entry add to: the validation under way and the URLs seen so far. */
interface Checking {
  readonly env: Record<string, string | undefined>;
  readonly needSecrets: boolean;
  readonly problems: string[];
  readonly warnings: string[];
  readonly unsetSecretEnv: string[];
  /** The index of the first entry with each URL (by urlKey). */
  readonly seenUrls: Map<string, number>;
}

type Secret = { secret: string; secretSource: DesiredWebhook['secretSource'] };

export function validateSyncDocument(
  doc: unknown,
  env: Record<string, string | undefined>,
  opts: ValidateOptions = {},
): Validation {
  const c: Checking = {
    env,
    needSecrets: opts.needSecrets ?? true,
    problems: [],
    warnings: [],
    unsetSecretEnv: [],
    seenUrls: new Map(),
  };
  const result = (entries: DesiredWebhook[]): Validation => ({
    entries: c.problems.length === 0 ? entries : [],
    problems: c.problems,
    warnings: c.warnings,
    unsetSecretEnv: c.unsetSecretEnv,
  });
  const list = webhookList(doc, c);
  if (!list) return result([]);
  const entries: DesiredWebhook[] = [];
  list.forEach((raw: unknown, index) => {
    const entry = checkEntry(raw, index, c);
    if (entry) entries.push(entry);
  });
  return result(entries);
}

/** The document's `webhooks` array, or undefined (with the problem said) when there is none. */
function webhookList(doc: unknown, c: Checking): unknown[] | undefined {
  if (!isRecord(doc)) {
    const wrap = Array.isArray(doc) ? '; wrap the list: {"webhooks": [...]}' : '';
    c.problems.push(
      `the file must hold an object with a "webhooks" array, found ${describeType(doc)}${wrap}`,
    );
    return undefined;
  }
  for (const key of Object.keys(doc)) {
    if ((TOP_KEYS as readonly string[]).includes(key) || TOP_IGNORED.includes(key)) continue;
    c.problems.push(
      `unknown top-level key ${quote(key, 200)}${didYouMeanInline(key, TOP_KEYS)}; allowed: webhooks`,
    );
  }
  const list = doc.webhooks;
  if (list === undefined) {
    c.problems.push(
      'webhooks: missing; expected an array of {"url", "events", "secretEnv"} objects',
    );
    return undefined;
  }
  if (!Array.isArray(list)) {
    c.problems.push(`webhooks: expected an array, found ${describeType(list)}`);
    return undefined;
  }
  return list;
}

/** One entry, every rule applied: the webhook it asks for, or undefined when any rule failed. */
function checkEntry(raw: unknown, index: number, c: Checking): DesiredWebhook | undefined {
  const at = `webhooks[${index}]`;
  if (!isRecord(raw)) {
    c.problems.push(
      `${at}: expected an object with url, events and secretEnv, found ${describeType(raw)}`,
    );
    return undefined;
  }
  const before = c.problems.length;
  checkEntryKeys(raw, at, c);
  const url = checkUrl(raw.url, index, c);
  const events = checkEvents(raw.events, at, c);
  const secret = checkSecret(raw, at, c);
  if (c.problems.length !== before || !url || !secret) return undefined;
  return { index, url, key: urlKey(url), events, ...secret };
}

function checkEntryKeys(raw: Record<string, unknown>, at: string, c: Checking): void {
  for (const key of Object.keys(raw)) {
    if ((ENTRY_KEYS as readonly string[]).includes(key)) continue;
    c.problems.push(
      `${at}: unknown key ${quote(key, 200)}${didYouMeanInline(key, ENTRY_KEYS)}; allowed: ${ENTRY_KEYS.join(', ')}`,
    );
  }
}

/** `url`: the rule of `webhooks add --url`, and each URL listed once. */
function checkUrl(url: unknown, index: number, c: Checking): string | undefined {
  const at = `webhooks[${index}].url`;
  if (url === undefined) {
    c.problems.push(`${at}: missing; give the absolute http(s) URL of the endpoint`);
    return undefined;
  }
  if (typeof url !== 'string') {
    c.problems.push(`${at}: expected a string, found ${describeType(url)}`);
    return undefined;
  }
  const problem = webhookUrlProblem(url);
  if (problem) {
    // The same rule and words as `webhooks add --url`; credentials are never quoted (the plan
    // and the results go to CI logs, and the service shows the URL).
    c.problems.push(`${at}: ${problem.message}`);
    return undefined;
  }
  const key = urlKey(url);
  const first = c.seenUrls.get(key);
  if (first !== undefined) {
    c.problems.push(
      `${at}: ${quote(url, 200)} is already listed at webhooks[${first}]; list each URL once`,
    );
    return undefined;
  }
  c.seenUrls.set(key, index);
  return url;
}

/**
 * `events`: left out, every event (the default `webhooks add` has too, from one home:
 * defaultEvents); given, a non-empty list of event names, each by the rule of `--event`.
 */
function checkEvents(events: unknown, at: string, c: Checking): EventName[] {
  if (events === undefined) return defaultEvents();
  if (!Array.isArray(events)) {
    c.problems.push(
      `${at}.events: expected an array of event names, found ${describeType(events)}`,
    );
    return [];
  }
  if (events.length === 0) {
    c.problems.push(
      `${at}.events: empty; list one or more of: ${ALLOWED_EVENTS} (or leave events out for all of them)`,
    );
    return [];
  }
  const names: EventName[] = [];
  events.forEach((ev: unknown, k) => {
    const evAt = `${at}.events[${k}]`;
    const name = typeof ev === 'string' ? canonicalEventName(ev) : undefined;
    if (typeof ev !== 'string') {
      c.problems.push(`${evAt}: expected an event name, found ${describeType(ev)}`);
    } else if (!name) {
      // The same rule and words as `webhooks add --event`.
      c.problems.push(`${evAt}: ${eventNameProblem(ev)}`);
    } else if (names.includes(name)) {
      // The events are a set: a repeat changes nothing, so it is not worth failing a deploy.
      c.warnings.push(`${evAt}: ${quote(ev)} is listed twice; using it once`);
    } else {
      names.push(name);
    }
  });
  return names;
}

/** `secret` or `secretEnv`: exactly one of them. */
function checkSecret(raw: Record<string, unknown>, at: string, c: Checking): Secret | undefined {
  const hasSecret = raw.secret !== undefined;
  const hasEnv = raw.secretEnv !== undefined;
  if (hasSecret && hasEnv) {
    c.problems.push(`${at}: give either secret or secretEnv, not both`);
    return undefined;
  }
  if (hasEnv) return checkSecretEnv(raw.secretEnv, at, c);
  if (hasSecret) return checkLiteralSecret(raw.secret, at, c);
  c.problems.push(
    `${at}: missing secretEnv, the name of an environment variable that holds the signing secret`,
  );
  return undefined;
}

/**
 * `secretEnv`: a variable name, set and not empty. A dry run (needSecrets false) plans without
 * it: the entry carries an empty secret that is never sent, and the name is kept to say so.
 */
function checkSecretEnv(name: unknown, at: string, c: Checking): Secret | undefined {
  if (typeof name !== 'string') {
    c.problems.push(
      `${at}.secretEnv: expected the name of an environment variable, found ${describeType(name)}`,
    );
    return undefined;
  }
  const found = envSecret(name, c.env);
  if (!found.ok && found.problem === 'not-a-name') {
    c.problems.push(`${at}.secretEnv: ${quote(name, 200)} is not an environment variable name`);
    return undefined;
  }
  const secretSource = { kind: 'env', name } as const;
  if (found.ok) return { secret: found.secret, secretSource };
  if (!c.unsetSecretEnv.includes(name)) c.unsetSecretEnv.push(name);
  if (!c.needSecrets) return { secret: '', secretSource };
  c.problems.push(
    `${at}.secretEnv: environment variable ${name} is ${envSecretProblem(name, found.problem, c.env)}`,
  );
  return undefined;
}

/** `secret`: allowed, with a warning, since the file ends up in version control. */
function checkLiteralSecret(s: unknown, at: string, c: Checking): Secret | undefined {
  if (typeof s !== 'string') {
    c.problems.push(`${at}.secret: expected a string, found ${describeType(s)}`);
    return undefined;
  }
  if (s === '') {
    c.problems.push(`${at}.secret: empty; use secretEnv with a non-empty value`);
    return undefined;
  }
  c.warnings.push(
    `${at}.secret: a secret written in the file ends up in version control; use secretEnv instead`,
  );
  return { secret: s, secretSource: { kind: 'literal' } };
}
