// RFC 4180: records end with CRLF; a field containing a comma, a double quote, CR or LF is
// enclosed in double quotes, with each inner double quote doubled. CRLF (not LF) is the RFC's
// record separator and what spreadsheet tools expect; every CSV reader accepts it.
//
// Formula injection (OWASP, "CSV Injection"): a spreadsheet runs a cell that starts with `=`,
// `+`, `-`, `@`, a tab or a CR as a formula (`=HYPERLINK(…)`, `=cmd|' /C calc'!A0`). A text
// value that starts with one of them (or with LF, which a CR in a value becomes) is written
// with a single quote in front and always quoted, so the spreadsheet shows it as text. Only
// values that are text: a number the API gave as a number (`-15`, a negative offset) is
// written as it is — it cannot carry a formula, and a quote would turn it into text that no
// longer sums. A string that looks like a number (`"-15"` as a name) is still text and is
// neutralised. JSON and NDJSON keep every value exact.
export const CSV_EOL = '\r\n';

/**
 * The UTF-8 byte order mark: Excel reads a CSV as UTF-8 only when it starts with one. With
 * `--csv-bom` (env SCHED_CSV_BOM) the CSV writer (render.ts) puts it before the header row.
 */
export const CSV_BOM = '\uFEFF';

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r\n]/;

/** One field. `text` (the default): a value that came as a string, neutralised as above. */
export function csvField(value: string, kind: 'text' | 'number' = 'text'): string {
  if (kind === 'text' && FORMULA_START.test(value)) return `"'${value.replace(/"/g, '""')}"`;
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A field and whether it came as text; a bare string is text. */
export type CsvCell = string | { text: string; kind: 'text' | 'number' };

export function csvRecord(fields: readonly CsvCell[]): string {
  return (
    fields.map((f) => (typeof f === 'string' ? csvField(f) : csvField(f.text, f.kind))).join(',') +
    CSV_EOL
  );
}
