import { describe, expect, it } from 'vitest';
import { detectFormat, parseSyncText } from '../../../../src/domain/webhooks/sync/parse.js';
import { locateJsonError } from '../../../../src/text/json-error.js';

describe('detectFormat', () => {
  it('goes by extension first, then by content', () => {
    expect(detectFormat('hooks.json', 'webhooks: []')).toBe('json');
    expect(detectFormat('hooks.YAML', '{"webhooks":[]}')).toBe('yaml');
    expect(detectFormat('hooks.yml', '')).toBe('yaml');
    expect(detectFormat('stdin', '  {"webhooks":[]}')).toBe('json');
    expect(detectFormat('stdin', 'webhooks: []')).toBe('yaml');
  });
});

describe('parseSyncText', () => {
  it('parses JSON and YAML to the same value', async () => {
    const json = await parseSyncText(
      'a.json',
      '{"webhooks":[{"url":"https://x.test/h","events":["meetingScheduled"],"secretEnv":"S"}]}',
    );
    const yaml = await parseSyncText(
      'a.yaml',
      '# comment\nwebhooks:\n  - url: https://x.test/h\n    events: [meetingScheduled]\n    secretEnv: S\n',
    );
    expect(json.ok && yaml.ok).toBe(true);
    if (json.ok && yaml.ok) expect(yaml.value).toEqual(json.value);
  });

  it('reads a byte-order mark as nothing', async () => {
    const r = await parseSyncText('a.json', '\ufeff{"webhooks":[]}');
    expect(r).toMatchObject({ ok: true, value: { webhooks: [] } });
  });

  it('says an empty file is empty', async () => {
    const r = await parseSyncText('a.json', '  \n');
    expect(r).toMatchObject({ ok: false });
    if (!r.ok) expect(r.problem).toMatch(/^a\.json: the file is empty/);
  });

  it('gives line and column of a JSON syntax error without quoting the file', async () => {
    const text =
      '{\n  "webhooks": [\n    {"url": "https://x.test", "secret": "TOPSECRET-123",}\n  ]\n}';
    const r = await parseSyncText('hooks.json', text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problem).toBe(
        'hooks.json:3:57: not valid JSON: trailing commas are not allowed in JSON',
      );
      expect(r.problem).not.toContain('TOPSECRET');
    }
  });

  it('gives line and column of a YAML syntax error without quoting the file', async () => {
    const text = 'webhooks:\n  - url: https://x.test\n    secret: "TOPSECRET-123\n';
    const r = await parseSyncText('hooks.yaml', text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problem).toMatch(/^hooks\.yaml:[34]:\d+: not valid YAML: Missing closing/);
      expect(r.problem).not.toContain('TOPSECRET');
    }
  });

  it('rejects duplicate keys in YAML', async () => {
    const r = await parseSyncText('h.yml', 'webhooks: []\nwebhooks: []\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem).toMatch(/^h\.yml:2:1: not valid YAML: .*unique/i);
  });
});

describe('locateJsonError', () => {
  const cases: Array<[string, number, number, RegExp]> = [
    ['{"a": 1', 1, 8, /unexpected end of file/],
    ['{"a" 1}', 1, 6, /expected ':'/],
    ['{"a": 1 "b": 2}', 1, 9, /expected ',' or '}' after the property value$/],
    ['[1 2]', 1, 4, /expected ',' or '\]' after the array element$/],
    ['[1, [2,]]', 1, 8, /trailing commas/],
    ['{"a": {}, }', 1, 11, /trailing commas/],
    ["{'a': 1}", 1, 2, /double quotes/],
    ['[1, 2,]', 1, 7, /trailing commas/],
    ['{"a": tru}', 1, 7, /expected a value/],
    ['// hi\n{}', 1, 1, /comments are not allowed/],
    ['{}\n{}', 2, 1, /end of the file/],
    ['{"a": "x\ny"}', 1, 9, /line break/],
    ['{"a": "\\q"}', 1, 8, /invalid escape/],
    ['{"a": 01}', 1, 8, /expected ',' or '}'/],
    ['{"a": "never ends', 1, 7, /unterminated string/],
  ];
  it.each(cases)('%j -> %i:%i', (text, line, column, msg) => {
    expect(() => JSON.parse(text)).toThrow();
    const r = locateJsonError(text);
    expect(r).toMatchObject({ line, column });
    expect(r?.message).toMatch(msg);
  });

  it('finds nothing wrong in valid JSON', () => {
    expect(locateJsonError('{"a":[1,-2.5e3,true,null,"\\u00e9\\n"]}')).toBeUndefined();
  });
});
