// Checks the whole sync document before any request and collects every problem at once, each
// named by its place in the file (`webhooks[2].events[0]: ...`). Secrets are resolved here too,
// so an unset `secretEnv` stops the run before anything changes. No message ever quotes a secret.
import { EVENT_NAMES, type EventName } from '../../api/types.js';
import type { DesiredWebhook } from './types.js';

export interface Validation {
  entries: DesiredWebhook[];
  /** Errors: any of them means nothing may be sent. */
  problems: string[];
  /** Worth telling, not worth stopping for. */
  warnings: string[];
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

function squash(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(
        prev[j]! + 1,
        cur[j - 1]! + 1,
        prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** The allowed name a mistyped key or event most likely meant (case, `_`, `-` ignored). */
function nearest(word: string, allowed: readonly string[]): string | undefined {
  const w = squash(word);
  let best: { name: string; d: number } | undefined;
  for (const a of allowed) {
    const d = distance(w, squash(a));
    if (d <= 2 && (!best || d < best.d)) best = { name: a, d };
  }
  return best?.name;
}

/** A value safe to quote in a message: short, one line, no control characters. */
function quote(s: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = s.replace(/[\x00-\x1f\x7f-\x9f]/g, '?');
  return JSON.stringify(clean.length > 200 ? clean.slice(0, 200) + '…' : clean);
}

/**
 * The key a URL is matched by: WHATWG-normalised (lower-case scheme and host, default port
 * dropped, `/` for an empty path), so `https://Example.com` and `https://example.com/` are one
 * endpoint. Anything unparseable is matched by its exact text.
 */
export function urlKey(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

export function validateSyncDocument(
  doc: unknown,
  env: Record<string, string | undefined>,
): Validation {
  const problems: string[] = [];
  const warnings: string[] = [];
  const entries: DesiredWebhook[] = [];

  if (!isRecord(doc)) {
    const wrap = Array.isArray(doc) ? '; wrap the list: {"webhooks": [...]}' : '';
    problems.push(
      `the file must hold an object with a "webhooks" array, found ${describeType(doc)}${wrap}`,
    );
    return { entries, problems, warnings };
  }

  for (const key of Object.keys(doc)) {
    if ((TOP_KEYS as readonly string[]).includes(key) || TOP_IGNORED.includes(key)) continue;
    const guess = nearest(key, TOP_KEYS);
    problems.push(
      `unknown top-level key ${quote(key)}${guess ? ` (did you mean "${guess}"?)` : ''}; allowed: webhooks`,
    );
  }

  const list = doc.webhooks;
  if (list === undefined) {
    problems.push('webhooks: missing; expected an array of {"url", "events", "secretEnv"} objects');
    return { entries, problems, warnings };
  }
  if (!Array.isArray(list)) {
    problems.push(`webhooks: expected an array, found ${describeType(list)}`);
    return { entries, problems, warnings };
  }

  const seenUrls = new Map<string, number>();
  list.forEach((raw: unknown, index) => {
    const at = `webhooks[${index}]`;
    if (!isRecord(raw)) {
      problems.push(
        `${at}: expected an object with url, events and secretEnv, found ${describeType(raw)}`,
      );
      return;
    }
    const before = problems.length;

    for (const key of Object.keys(raw)) {
      if ((ENTRY_KEYS as readonly string[]).includes(key)) continue;
      const guess = nearest(key, ENTRY_KEYS);
      problems.push(
        `${at}: unknown key ${quote(key)}${guess ? ` (did you mean "${guess}"?)` : ''}; allowed: ${ENTRY_KEYS.join(', ')}`,
      );
    }

    // url
    let url: string | undefined;
    if (raw.url === undefined) {
      problems.push(`${at}.url: missing; give the absolute http(s) URL of the endpoint`);
    } else if (typeof raw.url !== 'string') {
      problems.push(`${at}.url: expected a string, found ${describeType(raw.url)}`);
    } else if (hasCredentials(raw.url)) {
      // Never quoted: the plan and the results go to CI logs, and the service shows the URL.
      problems.push(`${at}.url: must not contain a user name or password`);
    } else if (!isHttpUrl(raw.url)) {
      problems.push(`${at}.url: ${quote(raw.url)} is not an absolute http(s) URL`);
    } else if (raw.url.length > 2048) {
      problems.push(`${at}.url: ${raw.url.length} characters long; at most 2048`);
    } else {
      url = raw.url;
      const key = urlKey(url);
      const first = seenUrls.get(key);
      if (first !== undefined) {
        problems.push(
          `${at}.url: ${quote(url)} is already listed at webhooks[${first}]; list each URL once`,
        );
      } else {
        seenUrls.set(key, index);
      }
    }

    // events: required, so a file always says what it subscribes to.
    const events: EventName[] = [];
    if (raw.events === undefined) {
      problems.push(`${at}.events: missing; list one or more of: ${ALLOWED_EVENTS}`);
    } else if (!Array.isArray(raw.events)) {
      problems.push(
        `${at}.events: expected an array of event names, found ${describeType(raw.events)}`,
      );
    } else if (raw.events.length === 0) {
      problems.push(`${at}.events: empty; list one or more of: ${ALLOWED_EVENTS}`);
    } else {
      raw.events.forEach((ev: unknown, k) => {
        const evAt = `${at}.events[${k}]`;
        if (typeof ev !== 'string') {
          problems.push(`${evAt}: expected an event name, found ${describeType(ev)}`);
        } else if (!(EVENT_NAMES as readonly string[]).includes(ev)) {
          const guess = nearest(ev, EVENT_NAMES);
          problems.push(
            `${evAt}: unknown event ${quote(ev)}${guess ? ` (did you mean "${guess}"?)` : ''}; allowed: ${ALLOWED_EVENTS}`,
          );
        } else if (events.includes(ev as EventName)) {
          // The events are a set: a repeat changes nothing, so it is not worth failing a deploy.
          warnings.push(`${evAt}: "${ev}" is listed twice; using it once`);
        } else {
          events.push(ev as EventName);
        }
      });
    }

    // secret / secretEnv
    let secret: string | undefined;
    let secretSource: DesiredWebhook['secretSource'] | undefined;
    const hasSecret = raw.secret !== undefined;
    const hasEnv = raw.secretEnv !== undefined;
    if (hasSecret && hasEnv) {
      problems.push(`${at}: give either secret or secretEnv, not both`);
    } else if (!hasSecret && !hasEnv) {
      problems.push(
        `${at}: missing secretEnv, the name of an environment variable that holds the signing secret`,
      );
    } else if (hasEnv) {
      const name = raw.secretEnv;
      if (typeof name !== 'string') {
        problems.push(
          `${at}.secretEnv: expected the name of an environment variable, found ${describeType(name)}`,
        );
      } else if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        problems.push(`${at}.secretEnv: ${quote(name)} is not an environment variable name`);
      } else {
        const value = env[name];
        if (value === undefined) {
          problems.push(`${at}.secretEnv: environment variable ${name} is not set`);
        } else if (value === '') {
          problems.push(`${at}.secretEnv: environment variable ${name} is empty`);
        } else {
          secret = value;
          secretSource = { kind: 'env', name };
        }
      }
    } else {
      const s = raw.secret;
      if (typeof s !== 'string') {
        problems.push(`${at}.secret: expected a string, found ${describeType(s)}`);
      } else if (s === '') {
        problems.push(`${at}.secret: empty; use secretEnv with a non-empty value`);
      } else {
        secret = s;
        secretSource = { kind: 'literal' };
        warnings.push(
          `${at}.secret: a secret written in the file ends up in version control; use secretEnv instead`,
        );
      }
    }

    if (problems.length === before && url && secret !== undefined && secretSource) {
      entries.push({ index, url, key: urlKey(url), events, secret, secretSource });
    }
  });

  return { entries: problems.length === 0 ? entries : [], problems, warnings };
}

function hasCredentials(s: string): boolean {
  try {
    const u = new URL(s);
    return u.username !== '' || u.password !== '';
  } catch {
    return false;
  }
}

function isHttpUrl(s: string): boolean {
  if (s.trim() !== s || s === '') return false;
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}
