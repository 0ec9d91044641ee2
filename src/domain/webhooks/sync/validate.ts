// Checks the whole sync document before any request and collects every problem at once, each
// named by its place in the file (`webhooks[2].events[0]: ...`). Secrets are resolved here too,
// so an unset `secretEnv` stops the run before anything changes. No message ever quotes a secret.
import { EVENT_NAMES, type EventName } from '../../../api/types.js';
import { quote } from '../../../text/quote.js';
import { didYouMeanInline } from '../../../text/suggest.js';
import { canonicalEventName, eventNameProblem } from '../event-names.js';
import { urlKey, webhookUrlProblem } from '../url.js';
import { envSecret } from '../secret.js';
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

export function validateSyncDocument(
  doc: unknown,
  env: Record<string, string | undefined>,
  opts: ValidateOptions = {},
): Validation {
  const needSecrets = opts.needSecrets ?? true;
  const problems: string[] = [];
  const warnings: string[] = [];
  const entries: DesiredWebhook[] = [];
  const unsetSecretEnv: string[] = [];

  if (!isRecord(doc)) {
    const wrap = Array.isArray(doc) ? '; wrap the list: {"webhooks": [...]}' : '';
    problems.push(
      `the file must hold an object with a "webhooks" array, found ${describeType(doc)}${wrap}`,
    );
    return { entries, problems, warnings, unsetSecretEnv };
  }

  for (const key of Object.keys(doc)) {
    if ((TOP_KEYS as readonly string[]).includes(key) || TOP_IGNORED.includes(key)) continue;
    problems.push(
      `unknown top-level key ${quote(key, 200)}${didYouMeanInline(key, TOP_KEYS)}; allowed: webhooks`,
    );
  }

  const list = doc.webhooks;
  if (list === undefined) {
    problems.push('webhooks: missing; expected an array of {"url", "events", "secretEnv"} objects');
    return { entries, problems, warnings, unsetSecretEnv };
  }
  if (!Array.isArray(list)) {
    problems.push(`webhooks: expected an array, found ${describeType(list)}`);
    return { entries, problems, warnings, unsetSecretEnv };
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
      problems.push(
        `${at}: unknown key ${quote(key, 200)}${didYouMeanInline(key, ENTRY_KEYS)}; allowed: ${ENTRY_KEYS.join(', ')}`,
      );
    }

    // url
    let url: string | undefined;
    const urlProblem = typeof raw.url === 'string' ? webhookUrlProblem(raw.url) : undefined;
    if (raw.url === undefined) {
      problems.push(`${at}.url: missing; give the absolute http(s) URL of the endpoint`);
    } else if (typeof raw.url !== 'string') {
      problems.push(`${at}.url: expected a string, found ${describeType(raw.url)}`);
    } else if (urlProblem) {
      // The same rule and words as `webhooks add --url`; credentials are never quoted (the plan
      // and the results go to CI logs, and the service shows the URL).
      problems.push(`${at}.url: ${urlProblem.message}`);
    } else {
      url = raw.url;
      const key = urlKey(url);
      const first = seenUrls.get(key);
      if (first !== undefined) {
        problems.push(
          `${at}.url: ${quote(url, 200)} is already listed at webhooks[${first}]; list each URL once`,
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
        const name = typeof ev === 'string' ? canonicalEventName(ev) : undefined;
        if (typeof ev !== 'string') {
          problems.push(`${evAt}: expected an event name, found ${describeType(ev)}`);
        } else if (!name) {
          // The same rule and words as `webhooks add --event`.
          problems.push(`${evAt}: ${eventNameProblem(ev)}`);
        } else if (events.includes(name)) {
          // The events are a set: a repeat changes nothing, so it is not worth failing a deploy.
          warnings.push(`${evAt}: ${quote(ev)} is listed twice; using it once`);
        } else {
          events.push(name);
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
      } else {
        const found = envSecret(name, env);
        if (!found.ok && found.problem === 'not-a-name') {
          problems.push(`${at}.secretEnv: ${quote(name, 200)} is not an environment variable name`);
        } else if (found.ok) {
          secret = found.secret;
          secretSource = { kind: 'env', name };
        } else {
          if (!unsetSecretEnv.includes(name)) unsetSecretEnv.push(name);
          if (!needSecrets) {
            secret = '';
            secretSource = { kind: 'env', name };
          } else {
            problems.push(
              `${at}.secretEnv: environment variable ${name} is ${found.problem === 'unset' ? 'not set' : 'empty'}`,
            );
          }
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

  return { entries: problems.length === 0 ? entries : [], problems, warnings, unsetSecretEnv };
}
