// Text from outside (API bodies, headers and status texts, webhook receivers, files,
// deliveries) ends up on a terminal or in a CI log. A meeting name such as
// "\x1b[2J\x1b]8;;evil\x07" must never clear the screen, move the cursor, set the title, write
// the clipboard, plant a hyperlink, reorder what is displayed, or start a line of its own
// ("\n::error::..." is a GitHub Actions workflow command).
//
// Two layers, both here:
// - sanitizeTerminal is the gate in src/io.ts that EVERY write to stdout and stderr passes
//   through, whatever the format. It is lossless for JSON (the characters it cannot let through
//   are only ever inside JSON strings, where it writes them as \uXXXX escapes), so machine
//   output keeps its data exact; for human text it removes escape sequences and controls.
//   On stderr each io.err() call is one line: a line break inside it becomes a space.
// - sanitizeCell / sanitizeCsvField clean one value before layout (a table cell, a value
//   quoted in a message, a CSV field), so widths are right and a value stays on its line.
// See SECURITY.md for what is promised.

// Whole escape sequences go first, so their parameters do not survive as visible garbage.
// eslint-disable-next-line no-control-regex
const CSI = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]/g;
// OSC (title, hyperlink, clipboard), DCS, SOS, PM, APC: up to BEL or ST, or to the end.
// eslint-disable-next-line no-control-regex
const STRING_SEQ = /(?:\x1b[\]P^_X]|[\x90\x98\x9d\x9e\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c|$)/g;
// Any other escape: ESC, intermediates, one final byte (ESC c resets the terminal, ESC 7/8 ...).
// eslint-disable-next-line no-control-regex
const OTHER_ESC = /\x1b[ -/]*[0-~]/g;
// What is left of C0, DEL and C1. Tabs and newlines are handled before this.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f-\x9f]/g;
/**
 * Characters that are invisible or change how the text around them is displayed: every
 * format character (Unicode Cf: the bidi embeddings, overrides and isolates U+202A–U+202E and
 * U+2066–U+2069 of "Trojan Source", LRM/RLM/ALM, ZWSP, word joiners, the BOM, soft hyphen,
 * tag characters...) except ZWNJ and ZWJ, which are part of ordinary text in several scripts
 * and of emoji; and the Hangul fillers, which render as blank letters.
 */
const INVISIBLE = /(?![\u200c\u200d])\p{Cf}|[\u115f\u1160\u3164\uffa0]/gu;
const LINE_BREAKS = /\r\n|[\t\n\r\v\f\u2028\u2029]/g;

function stripSequences(s: string): string {
  return s.replace(STRING_SEQ, '').replace(CSI, '').replace(OTHER_ESC, '');
}

/**
 * For one-line values (table and TSV cells, quiet lines, a value quoted in a message):
 * escape sequences, control and invisible characters removed; tabs and line breaks become a
 * space so a row always stays one line.
 */
export function sanitizeCell(s: string): string {
  return stripSequences(s).replace(LINE_BREAKS, ' ').replace(CONTROL, '').replace(INVISIBLE, '');
}

/** The invisible and reordering characters alone removed (see INVISIBLE). */
export function removeInvisible(s: string): string {
  return s.replace(INVISIBLE, '');
}

/**
 * For CSV fields: as sanitizeCell, but line breaks (normalised to LF) and tabs are kept —
 * they are data, and RFC 4180 quoting carries them safely. A lone CR is not kept: on a
 * terminal it would return the cursor to the line start and let one value overwrite another.
 */
export function sanitizeCsvField(s: string): string {
  return stripSequences(s)
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(/[\v\f]/g, ' ')
    .replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '') // eslint-disable-line no-control-regex
    .replace(INVISIBLE, '');
}

export interface TerminalPolicy {
  /** Colour is on for this stream: our own SGR (colour/bold/dim) sequences may pass. */
  color: boolean;
  /** The text is one line (io.err): any line break in it becomes a space. */
  oneLine?: boolean;
  /** In-place redraw (the progress bar): a lone CR and "erase to end of line" may pass. */
  redraw?: boolean;
}

