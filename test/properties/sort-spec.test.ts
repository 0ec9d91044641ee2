// Sort specs (`types list --sort field[:dir]`, parseSort) and their encoding into the query
// (encodeQuery): any spec parses to a valid field and direction or is one usage error, and any
// parsed sorting reaches the server as exactly the pairs it names.
import { describe, expect, it } from 'vitest';
import { fc } from '../helpers/fc.js';
import { parseSort } from '../../src/commands/types/inputs.js';
import { encodeQuery } from '../../src/api/client.js';
import { UsageError } from '../../src/errors.js';

const field = fc.string({
  unit: fc.constantFrom(...'abcxyzABZ019_.'.split('')),
  minLength: 1,
  maxLength: 100,
});
const direction = fc
  .constantFrom('asc', 'desc')
  .chain((d) =>
    fc
      .array(fc.boolean(), { minLength: d.length, maxLength: d.length })
      .map((up) => [...d].map((ch, i) => (up[i] ? ch.toUpperCase() : ch)).join('')),
  );
const space = fc.constantFrom('', ' ', '  ');

describe('sort specs (property)', () => {
  it('field[:dir] parses to the field and the lower-case direction; no direction is asc', () => {
    fc.assert(
      fc.property(field, fc.option(direction, { nil: undefined }), space, space, (f, d, a, b) => {
        const spec = d === undefined ? `${a}${f}${b}` : `${a}${f}${b}:${a}${d}${b}`;
        expect(parseSort(spec)).toEqual([f, d === undefined ? 'asc' : d.toLowerCase()]);
      }),
    );
  });

  it('any string: a valid field and direction, or one usage error (never anything else)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 120 }),
          fc.string({
            unit: fc.constantFrom('a', ':', ' ', '.', '_', 'd', 'e', 's', 'c', '-', '\n'),
          }),
        ),
        (spec) => {
          let parsed: [string, string] | undefined;
          try {
            parsed = parseSort(spec);
          } catch (e) {
            expect(e).toBeInstanceOf(UsageError);
            expect((e as Error).message).not.toContain('\n');
            expect((e as Error).message).toMatch(/^invalid --sort /);
            return;
          }
          expect(parsed[0]).toMatch(/^[A-Za-z0-9_.]{1,100}$/);
          expect(['asc', 'desc']).toContain(parsed[1]);
        },
      ),
    );
  });

  it('any query (sorting pairs, page, limit) reaches the server as exactly its pairs', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc
              .tuple(field, fc.constantFrom('asc', 'desc'))
              .map(([f, d]) => [`sorting[${f}]`, d] as [string, string]),
            fc.tuple(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' })),
          ),
          { maxLength: 6 },
        ),
        (query) => {
          const qs = encodeQuery(query);
          const url = new URL(`https://api.example.com/api/x${qs}`);
          expect([...url.searchParams]).toEqual(query);
          // The brackets of sorting[...] stay literal, as the API documents them.
          for (const [k] of query) {
            if (/^sorting\[[A-Za-z0-9_.]+\]$/.test(k)) expect(qs).toContain(`${k}=`);
          }
        },
      ),
    );
  });
});
