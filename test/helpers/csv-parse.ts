// A strict RFC 4180 reader, for tests that read CSV output back.
import { CSV_EOL } from '../../src/output/csv.js';

/**
 * Strict RFC 4180: records end with CRLF (the last one too); a field is either plain (no
 * comma, quote, CR or LF) or quoted with inner quotes doubled. Anything else throws.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let i = 0;
  while (i < text.length) {
    const record: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) throw new Error('unterminated quoted field');
          if (text[i] === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          field += text[i++];
        }
      } else {
        while (i < text.length && !/[,"\r\n]/.test(text[i]!)) field += text[i++];
        if (text[i] === '"') throw new Error(`a quote inside a plain field at ${i}`);
      }
      record.push(field);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text.startsWith(CSV_EOL, i)) {
        i += CSV_EOL.length;
        break;
      }
      throw new Error(
        `expected "," or CRLF at ${i}, found ${JSON.stringify(text.slice(i, i + 5))}`,
      );
    }
    records.push(record);
  }
  return records;
}