// The gate's tokens. Only 7-bit escape sequences are removed whole: ESC never appears raw in
// JSON (JSON.stringify escapes every C0), so removing them cannot change JSON data. 8-bit C1
// introducers may be inside JSON strings, so they are escaped one by one instead (below).
// An unterminated OSC/DCS string ends at the line break: the rest of the line is plain text.
const GATE =
  // eslint-disable-next-line no-control-regex
  /\x1b[\]P^_X][^\n]*?(?:\x07|\x1b\\|(?=[\r\n])|$)|\x1b\[[0-?]*[ -/]*[@-~]|\x1b[ -/]*[0-~]?|\r\n|\r|[\x00-\x08\x0b-\x1f]|[\x7f-\x9f\u2028\u2029]|[\p{Cf}\u115f\u1160\u3164\uffa0]/gu;
const ONE_LINE_BREAKS = /\r\n|[\n\r\v\f]/g;
const REDRAW_LINE_BREAKS = /[\n\v\f]/g;
// eslint-disable-next-line no-control-regex
const SGR = /^\x1b\[([0-9;]*)m$/;
/** SGR parameters chalk writes for the styles we use; never 8 (hidden), blink or fonts. */
const SGR_PLAIN = new Set([
  0, 1, 2, 3, 4, 7, 9, 21, 22, 23, 24, 27, 29, 39, 49, 53, 55, 30, 31, 32, 33, 34, 35, 36, 37, 40,
  41, 42, 43, 44, 45, 46, 47, 90, 91, 92, 93, 94, 95, 96, 97, 100, 101, 102, 103, 104, 105, 106,
  107,
]);

function allowedSgr(seq: string): boolean {
  const m = SGR.exec(seq);
  if (!m) return false;
  // An empty parameter is 0 (ECMA-48): ESC[m and ESC[;1m are plain.
  const params = m[1]!.split(';').map(Number);
  for (let i = 0; i < params.length; i++) {
    const p = params[i]!;
    if (p === 38 || p === 48) {
      // 256 colours (38;5;n) and true colour (38;2;r;g;b).
      const kind = params[i + 1];
      const n = kind === 5 ? 1 : kind === 2 ? 3 : -1;
      if (n < 0 || i + 1 + n >= params.length) return false;
      for (let k = i + 2; k <= i + 1 + n; k++) if (params[k]! > 255) return false;
      i += 1 + n;
    } else if (!SGR_PLAIN.has(p)) {
      return false;
    }
  }
  return true;
}

/** `\uXXXX` for each UTF-16 unit: visible on a terminal, and the same character in JSON. */
function escapeUnits(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    out += '\\u' + s.charCodeAt(i).toString(16).padStart(4, '0');
  }
  return out;
}

/**
 * The gate every write to a terminal or log passes (src/io.ts). Removes escape sequences
 * (except, when colour is on, our own SGR colours) and C0 controls other than tab, LF and
 * CRLF; writes DEL, C1 controls, U+2028/U+2029 and invisible format characters as `\uXXXX`,
 * which is exact in JSON and visible, harmless text anywhere else.
 */
export function sanitizeTerminal(text: string, policy: TerminalPolicy): string {
  const breaks = policy.redraw ? REDRAW_LINE_BREAKS : ONE_LINE_BREAKS;
  const input = policy.oneLine ? text.replace(breaks, ' ') : text;
  return input.replace(GATE, (tok) => {
    const c = tok.charCodeAt(0);
    if (c === 0x1b) {
      // Only a whole CSI token can be either of these.
      if (policy.color && allowedSgr(tok)) return tok;
      if (policy.redraw && tok === '\x1b[K') return tok;
      return '';
    }
    if (tok === '\r\n') return tok; // a lone LF is never a token
    if (tok === '\r') return policy.redraw ? tok : '';
    if (c < 0x20) return '';
    if (c === 0x200c || c === 0x200d) return tok; // ZWNJ, ZWJ: ordinary text
    return escapeUnits(tok);
  });
}
