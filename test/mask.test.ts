// Masking (src/mask.ts), the rule the output gate applies to everything a user sees: each
// secret is replaced by "****" in every form a server or receiver may echo it in, short
// "secrets" are left alone (they would mask ordinary words), and the longest match goes first.
import { describe, expect, it } from 'vitest';
import { mapStrings, masker, proxyCredentials, proxyVariable } from '../src/mask.js';
import { createTransport } from '../src/api/exchange.js';

// A secret with a quote, a space, a slash and an apostrophe: every encoding differs from it.
const S = `wh'sec "x" a/b`;

describe('masker: every form of a secret is masked', () => {
  const mask = masker([S]);
  it.each([
    ['as given', `secret=${S}.`, 'secret=****.'],
    ['inside a JSON string', `{"secret":"wh'sec \\"x\\" a/b"}`, '{"secret":"****"}'],
    ['percent-encoded', `?s=wh'sec%20%22x%22%20a%2Fb&n=1`, '?s=****&n=1'],
    ['percent-encoded, lower-case hex', `?s=wh'sec%20%22x%22%20a%2fb&n=1`, '?s=****&n=1'],
    ['as a form value ("+" for spaces)', `s=wh%27sec+%22x%22+a%2Fb&n=1`, 's=****&n=1'],
    ['as a URL parser writes a query', `GET /hook?wh%27sec%20%22x%22%20a/b`, 'GET /hook?****'],
    ['as a URL parser writes a path', `GET /wh'sec%20%22x%22%20a/b`, 'GET /****'],
  ])('%s', (_how, text, shown) => {
    expect(mask(text)).toBe(shown);
  });

  it('non-ASCII, raw, JSON-escaped as-is and as \\uXXXX', () => {
    const m = masker(['clé-secrète']);
    expect(m('raw clé-secrète, ascii "cl\\u00e9-secr\\u00e8te".')).toBe('raw ****, ascii "****".');
  });

  it('a secret that cannot be percent-encoded (a lone surrogate) is still masked as given', () => {
    const odd = 'abc\ud800def';
    expect(masker([odd])(`got ${odd}!`)).toBe('got ****!');
  });
});

describe('masker: what is not masked', () => {
  it('secrets shorter than 4 characters, and absent ones, leave the text as it is', () => {
    const m = masker([undefined, 'abc', undefined]);
    expect(m('abc abcd')).toBe('abc abcd');
  });

  it('a short secret is not masked in its longer encodings either', () => {
    const m = masker(['a b', 'k3y!']);
    expect(m('a b, a%20b, a+b, k3y!')).toBe('a b, a%20b, a+b, ****');
  });
});

describe('masker: the longest first', () => {
  it('a secret inside a longer one does not leave the rest of the longer one visible', () => {
    const m = masker(['abcd', 'abcdefgh']);
    expect(m('key abcdefgh, secret abcd')).toBe('key ****, secret ****');
  });

  it('two secrets in one text are both masked', () => {
    const m = masker(['first-secret', 'second-secret']);
    expect(m('first-secret then second-secret')).toBe('**** then ****');
  });
});

// One reading of a proxy variable serves the client that uses the proxy (api/exchange.ts) and
// the masking of its password: each row is checked through both, for each variable (issue 38,
// finding 9: a value with white space around it was used trimmed but masked untrimmed).
describe('a proxy variable read once for the client and the masking', () => {
  const rows = [
    ['user:pw-plain@proxy.example:3128', 'http://user:pw-plain@proxy.example:3128'],
    ['http://user:pw-http@proxy.example:3128', 'http://user:pw-http@proxy.example:3128'],
    ['HTTPS://user:pw-https@proxy.example', 'HTTPS://user:pw-https@proxy.example'],
    ['proxy.example:3128/?to=http://x', 'http://proxy.example:3128/?to=http://x'],
    [' http://user:pw-lead@proxy.example:3128', 'http://user:pw-lead@proxy.example:3128'],
    ['user:pw-trail@proxy.example:3128 \n', 'http://user:pw-trail@proxy.example:3128'],
    ['\t https://user:pw-both@proxy.example \r\n', 'https://user:pw-both@proxy.example'],
  ] as const;
  it.each(
    ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'ALL_PROXY', 'all_proxy'].flatMap((name) =>
      rows.map(([value, url]) => [name, value, url] as const),
    ),
  )('%s=%j is %s', async (name, value, url) => {
    expect(proxyVariable({ [name]: value }, name)).toBe(url);
    const password = new URL(url).password;
    // As given and percent-decoded (here the same).
    expect(proxyCredentials({ [name]: value })).toEqual(password ? [password, password] : []);
    const t = createTransport({
      baseUrl: 'https://api.example.com/api',
      apiKey: 'sk_test_proxy_table_1234',
      timeoutMs: 1000,
      userAgent: 'sched-test',
      maxBodyBytes: 1000,
      connections: 1,
      env: { [name]: value },
    });
    try {
      // The client takes it as a proxy (not refused as a malformed variable).
      expect(t.proxiedFor(new URL('https://api.example.com/x'))).toBe(true);
    } finally {
      await t.close(true);
    }
  });

  it('a blank variable is unset for both', () => {
    expect(proxyVariable({ HTTPS_PROXY: ' \t\n' }, 'HTTPS_PROXY')).toBeUndefined();
    expect(proxyCredentials({ HTTPS_PROXY: ' \t\n' })).toEqual([]);
  });
});

