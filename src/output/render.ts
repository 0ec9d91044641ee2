// Rendering of results on stdout in the output formats (table, json, ndjson, csv; see the
// global --output in docs/README.md). Knows nothing about HTTP:
// a command declares its columns and hands over items (an array, or an async iterable that
// is written as it arrives).
//
//   table, stdout a terminal   aligned table with a header row, colour, fitted to the width
//                              (io.columns: COLUMNS, else the terminal's); when it cannot
//                              fit without breaking a URL or UUID, `NAME  value` records
//   table, stdout not a tty    tab-separated rows, no header, no colour (like gh)
//   json                       exactly the objects given; pretty on a terminal, compact otherwise
//   ndjson                     one compact object per line
//   csv                        header row, RFC 4180 quoting, CRLF line ends
//
// Everything but the terminal table streams: each item is written (waiting on a full pipe)
// before the next one is pulled, so memory stays flat for long `--all` listings. Writes go
// through io.out, which throws QuietExit when the reader went away (`| head -1`); that error
// is never caught here.
import { jsonText } from './json-value.js';
import { maskValue } from '../mask.js';
import type { IO } from '../io.js';
import type { OutputFormat } from './formats.js';
import { csvRecord, type CsvCell } from './csv.js';
import { isJsonText, relayoutJson } from './json-text.js';
import { sanitizeCell, sanitizeCsvField } from '../text/sanitize.js';
import { cellText, type CellValue, type Column } from './columns.js';

export {
  MAX_TEXT_CELL,
  MAX_WHOLE_CELL,
  type CellStyle,
  type CellValue,
  type Column,
} from './columns.js';

/** The terminal table and field list, with the table library: loaded only to draw one. */
const terminalTable = () => import('./terminal-table.js');

export interface RenderOptions<T> {
  format: OutputFormat;
  columns: readonly Column<T>[];
}

type Source<T> = Iterable<T> | AsyncIterable<T>;

/** A listing that arrives a page at a time; each page is written with one write. */
export interface Paged<T> {
  pages: AsyncIterable<readonly T[]>;
}

export type ListSource<T> = Source<T> | Paged<T>;

/** A CSV field: text unless the value (or every item of a list) is a number or a boolean. */
function csvText(v: CellValue): CsvCell {
  if (v === null || v === undefined) return '';
  const items: readonly unknown[] = Array.isArray(v) ? v : [v];
  const kind = items.every((x) => typeof x === 'number' || typeof x === 'boolean')
    ? 'number'
    : 'text';
  const text = Array.isArray(v) ? v.map(String).join(',') : String(v as string | number);
  return { text: sanitizeCsvField(text), kind };
}

function prettyJson(value: unknown, indent: string): string {
  // JSON strings never contain a raw newline, so indenting every line is safe.
  return indent + jsonText(value, 2).replace(/\n/g, '\n' + indent);
}

/**
 * Writes the items of a list. On an error from the source (a failed page, a failed link) the
 * output written so far is completed first — the JSON array is closed, the terminal table
 * shows the rows it has — so a partial result stays usable, and then the error is rethrown.
 * Returns the number of items written.
 */
export async function renderList<T>(
  io: IO,
  items: ListSource<T>,
  opts: RenderOptions<T>,
): Promise<number> {
  const machineColumns = opts.columns.filter((c) => !c.terminalOnly);
  switch (opts.format) {
    case 'json':
      return renderJsonArray(io, items);
    case 'ndjson':
      return pump(io, items, (item) => jsonText(item) + '\n');
    case 'csv':
      await io.out(csvRecord(machineColumns.map((c) => c.key)));
      return pump(io, items, (item) =>
        csvRecord(machineColumns.map((c) => csvText(c.value(item)))),
      );
    case 'table':
      if (io.stdoutIsTTY) return renderTerminalTable(io, items, opts.columns);
      return pump(
        io,
        items,
        (item) => machineColumns.map((c) => cellText(c.value(item), ',')).join('\t') + '\n',
      );
  }
}

function isPaged<T>(items: ListSource<T>): items is Paged<T> {
  return typeof items === 'object' && items !== null && 'pages' in items && !Array.isArray(items);
}

/**
 * Writes `line(item)` for each item: one write per page of a paged listing (a page of 100
 * items costs one write, not 100), one per item of an item iterable, one for an array. So
 * output streams as it arrives, and each write waits for a full pipe to drain before more
 * is pulled from the source.
 *
 * On a failure of the source, `onSourceError` runs (to close a JSON array, print the table
 * rows) and the error is rethrown. A closed stdout (QuietExit) stops at once; leaving the
 * loop lets the source clean up (abort page requests in flight).
 */
