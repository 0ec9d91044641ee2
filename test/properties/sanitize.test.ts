// The terminal sanitiser (src/text/sanitize.ts) on any string: no C0 or C1 control, no
// escape and no bidi override survives; printable text comes through unchanged.
import { describe, expect, it } from 'vitest';
import { fc } from '../helpers/fc.js';
import { sanitizeCell, sanitizeCsvField } from '../../src/text/sanitize.js';

const C0 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i));
const C1 = Array.from({ length: 0x21 }, (_, i) => String.fromCharCode(0x7f + i)); // DEL + C1
const BIDI = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
];
const SEQUENCES = [
  '\x1b[2J',
  '\x1b[31;1m',
  '\x1b]8;;https://evil.example\x07',
  '\x1b]0;title\x1b\\',
  '\x1bP1$r\x1b\\',
  '\x9b2J',
  '\x9d8;;x\x9c',
  '\x1bc',
  '\x1b7',
  '\x1b(',
  '\x1b',
];

/** Strings made of controls, escape sequences (whole or cut), bidi marks and ordinary text. */
const hostile = fc
  .array(
    fc.oneof(
      fc.constantFrom(...C0, ...C1, ...BIDI, '\u2028', '\u2029'),
      fc.constantFrom(...SEQUENCES),
      fc.string({ unit: 'grapheme', maxLength: 4 }),
      fc.string({ unit: 'binary', maxLength: 4 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

/**
 * What a terminal shows as text: no control, no escape, no line or paragraph separator, and
 * nothing invisible — no format character (bidi controls and the like; the joiners ZWJ/ZWNJ
 * excepted, emoji need them) and none of the Hangul fillers, which the sanitiser removes because
 * they show as blank space (a counterexample fast-check found: U+3164).
 */
const printable = fc.string({ unit: 'grapheme' }).filter(
  (s) =>
    // eslint-disable-next-line no-control-regex
    !/[\x00-\x1f\x7f-\x9f\u2028\u2029\u115f\u1160\u3164\uffa0]|(?![\u200c\u200d])\p{Cf}/u.test(s),
);

// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\x00-\x1f\x7f-\x9f]/;
const ANY_BIDI = /[\u202a-\u202e\u2066-\u2069]/;

describe('terminal sanitiser (property)', () => {
  it('sanitizeCell: no control character (C0, DEL, C1, ESC) or bidi override survives', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const out = sanitizeCell(s);
        expect(out).not.toMatch(ANY_CONTROL);
        expect(out).not.toMatch(ANY_BIDI);
        expect(out).not.toMatch(/[\u2028\u2029]/);
      }),
    );
  });

  it('sanitizeCsvField: only LF and tab survive of the controls (quoting carries them)', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const out = sanitizeCsvField(s);
        expect(out.replace(/[\n\t]/g, '')).not.toMatch(ANY_CONTROL);
        expect(out).not.toMatch(ANY_BIDI);
        expect(out).not.toContain('\r');
      }),
    );
  });

  it('printable text is unchanged by both', () => {
    fc.assert(
      fc.property(printable, (s) => {
        expect(sanitizeCell(s)).toBe(s);
        expect(sanitizeCsvField(s)).toBe(s);
      }),
    );
  });

  it('printable text around hostile parts is kept, in order', () => {
    fc.assert(
      fc.property(printable, hostile, printable, (a, bad, b) => {
        // A string sequence (OSC, DCS ...) left open runs to the end: only the text before
        // it is certain to survive.
        const out = sanitizeCell(a + bad + b);
        expect(out.startsWith(a)).toBe(true);
      }),
    );
  });

  it('sanitising twice changes nothing more', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        expect(sanitizeCell(sanitizeCell(s))).toBe(sanitizeCell(s));
        expect(sanitizeCsvField(sanitizeCsvField(s))).toBe(sanitizeCsvField(s));
      }),
    );
  });
});
