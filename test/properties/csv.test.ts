// CSV output (src/output/csv.ts, the csv format of src/output/render.ts) read back by a strict
// RFC 4180 parser: any record round-trips exactly, and any list of objects comes back as its
// header and values (values as the documented sanitising leaves them, never anything else).
import { describe, expect, it } from 'vitest';
import { fc } from '../helpers/fc.js';
import { csvRecord } from '../../src/output/csv.js';
import { parseCsv } from '../helpers/csv-parse.js';
import type { Column } from '../../src/output/render.js';
import { renderList } from '../helpers/render.js';
import { sanitizeCsvField } from '../../src/text/sanitize.js';
import { createBufferIO } from '../helpers/buffer-io.js';

/** Strings full of what CSV must quote, plus the rest of Unicode. */
/** What a spreadsheet runs as a formula (OWASP), and how a text field is written instead. */
const FORMULA = /^[=+\-@\t\r\n]/;
const neutral = (s: string) => (FORMULA.test(s) ? `'${s}` : s);

const field = fc.oneof(
  fc.string({
    unit: fc.constantFrom('a', 'b', ',', '"', '\r', '\n', ' ', '\t', '=', '-', '+', '@'),
  }),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
);

describe('CSV (property)', () => {
  it('the parser is strict: it refuses what RFC 4180 refuses', () => {
    expect(() => parseCsv('a"b\r\n')).toThrow();
    expect(() => parseCsv('"a\r\n')).toThrow();
    expect(() => parseCsv('a\n')).toThrow();
    expect(parseCsv('"a,""b"""\r\n')).toEqual([['a,"b"']]);
  });

  it('any record round-trips exactly through csvRecord (a formula start behind a quote)', () => {
    fc.assert(
      fc.property(fc.array(field, { minLength: 1, maxLength: 8 }), (fields) => {
        const [parsed] = parseCsv(csvRecord(fields));
        expect(parsed).toEqual(fields.map(neutral));
        // No text field a spreadsheet reads can start a formula.
        for (const p of parsed!) expect(p).not.toMatch(FORMULA);
      }),
    );
  });

  it('any list of objects comes back as its header and sanitised values, one record each', async () => {
    const keys = ['name', 'slug', 'note'] as const;
    type Row = Record<(typeof keys)[number], string | number | string[] | null>;
    const value = fc.oneof(
      field,
      fc.integer(),
      fc.constant(null),
      fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 3 }),
    );
    const columns: Column<Row>[] = keys.map((k) => ({ key: k, header: k, value: (r) => r[k] }));
    const expected = (v: Row[keyof Row]) =>
      v === null
        ? ''
        : typeof v === 'number'
          ? String(v)
          : neutral(sanitizeCsvField(Array.isArray(v) ? v.join(',') : v));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ name: value, slug: value, note: value }), { maxLength: 6 }),
        async (rows) => {
          const io = createBufferIO();
          const n = await renderList(io, rows as Row[], { format: 'csv', columns });
          expect(n).toBe(rows.length);
          const parsed = parseCsv(io.stdoutText());
          expect(parsed[0]).toEqual([...keys]);
          expect(parsed.slice(1)).toEqual(
            (rows as Row[]).map((r) => keys.map((k) => expected(r[k]))),
          );
        },
      ),
    );
  });
});
