// The gate every write to a terminal passes (src/io.ts -> sanitizeTerminal): a table of what it
// keeps, removes and escapes, and the promise that it never changes JSON data.
import { describe, expect, it } from 'vitest';
import { sanitizeTerminal } from '../../src/text/sanitize.js';
import { createBufferIO } from '../helpers/buffer-io.js';
import { masker, proxyCredentials } from '../../src/mask.js';

const plain = { color: false };
const colour = { color: true };

describe('sanitizeTerminal', () => {
  it.each([
    ['plain text, tabs and line ends', 'a\tb\nc\r\nd', plain, 'a\tb\nc\r\nd'],
    ['OSC 52 and a screen clear', 'x\x1b]52;c;aGk=\x07\x1b[2Jy', plain, 'xy'],
    ['a title, ended by ST', 'x\x1b]0;t\x1b\\y', plain, 'xy'],
    ['an unterminated OSC ends at the line end', 'x\x1b]0;title\nnext', plain, 'x\nnext'],
    ['cursor moves, a reset, a lone ESC', 'a\x1b[1Ab\x1bc\x1b', plain, 'ab'],
    ['an OSC cut off at the end of a write goes whole', 'x\x1b]52;c;aGk=', plain, 'x'],
    [
      'a charset switch goes whole, the text after a reset stays',
      'a\x1b(Bb\x1bcd e',
      plain,
      'abd e',
    ],
    ['an escape cut before its final byte leaves nothing', 'a\x1b(\nb\x1b(', plain, 'a\nb'],
    ['a lone CR (overwrites the line)', 'safe\revil', plain, 'safeevil'],
    ['C0 controls', 'a\x00b\x07c\x08d', plain, 'abcd'],
    [
      'C1, DEL and bidi become visible escapes',
      'a\x9b2J\x7f\u202eb',
      plain,
      'a\\u009b2J\\u007f\\u202eb',
    ],
    [
      'invisible characters',
      '\u200b\u200e\u200f\u061c\ufeff',
      plain,
      '\\u200b\\u200e\\u200f\\u061c\\ufeff',
    ],
    ['ZWJ and ZWNJ stay (emoji, scripts)', '👩\u200d💻 \u200c', plain, '👩\u200d💻 \u200c'],
    ['colour off: even our SGR goes', '\x1b[31mred\x1b[39m', plain, 'red'],
    [
      'colour on: SGR colours stay',
      '\x1b[31mred\x1b[39m \x1b[1;2mx\x1b[0m',
      colour,
      '\x1b[31mred\x1b[39m \x1b[1;2mx\x1b[0m',
    ],
    [
      'colour on: 256 and true colour',
      '\x1b[38;5;9ma\x1b[48;2;1;2;3mb',
      colour,
      '\x1b[38;5;9ma\x1b[48;2;1;2;3mb',
    ],
    ['colour on: a bare reset (no parameters) stays', 'a\x1b[mb', colour, 'a\x1b[mb'],
    [
      'colour on: the first and last of the 256 colours stay',
      '\x1b[38;5;255ma\x1b[48;5;0mb',
      colour,
      '\x1b[38;5;255ma\x1b[48;5;0mb',
    ],
    [
      'colour on: an unknown colour kind goes, with what follows it (hidden, blink)',
      '\x1b[38;7;8;5;1mx\x1b[48;3;8;5;1my',
      colour,
      'xy',
    ],
    [
      'colour on: an extended colour that is malformed goes',
      // a value over 255, too few values, an unknown colour kind
      '\x1b[38;5;300ma\x1b[48;2;1;2mb\x1b[38;7;1mc\x1b[38md',
      colour,
      'abcd',
    ],
    ['colour on: hidden text (SGR 8) and blink go', '\x1b[8mx\x1b[5my', colour, 'xy'],
    ['colour on: other CSI go', '\x1b[2J\x1b[1;1H', colour, ''],
  ])('%s', (_name, input, policy, expected) => {
    expect(sanitizeTerminal(input, policy)).toBe(expected);
  });

  it('one line: every line break becomes a space', () => {
    expect(sanitizeTerminal('a\nb\r\nc\rd\ve\ff', { color: false, oneLine: true })).toBe(
      'a b c d e f',
    );
  });

  it('redraw: CR and erase-line pass for the progress bar, line breaks do not', () => {
    expect(
      sanitizeTerminal('\r[==> ] 1/2\x1b[K\n', { color: false, oneLine: true, redraw: true }),
    ).toBe('\r[==> ] 1/2\x1b[K ');
    expect(sanitizeTerminal('\x1b[2K\x1b[1A', { color: false, redraw: true })).toBe('');
  });

  it('redraw: a vertical tab or form feed becomes a space, the letter V stays', () => {
    const io = createBufferIO({ tty: false });
    io.errRaw('\rVerifying\v1/2\f\x1b[K');
    expect(io.stderrText()).toBe('\rVerifying 1/2 \x1b[K');
  });

  it('never changes JSON data: every character survives a round trip', () => {
    const chars: string[] = [];
    for (let c = 0; c < 0x3000; c++) chars.push(String.fromCharCode(c));
    const value = {
      all: chars.join(''),
      astral: '\u{e0001}\u{e0041}😀',
      [`key\x1b[2J\u202e`]: ['\x9b', '\u2028\u2029'],
    };
    for (const text of [JSON.stringify(value), JSON.stringify(value, null, 2)]) {
      for (const policy of [plain, colour]) {
        expect(JSON.parse(sanitizeTerminal(text, policy))).toEqual(value);
      }
    }
  });
});

describe('the io gate', () => {
  it('stdout, stderr and progress writes all pass it', async () => {
    const io = createBufferIO({ tty: false });
    await io.out('a\x1b]0;t\x07b\n');
    io.err('c\x1b[2Jd\ne');
    io.errRaw('\rf\x1b[K\x1b[1A');
    expect(io.stdoutText()).toBe('ab\n');
    expect(io.stderrText()).toBe('cd e\n\rf\x1b[K');
  });
});

describe('masker', () => {
  it('masks every secret of 4 characters or more, the longest first', () => {
    const mask = masker(['abcd', 'abcdefgh', 'xy', undefined]);
    expect(mask('1 abcdefgh 2 abcd 3 xy')).toBe('1 **** 2 **** 3 xy');
  });

  it('proxy passwords, as given and percent-decoded (not user names)', () => {
    expect(
      proxyCredentials({
        HTTPS_PROXY: 'http://user:p%40ss-word@proxy:3128',
        http_proxy: 'proxy.example:8080',
      }),
    ).toEqual(['p%40ss-word', 'p@ss-word']);
  });
});
