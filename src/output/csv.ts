// RFC 4180: records end with CRLF; a field containing a comma, a double quote, CR or LF is
// enclosed in double quotes, with each inner double quote doubled. CRLF (not LF) is the RFC's
// record separator and what spreadsheet tools expect; every CSV reader accepts it.

export const CSV_EOL = '\r\n';

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvRecord(fields: readonly string[]): string {
  return fields.map(csvField).join(',') + CSV_EOL;
}