async function pump<T>(
  io: IO,
  items: ListSource<T>,
  line: (item: T, index: number) => string,
  onSourceError?: (written: number) => Promise<void>,
): Promise<number> {
  let n = 0;
  const write = async (chunk: readonly T[]) => {
    let text = '';
    for (const item of chunk) text += line(maskValue(item, io.mask), n++);
    await io.out(text);
  };
  if (Array.isArray(items)) {
    await write(items as readonly T[]);
    return n;
  }
  const it = isPaged(items)
    ? items.pages[Symbol.asyncIterator]()
    : Symbol.asyncIterator in items
      ? items[Symbol.asyncIterator]()
      : (items as Iterable<T>)[Symbol.iterator]();
  const chunked = isPaged(items);
  for (;;) {
    let next: IteratorResult<T | readonly T[]>;
    try {
      next = await it.next();
    } catch (e) {
      await onSourceError?.(n);
      throw e;
    }
    if (next.done) return n;
    try {
      await write(chunked ? (next.value as readonly T[]) : [next.value as T]);
    } catch (e) {
      await Promise.resolve(it.return?.()).catch(() => undefined);
      throw e;
    }
  }
}

async function renderJsonArray<T>(io: IO, items: ListSource<T>): Promise<number> {
  const pretty = io.stdoutIsTTY;
  const close = (n: number) => io.out(n === 0 ? '[]\n' : pretty ? '\n]\n' : ']\n');
  const n = await pump(
    io,
    items,
    (item, i) =>
      (i === 0 ? (pretty ? '[\n' : '[') : pretty ? ',\n' : ',') +
      (pretty ? prettyJson(item, '  ') : jsonText(item)),
    // A failure before the first item leaves stdout empty (nothing to salvage, and a bare
    // `[]` would look like a real empty result); after it, the array is closed so it parses.
    async (written) => {
      if (written > 0) await close(written);
    },
  );
  await close(n);
  return n;
}

async function renderTerminalTable<T>(
  io: IO,
  items: ListSource<T>,
  columns: readonly Column<T>[],
): Promise<number> {
  // Column widths depend on every row, so a terminal table (meant for a person to read)
  // is the one format that holds its rows before writing.
  const rows: CellValue[][] = [];
  const print = async () => {
    if (rows.length > 0) await io.out((await terminalTable()).formatTable(io, columns, rows));
  };
  await pump(
    io,
    items,
    (item) => {
      rows.push(columns.map((c) => (c.display ?? c.value)(item)));
      return '';
    },
    print,
  );
  await print();
  return rows.length;
}

/**
 * Writes one object (a created webhook, one link). json: the object itself, pretty on a
 * terminal; ndjson: one line; csv: header and one record; table: field/value lines on a
 * terminal, one tab-separated row otherwise.
 */
export async function renderObject<T>(io: IO, given: T, opts: RenderOptions<T>): Promise<void> {
  const item = maskValue(given, io.mask);
  switch (opts.format) {
    case 'json':
      await io.out((io.stdoutIsTTY ? prettyJson(item, '') : jsonText(item)) + '\n');
      return;
    case 'ndjson':
    case 'csv':
      await renderList(io, [item], opts);
      return;
    case 'table': {
      if (!io.stdoutIsTTY) {
        await renderList(io, [item], opts);
        return;
      }
      const values = opts.columns.map((c) => c.value(item));
      await io.out((await terminalTable()).formatFields(io, opts.columns, values));
      return;
    }
  }
}

/**
 * Quiet output: one sanitized value per line, streamed. Returns the number of lines.
 */
export async function renderLines(io: IO, values: ListSource<string>): Promise<number> {
  return pump(io, values, (v) => sanitizeCell(v) + '\n');
}

/**
 * An answer as received (`sched api`): the status line and headers first when given, then the
 * body — JSON laid out again without being parsed (pretty on a terminal, compact in a pipe;
 * numbers, key order and escapes kept), anything else exactly as it came.
 */
export async function renderReceived(
  io: IO,
  body: Buffer,
  head?: readonly string[],
): Promise<void> {
  if (head) await io.out(head.join('\n') + '\n\n');
  if (body.length === 0) return;
  const text = body.toString('utf8');
  await io.out(
    isJsonText(text) ? relayoutJson(text, io.stdoutIsTTY ? 2 : 0, io.mask) + '\n' : text,
  );
}

/**
 * The same io with every stdout write passed through `redact` first: a last guard for a
 * command whose results could echo a secret it holds (`webhooks sync` and the file's secrets).
 */
export function redactedOutput(io: IO, redact: (text: string) => string): IO {
  return { ...io, out: (text) => io.out(redact(text)) };
}

/**
 * One value as one compact JSON line, on a terminal too: a record read line by line as it
 * happens (`sandbox --json`'s first line, `events send --json`, `sig sign --json`).
 */
export async function renderJsonLine(io: IO, value: unknown): Promise<void> {
  await io.out(JSON.stringify(maskValue(value, io.mask)) + '\n');
}

/**
 * Text a command composed whole, written as it is: human lines in its own words (colours from
 * io; anything from outside in them already passed sanitizeCell) or a generated document (a
 * completion script). io.out's gate still applies.
 */
export async function renderText(io: IO, text: string): Promise<void> {
  await io.out(text);
}
