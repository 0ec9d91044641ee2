// The one renderer: a command hands over what it prints (records, one record, a result with
// its summary: `Shown`) and the settings asked for (--output, -q); the format's row
// (formats.ts) and its writer below decide how it looks. No command branches on the format.
// Knows nothing about HTTP.
//
//   table, stdout a terminal   aligned table with a header row, colour, fitted to the width
//                              (io.columns: COLUMNS, else the terminal's); when it cannot
//                              fit without breaking a URL or UUID, `NAME  value` records
//   table, stdout not a tty    tab-separated rows, no header, no colour (like gh)
//   json                       exactly the objects given; pretty on a terminal, compact otherwise
//   ndjson                     one compact object per line
//   csv                        header row, RFC 4180 quoting, CRLF line ends
//
// Secrets are masked in the data first (maskValue, with the io's mask), before any format,
// cutting, wrapping or layout; io.out's gate on the finished text stays as the last net.
//
// Everything but the terminal table and a JSON document streams: each item is written
// (waiting on a full pipe) before the next one is pulled, so memory stays flat for long
// `--all` listings. Writes go through io.out, which throws QuietExit when the reader went away
// (`| head -1`); that error is never caught here.
import { jsonText } from './json-value.js';
import { maskValue } from '../mask.js';
import { UsageError } from '../errors.js';
import type { IO } from '../io.js';
import { FORMAT_ROWS, type OutputFormat } from './formats.js';
import { CSV_BOM, csvRecord, type CsvCell } from './csv.js';
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

/** What was asked for the output (the context's globals carry these fields). */
export interface OutputSettings {
  output: OutputFormat;
  /** -q: bare values for people; a format not for people, asked for by name, wins over it. */
  quiet?: boolean;
  /** The format was asked for by name (-o, --json), not taken by default. */
  outputGiven?: boolean;
  /** --csv-bom or SCHED_CSV_BOM=1: CSV output starts with a UTF-8 BOM. */
  csvBom?: boolean;
}

/** What a command prints, handed to show(): the renderer chooses how. */
export interface Shown<T> {
  /** The records: a list, written as it arrives; or (with `one`) the one record. */
  records: ListSource<T>;
  /** One record (a created webhook): JSON prints the object, a terminal its fields. */
  one?: boolean;
  /** The columns of the formats that need them; without them, those formats print the data. */
  columns?: readonly Column<T>[];
  /** The columns of the format for people (a terminal table, TSV), when not `columns`. */
  humanColumns?: readonly Column<T>[];
  /** A record as the formats that print the data itself print it; default: the record. */
  data?: (item: T) => unknown;
  /**
   * The one document of a format that prints one (not a record per line), from the data once
   * it is all in, or the work stopped: a result with its summary (`{deleted: [...]}`).
   */
  document?: (data: unknown[]) => unknown;
  /** Lines for people in place of the table (URLs, UUIDs): with -q, and when `linesWhen` says. */
  lines?: (item: T) => string | readonly string[];
  /** Besides -q: also for a table not asked for by name ('default'), or in place of any table. */
  linesWhen?: 'quiet' | 'default' | 'always';
  /** For people, in place of the records: one line said once they are all in (or nothing). */
  summary?: () => string | undefined;
}

const rowOf = (s: OutputSettings) => FORMAT_ROWS[s.output];

/** The format is for people: the command's own words (hints, notes) go with it. */
export const humanFormat = (s: OutputSettings): boolean => rowOf(s).human;
/** The format is for people and -q did not ask for bare values: hints and summaries. */
export const forPeople = (s: OutputSettings): boolean => rowOf(s).human && !s.quiet;
/** The format prints the data itself (JSON values), not text or columns. */
export const printsData = (s: OutputSettings): boolean => rowOf(s).data;
/**
 * Output that has no records (an answer printed as received) cannot be written in a format of
 * one record per line: refused, naming the format, before anything is sent.
 */
export function refuseRecordPerLine(s: OutputSettings, need: string, hint: string): void {
  if (rowOf(s).data && rowOf(s).streams) {
    throw new UsageError(`-o ${s.output} prints one item per line: it needs ${need}`, { hint });
  }
}

function linesFor<T>(s: OutputSettings, shown: Shown<T>): Shown<T>['lines'] {
  if (!shown.lines) return undefined;
  const when = shown.linesWhen ?? 'quiet';
  const wanted = s.quiet || when === 'always' || (when === 'default' && !s.outputGiven);
  return wanted ? shown.lines : undefined;
}