// The one walker of values (the renderer's masking, `sched mcp`'s cleaning and frames): its
// callers, through their own paths, are in test/rules/value-walk.test.ts.
describe('mapStrings: every string of a value mapped, the value copied', () => {
  const up = (s: string) => s.toUpperCase();

  it('values at any depth; keys only when asked, never an array index; the rest kept', () => {
    const input = { k: ['a', 1, true, null, { n: 'b' }], u: undefined };
    expect(mapStrings(input, { text: up, keys: true })).toEqual({
      K: ['A', 1, true, null, { N: 'B' }],
      U: undefined,
    });
    expect(mapStrings(input, { text: up, keys: false })).toEqual({
      k: ['A', 1, true, null, { n: 'B' }],
      u: undefined,
    });
    expect(Object.keys(mapStrings(['x', 'y'], { text: () => 'z', keys: true }) as object)).toEqual([
      '0',
      '1',
    ]);
    expect(mapStrings('s', { text: up, keys: true })).toBe('S');
    expect(mapStrings(7, { text: up, keys: true })).toBe(7);
    expect(mapStrings(null, { text: up, keys: true })).toBeNull();
  });

  it('copies: the input is left as it was, arrays stay arrays, keys keep their order', () => {
    const input = { b: ['x'], a: { c: 'y' } };
    const out = mapStrings(input, { text: up, keys: false }) as typeof input;
    expect(input).toEqual({ b: ['x'], a: { c: 'y' } });
    expect(Array.isArray(out.b)).toBe(true);
    expect(out.b).not.toBe(input.b);
    expect(Object.keys(out)).toEqual(['b', 'a']);
  });

  it('an array or object at maxDepth is replaced by `deep`; a string there is still mapped', () => {
    const how = { text: up, keys: false, maxDepth: 2, deep: 'CUT' };
    expect(mapStrings({ a: { b: { c: 1 } }, s: 'x' }, how)).toEqual({ a: { b: 'CUT' }, s: 'X' });
    expect(mapStrings({ a: ['s', [1]] }, how)).toEqual({ a: ['S', 'CUT'] });
    expect(mapStrings([], { ...how, maxDepth: 0 })).toBe('CUT');
  });

  it('nested 20,000 deep without overflowing the stack', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 20_000; i++) deep = { d: [deep] };
    let v = mapStrings(deep, { text: up, keys: true });
    for (let i = 0; i < 20_000; i++) v = (v as { D: unknown[] }).D[0];
    expect(v).toBe('LEAF');
  });

  it('an object that serialises itself is kept; one of a class is copied as its fields', () => {
    const d = new Date(0);
    const self = { toJSON: () => 'mine', s: 'x' };
    expect(mapStrings({ d, self }, { text: up, keys: false })).toEqual({ d, self });
    expect((mapStrings({ self }, { text: up, keys: false }) as { self: unknown }).self).toBe(self);
    // A key named toJSON that is not a function is data, walked like any other.
    expect(mapStrings({ toJSON: 's' }, { text: up, keys: true })).toEqual({ TOJSON: 'S' });
    class Holder {
      t = 'x';
    }
    const copy = mapStrings(new Holder(), { text: up, keys: false });
    expect(copy).toEqual({ t: 'X' });
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it('a "__proto__" key, given or made by mapping a key, stays an own key', () => {
    const parsed = JSON.parse('{"__proto__":{"a":"x"}}') as object;
    const out = mapStrings(parsed, { text: up, keys: false }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"a":"X"}}');
    // A plain data property, as JSON.parse makes one: a caller may still change it.
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')).toMatchObject({
      enumerable: true,
      writable: true,
    });
    const made = mapStrings({ P: 'v' }, { text: (s) => (s === 'P' ? '__proto__' : s), keys: true });
    expect(JSON.stringify(made)).toBe('{"__proto__":"v"}');
  });
});
