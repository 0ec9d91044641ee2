// jsonText (src/output/json-value.ts): the same JSON as JSON.stringify, at any depth.
import { describe, expect, it } from 'vitest';
import { jsonText, PRETTY_MAX_DEPTH } from '../../src/output/json-value.js';

const nest = (n: number, leaf: unknown = 1): unknown => {
  let v = leaf;
  for (let i = 0; i < n; i++) v = i % 2 ? [v] : { k: v };
  return v;
};

describe('jsonText', () => {
  const values: unknown[] = [
    { a: 1, b: 'x"\\\n', c: null, d: [1, undefined, () => 0, 'y'], e: undefined, f: true },
    [{}, [], { d: new Date(0) }, -0, 1e21, 'é\u2028'],
    nest(50, { last: [1, 2] }),
  ];
  it.each(values)('matches JSON.stringify, compact and pretty (%#)', (v) => {
    expect(jsonText(v)).toBe(JSON.stringify(v));
    expect(jsonText(v, 2)).toBe(JSON.stringify(v, null, 2));
  });

  it('writes a value too deep for JSON.stringify, and reads back the same', () => {
    const v = nest(50_000);
    expect(() => JSON.stringify(v)).toThrow(RangeError);
    const text = jsonText(v, 2);
    expect(text).not.toContain('\n');
    // Built inside out: {"k":1}, then [ ], then {"k": }, ... 50,000 levels.
    expect(text).toBe('[{"k":'.repeat(25_000) + '1' + '}]'.repeat(25_000));
  });

  it(`past ${PRETTY_MAX_DEPTH} levels, pretty is compact`, () => {
    expect(jsonText(nest(PRETTY_MAX_DEPTH), 2)).toContain('\n');
    expect(jsonText(nest(PRETTY_MAX_DEPTH + 1), 2)).toBe(
      JSON.stringify(nest(PRETTY_MAX_DEPTH + 1)),
    );
  });
});