/**
 * Writes what a command prints in the format asked for. Returns the number of records. On an
 * error from the source (a failed page, a failed link) the output written so far is completed
 * first (the JSON array closed, the terminal table's rows shown, the document written) so a
 * partial result stays usable, and then the error is rethrown.
 */
export async function show<T>(io: IO, settings: OutputSettings, shown: Shown<T>): Promise<number> {
  const row = rowOf(settings);
  if (row.human) {
    const lines = linesFor(settings, shown);
    if (lines) return pump(io, shown.records, (item) => [lines(item)].flat().map(lineOf).join(''));
    if (shown.summary) {
      const n = await pump(io, shown.records, () => '');
      const text = shown.summary();
      if (text !== undefined) await io.out(lineOf(io.mask(text)));
      return n;
    }
  }
  // Without columns, a format that needs them prints the data (the JSON document).
  const format = row.columns && !shown.columns ? 'json' : settings.output;
  return WRITERS[format](io, shown, settings);
}

const lineOf = (text: string) => sanitizeCell(text) + '\n';

type Writer = <T>(io: IO, shown: Shown<T>, settings: OutputSettings) => Promise<number>;

/**
 * One writer per format: a record, so a format without one does not compile. show() hands a
 * format whose row needs columns only a Shown that has them.
 */
const WRITERS: Record<OutputFormat, Writer> = {
  async table(io, shown) {
    const columns = shown.humanColumns ?? shown.columns!;
    if (!io.stdoutIsTTY) {
      const cells = columns.filter((c) => !c.terminalOnly);
      return pump(
        io,
        shown.records,
        (item) => cells.map((c) => cellText(c.value(item), ',')).join('\t') + '\n',
      );
    }
    if (!shown.one) return renderTerminalTable(io, shown.records, columns);
    const { formatFields } = await terminalTable();
    return pump(io, shown.records, (item) =>
      formatFields(
        io,
        columns,
        columns.map((c) => c.value(item)),
      ),
    );
  },
  json: renderJson,
  ndjson: (io, shown) => pump(io, shown.records, (item) => jsonText(dataOf(shown, item)) + '\n'),
  async csv(io, shown, settings) {
    const cells = shown.columns!.filter((c) => !c.terminalOnly);
    // Straight to stdout: the gate removes invisible characters like U+FEFF from the rest.
    if (settings.csvBom) io.stdout.write(CSV_BOM);
    await io.out(csvRecord(cells.map((c) => c.key)));
    return pump(io, shown.records, (item) => csvRecord(cells.map((c) => csvText(c.value(item)))));
  },
};

const dataOf = <T>(shown: Shown<T>, item: T): unknown => (shown.data ? shown.data(item) : item);

/** JSON, pretty on a terminal: the document, each one record, or the array of the records. */
async function renderJson<T>(io: IO, shown: Shown<T>): Promise<number> {
  const text = (value: unknown) =>
    (io.stdoutIsTTY ? prettyJson(value, '') : jsonText(value)) + '\n';
  const { document } = shown;
  if (document) {
    const all: unknown[] = [];
    try {
      return await pump(io, shown.records, (item) => {
        all.push(dataOf(shown, item));
        return '';
      });
    } finally {
      await io.out(text(maskValue(document(all), io.mask)));
    }
  }
  if (shown.one) return pump(io, shown.records, (item) => text(dataOf(shown, item)));
  return renderJsonArray(io, shown.records, (item) => dataOf(shown, item));
}

/**
 * A record read line by line as it happens (`sig sign`, `events send`): a format that prints
 * the data gets it as one compact JSON line, on a terminal too; people get `text` (lines).
 */
export async function renderEvent(
  io: IO,
  settings: OutputSettings,
  value: unknown,
  text: readonly string[],
): Promise<void> {
  if (printsData(settings)) await renderJsonLine(io, value);
  else await renderLines(io, text);
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

async function renderJsonArray<T>(
  io: IO,
  items: ListSource<T>,
  data: (item: T) => unknown,
): Promise<number> {
  const pretty = io.stdoutIsTTY;
  const close = (n: number) => io.out(n === 0 ? '[]\n' : pretty ? '\n]\n' : ']\n');
  const n = await pump(
    io,
    items,
    (item, i) =>
      (i === 0 ? (pretty ? '[\n' : '[') : pretty ? ',\n' : ',') +
      (pretty ? prettyJson(data(item), '  ') : jsonText(data(item))),
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
