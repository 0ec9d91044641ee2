// The relayout `sched api` prints bodies with: for any JSON value and any white space the server
// put around its tokens, compact and pretty output equal JSON.stringify's layout of that value
// (so nothing but white space changes), and numbers keep the digits sent.
import { describe, expect, it } from 'vitest';
import { fc } from '../helpers/fc.js';
import { isJsonText, relayoutJson } from '../../src/output/json-text.js';

/** Spreads white space between the tokens of JSON.stringify's output (never inside strings). */
function loosen(compact: string, spaces: string[]): string {
  let out = '';
  let k = 0;
  for (let i = 0; i < compact.length; i++) {
    const ch = compact[i]!;
    if (ch === '"') {
      let j = i + 1;
      while (compact[j] !== '"') j += compact[j] === '\\' ? 2 : 1;
      out += compact.slice(i, j + 1);
      i = j;
      continue;
    }
    out += ch;
    if ('{}[],:'.includes(ch)) out += spaces[k++ % spaces.length] ?? '';
  }
  return (spaces[0] ?? '') + out;
}

describe('relayoutJson', () => {
  it('compact and pretty layouts match JSON.stringify for any value and white space', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.array(fc.constantFrom('', ' ', '\n', '\t', '  \r\n '), { minLength: 1 }),
        (value, spaces) => {
          const compact = JSON.stringify(value);
          const loose = loosen(compact, spaces);
          expect(isJsonText(loose)).toBe(true);
          expect(relayoutJson(loose, 0)).toBe(compact);
          expect(relayoutJson(loose, 2)).toBe(JSON.stringify(value, null, 2));
        },
      ),
    );
  });

  it('keeps numbers as sent, and strings with brackets, commas and escapes intact', () => {
    const text = '{ "n" : 12345678901234567890.10 , "s" : "a, [b]: {c} \\" \\\\", "e": [ ] }';
    expect(relayoutJson(text, 0)).toBe(
      '{"n":12345678901234567890.10,"s":"a, [b]: {c} \\" \\\\","e":[]}',
    );
  });

  it('says what is not JSON', () => {
    for (const t of ['', '   ', '<html>', '{"a":', 'plain']) expect(isJsonText(t)).toBe(false);
  });
});
