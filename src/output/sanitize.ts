// Server strings end up on a terminal. A meeting name such as "\x1b[2J\x1b]8;;evil\x07" must
// never clear the screen, move the cursor, recolour text or plant a hyperlink, so every string
// shown in table/TSV/CSV output passes through here. JSON output keeps values exactly.

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
// Bidirectional overrides and isolates reorder what is displayed ("Trojan Source").
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;
const LINE_BREAKS = /\r\n|[\t\n\r\v\f\u2028\u2029]/g;

function stripSequences(s: string): string {
  return s.replace(STRING_SEQ, '').replace(CSI, '').replace(OTHER_ESC, '');
}

/**
 * For one-line cells (table, TSV, quiet lines): escape sequences and control characters
 * removed; tabs and line breaks become a space so a row always stays one line.
 */
export function sanitizeCell(s: string): string {
  return stripSequences(s).replace(LINE_BREAKS, ' ').replace(CONTROL, '').replace(BIDI, '');
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
    .replace(BIDI, '');
}
