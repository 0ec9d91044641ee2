import { describe, expect, it } from 'vitest';
import { removeInvisible, sanitizeCell, sanitizeCsvField } from '../../src/text/sanitize.js';
import { csvField, csvRecord } from '../../src/output/csv.js';

describe('sanitizeCell', () => {
  it('keeps ordinary text, including non-ASCII', () => {
    expect(sanitizeCell('Intro call – 30 min ☕ 日本')).toBe('Intro call – 30 min ☕ 日本');
  });

  it('removes CSI sequences (colours, cursor moves, screen clears) whole', () => {
    expect(sanitizeCell('\x1b[31mred\x1b[0m')).toBe('red');
    expect(sanitizeCell('a\x1b[2J\x1b[1;1Hb')).toBe('ab');
    expect(sanitizeCell('a\x1b[?25lb')).toBe('ab');
    expect(sanitizeCell('a\x9b31mb')).toBe('ab');
  });

  it('removes OSC sequences: window titles and hyperlinks, ended by BEL or ST or not at all', () => {
    expect(sanitizeCell('\x1b]0;pwned\x07name')).toBe('name');
    expect(sanitizeCell('\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\')).toBe('click');
    expect(sanitizeCell('ok\x1b]52;c;ZXZpbA==')).toBe('ok');
    expect(sanitizeCell('a\x9d0;t\x9cb')).toBe('ab');
  });

  it('removes an OSC whose text holds spaces or line breaks whole, not just its start', () => {
    expect(sanitizeCell('\x1b]0;my meeting title\x07name')).toBe('name');
    expect(sanitizeCell('\x1b]8;;https://evil.example/a b\nc\x1b\\click')).toBe('click');
  });

  it('removes other escapes, DCS strings and a lone ESC', () => {
    expect(sanitizeCell('a\x1bcb')).toBe('ab');
    expect(sanitizeCell('a\x1b7b\x1b8')).toBe('ab');
    expect(sanitizeCell('a\x1bP1$r\x1b\\b')).toBe('ab');
    expect(sanitizeCell('end\x1b')).toBe('end');
  });

  it('turns tabs and line breaks into one space so a row stays one line', () => {
    expect(sanitizeCell('a\tb\nc\r\nd\re')).toBe('a b c d e');
    expect(sanitizeCell('a\u2028b')).toBe('a b');
  });

  it('drops the remaining C0, DEL, C1 and bidi override characters', () => {
    expect(sanitizeCell('a\x00b\x07c\x08d\x7fe\x85f\x9ag')).toBe('abcdefg');
    expect(sanitizeCell('abc\u202edcba\u2066x\u2069')).toBe('abcdcbax');
  });
});

describe('sanitizeCsvField', () => {
  it('keeps tabs and line breaks (normalised to LF) but strips escapes and lone CRs', () => {
    expect(sanitizeCsvField('a\tb\r\nc\rd\ne')).toBe('a\tb\nc\nd\ne');
    expect(sanitizeCsvField('\x1b[31mred\x1b[0m\x00\x7f')).toBe('red');
  });

  it('turns a vertical tab or form feed into a space, and leaves the letter V alone', () => {
    expect(sanitizeCsvField('Vote\vnow\fplease')).toBe('Vote now please');
  });

  it('drops bidi overrides and invisible characters, keeps the joiners', () => {
    expect(sanitizeCsvField('abc\u202edcba\u200bx\u2066y\u2069')).toBe('abcdcbaxy');
    expect(sanitizeCsvField('👩\u200d💻\u200c')).toBe('👩\u200d💻\u200c');
  });
});

describe('removeInvisible (TAB completion candidates)', () => {
  it('drops bidi overrides and invisible characters, keeps the text and the joiners', () => {
    expect(removeInvisible('ad\u202enim\u2066x\u2069\u200b\ufeff')).toBe('adnimx');
    expect(removeInvisible('intro-call 👩\u200d💻\u200c')).toBe('intro-call 👩\u200d💻\u200c');
  });
});

describe('csv (RFC 4180)', () => {
  it('leaves plain fields alone', () => {
    expect(csvField('abc')).toBe('abc');
    expect(csvField('')).toBe('');
    expect(csvField('with space')).toBe('with space');
  });

  it('quotes fields with a comma, a quote, CR or LF, doubling inner quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('"')).toBe('""""');
    expect(csvField('line1\nline2')).toBe('"line1\nline2"');
    expect(csvField('a\rb')).toBe('"a\rb"');
    expect(csvField(' leading')).toBe(' leading');
  });

  it('ends each record with CRLF', () => {
    expect(csvRecord(['a', 'b,c', ''])).toBe('a,"b,c",\r\n');
  });
});
