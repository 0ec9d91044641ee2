// Masking secrets in text a user will see: the API key, webhook secrets, proxy credentials.
// One home for the rule, below every layer (api, commands), with no imports of its own.
//
// Mask first, then cut: text from outside is shortened for display (a 200-character error
// line), and a secret cut in two no longer matches itself — its first part would show.

/** Secrets shorter than this are not masked (they would mask ordinary words). */
const MIN_SECRET = 4;

/**
 * The proxy variables the HTTP client reads (api/exchange.ts), whose credentials are masked:
 * `https_proxy` for https:// URLs, `http_proxy` for both, `all_proxy` for both when neither
 * is set (as curl reads it); the lower-case name of each first.
 */
export const PROXY_VARS = [
  'https_proxy',
  'HTTPS_PROXY',
  'http_proxy',
  'HTTP_PROXY',
  'all_proxy',
  'ALL_PROXY',
] as const;

/**
 * A proxy variable's value as a URL: `host:port` without a scheme is an http:// proxy (as curl
 * reads it). The value comes trimmed (proxyVariable).
 */
export function proxyUrlText(value: string): string {
  return /^[a-z][a-z\d+.-]*:\/\//i.test(value) ? value : `http://${value}`;
}

/**
 * The one reading of a proxy variable, for the client that uses the proxy and for the masking
 * of its password alike: white space around the value dropped (a value from a YAML or .env
 * file often has some, and the URL parser would drop it too), empty as unset, then
 * proxyUrlText. Undefined when unset.
 */
export function proxyVariable(
  env: Record<string, string | undefined>,
  name: string,
): string | undefined {
  const value = env[name]?.trim();
  return value ? proxyUrlText(value) : undefined;
}

export type Mask = (text: string) => string;

/**
 * The forms a secret takes when a server or receiver echoes it: as given, escaped inside a
 * JSON string (also with non-ASCII as \uXXXX), percent-encoded (upper and lower case hex, as
 * a form value with "+" for spaces, and as a URL parser re-encodes a query or a path).
 */
export function encodings(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const asciiJson = json.replace(
    /[\u0080-\uffff]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'),
  );
  const forms = [secret, json, asciiJson];
  try {
    const uri = encodeURIComponent(secret);
    forms.push(
      uri,
      uri.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    );
    forms.push(new URLSearchParams({ s: secret }).toString().slice(2));
    forms.push(new URL(`http://h/?${secret}`).search.slice(1));
    forms.push(new URL(`http://h/${secret}`).pathname.slice(1));
  } catch {
    // A lone surrogate cannot be percent-encoded: nothing sends it that way either.
  }
  return [...new Set(forms)];
}

/**
 * Replaces every occurrence of each secret, in each of its encodings, with "****", the longest
 * first.
 */
export function masker(secrets: readonly (string | undefined)[]): Mask {
  const given = secrets.filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET);
  const list = [...new Set(given.flatMap(encodings))]
    .filter((s) => s.length >= MIN_SECRET)
    .sort((a, b) => b.length - a.length);
  if (list.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const secret of list) if (out.includes(secret)) out = out.split(secret).join('****');
    return out;
  };
}

/**
 * The passwords of proxy URLs in the environment, as given and decoded. (Not the user names:
 * masking a name like "user" would mangle ordinary words, and a name is not a secret.)
 */
export function proxyCredentials(env: Record<string, string | undefined>): string[] {
  const out: string[] = [];
  for (const name of PROXY_VARS) {
    const url = proxyVariable(env, name);
    if (url === undefined) continue;
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      continue;
    }
    if (!u.password) continue;
    out.push(u.password);
    try {
      out.push(decodeURIComponent(u.password));
    } catch {
      // Not valid percent-encoding: the raw form is masked already.
    }
  }
  return out;
}

/** How mapStrings treats a value: what each string becomes, keys too or not, a depth bound. */
export interface StringMap {
  text: (s: string) => string;
  /** The keys of objects are strings to map too (never an array's indices). */
  keys: boolean;
  /** An array or object this deep (the value itself is depth 0) is replaced by `deep`. */
  maxDepth?: number;
  deep?: string;
}

const serialisesItself = (v: object) => typeof (v as { toJSON?: unknown }).toJSON === 'function';

/**
 * `value` with `how.text` applied to every string in it, at any depth (iteratively: a server
 * may nest thousands deep). Arrays and objects are copied as JSON.stringify sees them (own
 * enumerable keys); an object that serialises itself (a Date: `toJSON`) is kept as it is. The
 * one walker of values: the renderer's masking (maskValue), `sched mcp`'s cleaning and its
 * frames' last net (mcp/clean.ts).
 */
export function mapStrings(value: unknown, how: StringMap): unknown {
  const { text, keys, maxDepth = Infinity, deep } = how;
  const stack: Array<[Record<string, unknown>, Record<string, unknown>, number]> = [];
  const map = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return text(v);
    if (typeof v !== 'object' || v === null || serialisesItself(v)) return v;
    if (depth >= maxDepth) return deep;
    const to = (Array.isArray(v) ? [] : {}) as Record<string, unknown>;
    stack.push([v as Record<string, unknown>, to, depth]);
    return to;
  };
  const root = map(value, 0);
  while (stack.length > 0) {
    const [from, to, depth] = stack.pop()!;
    const array = Array.isArray(from);
    for (const k of Object.keys(from)) {
      const v = map(from[k], depth + 1);
      const key = array || !keys ? k : text(k);
      // A `__proto__` key (JSON.parse makes one) stays a key, not the copy's prototype.
      if (key === '__proto__') {
        Object.defineProperty(to, key, { value: v, enumerable: true, writable: true });
      } else {
        to[key] = v;
      }
    }
  }
  return root;
}

/**
 * `value` with `mask` applied to every string in it, keys too, at any depth: what the renderer
 * does to the data before any format, cutting, wrapping or layout, so a secret is replaced
 * whole and every format stays valid.
 */
export function maskValue<T>(value: T, mask: Mask): T {
  return mapStrings(value, { text: mask, keys: true }) as T;
}
