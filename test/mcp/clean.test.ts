// What every value of `sched mcp` becomes before it leaves: masked, cleaned, then cut; bounded
// in depth by replacement; and the frames' last net, which masks string values only.
import { describe, expect, it } from 'vitest';
import {
  cell,
  cleanText,
  cleanValue,
  cutText,
  DEEP_MARKER,
  MAX_DEPTH,
  MAX_STRING,
  maskValues,
} from '../../src/mcp/clean.js';
import { masker } from '../../src/mask.js';

const SECRET = 'sk_live_0123456789abcdef';
const mask = masker([SECRET]);

function nest(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { d: v };
  return v;
}

describe('cutText', () => {
  it('keeps a string up to the bound; cuts a longer one to within it, with its length', () => {
    expect(cutText('x'.repeat(MAX_STRING))).toBe('x'.repeat(MAX_STRING));
    const cut = cutText('x'.repeat(MAX_STRING + 1));
    expect(cut.length).toBeLessThanOrEqual(MAX_STRING);
    expect(cut).toMatch(new RegExp(`^x+… \\[cut: ${MAX_STRING + 1} characters\\]$`));
    // Cut once: cutting again changes nothing.
    expect(cutText(cut)).toBe(cut);
    expect(cutText('abcdefghij', 5)).toBe('… [cut: 10 characters]');
  });

  it('never splits a surrogate pair', () => {
    const s = '😀'.repeat(20);
    const cut = cutText(s, 30);
    expect(cut).toBe(`${'😀'.repeat(4)}… [cut: 40 characters]`);
    expect(cutText(`a${'😀'.repeat(20)}`, 30)).toBe(`a${'😀'.repeat(3)}… [cut: 41 characters]`);
  });
});

describe('cleanText and cell: masked before the cut', () => {
  it('a secret straddling the bound leaves no piece', () => {
    const s = `${'a'.repeat(MAX_STRING - 30)}${SECRET}${'b'.repeat(100)}`;
    expect(cleanText(s, mask)).not.toContain('sk_live');
    expect(cleanText(s, mask)).toContain('****');
    expect(cell(`${'n'.repeat(110)}${SECRET}`, mask)).toBe(`${'n'.repeat(110)}****`);
    expect(cell(`${'n'.repeat(118)}${SECRET}`, mask)).toBe(`${'n'.repeat(118)}*…`);
  });

  it('escape sequences, controls and line breaks gone; nothing is an empty cell', () => {
    expect(cleanText('a\x1b]0;t\x07b\u202ec', mask)).toBe('ab\\u202ec');
    expect(cell('a\nb\x1b[2Jc', mask)).toBe('a bc');
    expect(cell(undefined, mask)).toBe('');
    expect(cell(null, mask)).toBe('');
    expect(cell(30, mask)).toBe('30');
    expect(cell('x'.repeat(10), mask, 5)).toBe('xxxx…');
  });
});

describe('cleanValue', () => {
  it('cleans keys and values, keeps numbers, booleans and null and unknown fields', () => {
    expect(
      cleanValue({ [`k${SECRET}`]: [`v${SECRET}\x07`, 1, true, null], n: { x: false } }, mask),
    ).toEqual({ 'k****': ['v****', 1, true, null], n: { x: false } });
  });

  it(`past ${MAX_DEPTH} levels an array or object is replaced by a marker, never passed on`, () => {
    const within = nest(MAX_DEPTH, `ok\x1b[2J`);
    expect(JSON.stringify(cleanValue(within, mask))).not.toContain(DEEP_MARKER);
    expect(JSON.stringify(cleanValue(within, mask))).toContain('"ok"');
    const deep = nest(MAX_DEPTH + 1, '\x1b]52;c;aGk=\x07');
    const cleaned = JSON.stringify(cleanValue(deep, mask));
    expect(cleaned).toContain(JSON.stringify(DEEP_MARKER));
    expect(cleaned).not.toContain('52;c');
    // 20,000 deep: replaced, so it serialises.
    expect(JSON.stringify(cleanValue(nest(20_000, 1), mask))).toContain(DEEP_MARKER);
  });
});

describe('maskValues (the frames last net)', () => {
  it('masks string values only: keys, true, false, null and numbers untouched', () => {
    const m = masker(['true', 'name', '1234']);
    const frame = { name: 'a name', ok: true, no: false, nil: null, n: 1234, list: ['true'] };
    expect(maskValues(frame, m)).toEqual({
      name: 'a ****',
      ok: true,
      no: false,
      nil: null,
      n: 1234,
      list: ['****'],
    });
  });

  it('JSON held in a string value is masked inside its values, so it stays JSON', () => {
    const m = masker(['true', 'hook-secret-1']);
    const held = JSON.stringify({ valid: true, note: 'hook-secret-1 and true', n: [true, null] });
    expect(JSON.parse((maskValues({ text: held }, m) as { text: string }).text)).toEqual({
      valid: true,
      note: '**** and ****',
      n: [true, null],
    });
    // Not JSON after all, or nothing to mask: masked as text, or left as it is.
    expect(maskValues('{true', m)).toBe('{****');
    expect(maskValues('[1, 2]', m)).toBe('[1, 2]');
    expect(maskValues('it is true', m)).toBe('it is ****');
  });

  it('past its depth bound the value is replaced', () => {
    expect(maskValues(nest(3, 'x'), mask, 2)).toEqual({ d: [DEEP_MARKER] });
    expect(maskValues(nest(2, 'x'), mask, 2)).toEqual([{ d: 'x' }]);
  });
});
