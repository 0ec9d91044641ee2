// What `sched api` sends, worked out from its flags before anything is sent: the path, the
// method, the headers and the JSON body built from -f/-F. Pure: every mistake is a UsageError
// (exit 2) naming the flag and the fix.
import { UsageError } from '../../errors.js';
import { HTTP_METHODS, type HttpMethod } from '../../api/retry.js';
import { isHeaderName, reservedHeader } from '../../api/headers.js';
import { quote } from '../../text/quote.js';
import { didYouMean } from '../../text/suggest.js';

/**
 * The path as sent: relative to the base URL, a leading slash added, the query string kept
 * as typed. A full URL is refused (the key goes to the base URL only).
 */
export function apiPath(raw: string): string {
  const p = raw.trim();
  if (p === '' || p === '/') {
    throw new UsageError('the path is empty', { hint: 'e.g. sched api /webhooks' });
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(p) || p.startsWith('//')) {
    throw new UsageError(`give a path relative to the base URL, not a URL: ${quote(p)}`, {
      hint: 'e.g. sched api /webhooks; --base-url chooses the service',
    });
  }
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(p)) {
    throw new UsageError(`the path ${quote(p)} contains white space or a control character`, {
      hint: 'percent-encode it (a space is %20)',
    });
  }
  if (p.includes('#')) {
    throw new UsageError(`the path ${quote(p)} contains "#"; percent-encode it as %23`);
  }
  return p.startsWith('/') ? p : `/${p}`;
}

/** -X: any case; the default is GET, or POST when a body is given. A GET never has a body. */
export function apiMethod(given: string | undefined, hasBody: boolean): HttpMethod {
  if (given === undefined) return hasBody ? 'POST' : 'GET';
  const m = given.trim().toUpperCase();
  const method = HTTP_METHODS.find((k) => k === m);
  if (!method) {
    throw new UsageError(
      `unknown method ${quote(given)} for -X; allowed: ${HTTP_METHODS.join(', ')}${didYouMean(m, HTTP_METHODS)}`,
    );
  }
  if (method === 'GET' && hasBody) {
    throw new UsageError('a GET request has no body (-f, -F and --input make one)', {
      hint: 'put query parameters in the path (sched api "webhooks?limit=5"), or choose -X POST',
    });
  }
  return method;
}

/** -H 'Name: value', each checked: a header name, not X-API-KEY, Host or a framing header. */
export function apiHeaders(values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of values) {
    const colon = raw.indexOf(':');
    const name = colon < 0 ? raw.trim() : raw.slice(0, colon).trim();
    if (colon < 0 || !isHeaderName(name)) {
      throw new UsageError(`-H ${quote(raw)} is not a header`, {
        hint: "write it as 'Name: value', e.g. -H 'Accept-Language: de'",
      });
    }
    const why = reservedHeader(name);
    if (why) throw new UsageError(`-H ${name} cannot be set: ${why}`);
    const value = raw.slice(colon + 1).trim();
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) {
      throw new UsageError(`-H ${name}: the value contains a line break or a control character`);
    }
    // A header is bytes: HTTP clients refuse other characters (undici as a failed request,
    // which would be retried as a network problem).
    if (/[\u0080-\uffff]/.test(value)) {
      throw new UsageError(`-H ${name}: the value is not ASCII`, {
        hint: 'headers carry ASCII only: percent-encode the value (as a URL would), or send it in the body with -f',
      });
    }
    out[name] = value;
  }
  return out;
}

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** A -F value as JSON text: a number (written as typed), true, false or null, else a string. */
function typedValue(v: string): string {
  if (NUMBER.test(v) || v === 'true' || v === 'false' || v === 'null') return v;
  return JSON.stringify(v);
}

/**
 * The JSON body of -f (strings) and -F (typed) fields, as text, or undefined when none was
 * given. `key=value` sets a field once; `key[]=value` appends to a list (repeat it). Numbers
 * keep the digits typed. Fields appear in the order given, -f ones first.
 */
export function fieldsBody(
  strings: readonly string[],
  typed: readonly string[],
): string | undefined {
  const given = [
    ...strings.map((raw) => ({ raw, flag: '-f', json: (v: string) => JSON.stringify(v) })),
    ...typed.map((raw) => ({ raw, flag: '-F', json: typedValue })),
  ];
  if (given.length === 0) return undefined;
  const fields = new Map<string, { list: boolean; values: string[] }>();
  for (const { raw, flag, json } of given) {
    const eq = raw.indexOf('=');
    const rawKey = eq < 0 ? '' : raw.slice(0, eq);
    const list = rawKey.endsWith('[]');
    const key = list ? rawKey.slice(0, -2) : rawKey;
    if (eq < 0 || key === '' || /[[\]]/.test(key)) {
      throw new UsageError(`${flag} ${quote(raw)}: write a field as key=value or key[]=value`, {
        hint: `e.g. ${flag} url=https://example.com/hook -f 'events[]=meetingScheduled'`,
      });
    }
    const value = json(raw.slice(eq + 1));
    const field = fields.get(key);
    if (!field) {
      fields.set(key, { list, values: [value] });
    } else if (field.list !== list) {
      throw new UsageError(`the field ${quote(key)} is given both as ${key}= and as ${key}[]=`);
    } else if (!list) {
      throw new UsageError(`the field ${quote(key)} is given twice`, {
        hint: `use ${key}[]=value for a list`,
      });
    } else {
      field.values.push(value);
    }
  }
  const members = [...fields].map(
    ([k, f]) => `${JSON.stringify(k)}:${f.list ? `[${f.values.join(',')}]` : f.values[0]!}`,
  );
  return `{${members.join(',')}}`;
}

/**
 * For --paginate: the path without its query, the query pairs but `page` and `limit`, the
 * page to start at (`page`, as `gh api --paginate` starts at the page given) and `limit`.
 */
export function pagedPath(path: string): {
  path: string;
  query: Array<[string, string]>;
  page: number;
  limit: number | undefined;
} {
  const q = path.indexOf('?');
  const params = new URLSearchParams(q < 0 ? '' : path.slice(q + 1));
  let limit: number | undefined;
  let page = 1;
  const query: Array<[string, string]> = [];
  for (const [k, v] of params) {
    if (k === 'page' || k === 'limit') {
      if (!/^\d+$/.test(v) || Number(v) < 1) {
        throw new UsageError(`${k}=${v} in the path is not a whole number of at least 1`);
      }
      if (k === 'page') page = Number(v);
      else limit = Number(v);
      continue;
    }
    query.push([k, v]);
  }
  return { path: q < 0 ? path : path.slice(0, q), query, page, limit };
}
