// Rendering of results on stdout in the formats of the contract. Knows nothing about HTTP:
// a command declares its columns and hands over items (an array, or an async iterable that
// is written as it arrives).
//
//   table, stdout a terminal   aligned table with a header row, colour, fitted to the width
//   table, stdout not a tty    tab-separated rows, no header, no colour (like gh)
//   json                       exactly the objects given; pretty on a terminal, compact otherwise
//   ndjson                     one compact object per line
//   csv                        header row, RFC 4180 quoting, CRLF line ends
//
// Everything but the terminal table streams: each item is written (waiting on a full pipe)
// before the next one is pulled, so memory stays flat for long `--all` listings. Writes go
// through io.out, which throws QuietExit when the reader went away (`| head -1`); that error
// is never caught here.
import type { IO } from '../io.js';
import type { OutputFormat } from '../context.js';
import { csvRecord } from './csv.js';
import { sanitizeCell, sanitizeCsvField } from './sanitize.js';

export type CellValue = string | number | boolean | null | undefined | readonly (string | number)[];

export type CellStyle = 'bold' | 'dim' | 'cyan' | 'green' | 'yellow' | 'magenta';

export interface Column<T> {
  /** Machine name: the CSV header. */
  key: string;
  /** Header of the terminal table; default: key in capitals. */
  header?: string;
  value: (item: T) => CellValue;
  /**
   * Terminal table only: this column may be truncated (with …) to fit the width. Columns
   * people copy (UUIDs, URLs, codes) leave it unset and are never cut.
   */
  shrink?: boolean;
  /** Terminal table only: colour of the cells. */
  style?: CellStyle;
}

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

/** Formats a cell for table/TSV: arrays joined, null and undefined empty, then sanitized. */
function cellText(v: CellValue, arraySep: string): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return sanitizeCell(v.map(String).join(arraySep));
  return sanitizeCell(String(v));
}

function csvText(v: CellValue): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return sanitizeCsvField(v.map(String).join(','));
  return sanitizeCsvField(String(v));
}

function prettyJson(value: unknown, indent: string): string {
  // JSON strings never contain a raw newline, so indenting every line is safe.
  return indent + JSON.stringify(value, null, 2).replace(/\n/g, '\n' + indent);
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
  switch (opts.format) {
    case 'json':
      return renderJsonArray(io, items);
    case 'ndjson':
      return pump(io, items, (item) => JSON.stringify(item) + '\n');
    case 'csv':
      await io.out(csvRecord(opts.columns.map((c) => c.key)));
      return pump(io, items, (item) => csvRecord(opts.columns.map((c) => csvText(c.value(item)))));
    case 'table':
      if (io.stdoutIsTTY) return renderTerminalTable(io, items, opts.columns);
      return pump(
        io,
        items,
        (item) => opts.columns.map((c) => cellText(c.value(item), ',')).join('\t') + '\n',
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
    for (const item of chunk) text += line(item, n++);
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
      (pretty ? prettyJson(item, '  ') : JSON.stringify(item)),
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
  const rows: string[][] = [];
  const print = async () => {
    if (rows.length > 0) await io.out(await formatTable(io, columns, rows));
  };
  await pump(
    io,
    items,
    (item) => {
      rows.push(columns.map((c) => cellText(c.value(item), ', ')));
      return '';
    },
    print,
  );
  await print();
  return rows.length;
}

const GAP = 2;
const MIN_SHRUNK_WIDTH = 8;

/** Display width, close enough for fitting (cli-table3 measures exactly when it truncates). */
function width(s: string): number {
  let w = 0;
  for (const ch of s) w += (ch.codePointAt(0) ?? 0) >= 0x1100 && isWide(ch) ? 2 : 1;
  return w;
}

function isWide(ch: string): boolean {
  return /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u.test(
    ch,
  );
}

/**
 * Widths that fit the terminal: when the natural widths are too wide, the widest shrinkable
 * column gives up one character at a time (never below a readable minimum). When that is not
 * enough the table is left wider than the terminal rather than cutting an ID or URL.
 */
export function fitWidths(
  natural: readonly number[],
  shrinkable: readonly boolean[],
  mins: readonly number[],
  available: number,
): number[] {
  const widths = [...natural];
  let excess = widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1) - available;
  while (excess > 0) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      if (!shrinkable[i] || widths[i]! <= mins[i]!) continue;
      if (widest < 0 || widths[i]! > widths[widest]!) widest = i;
    }
    if (widest < 0) break;
    widths[widest]! -= 1;
    excess -= 1;
  }
  return widths;
}

async function formatTable<T>(
  io: IO,
  columns: readonly Column<T>[],
  rows: readonly string[][],
): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const headers = columns.map((c) => c.header ?? c.key.toUpperCase());
  const natural = columns.map((_, i) =>
    Math.max(width(headers[i]!), ...rows.map((r) => width(r[i] ?? ''))),
  );
  const widths = fitWidths(
    natural,
    columns.map((c) => c.shrink === true),
    headers.map((h) => Math.max(width(h), MIN_SHRUNK_WIDTH)),
    io.columns,
  );
  const table = new Table({
    head: headers.map((h) => io.color.bold(h)),
    colWidths: widths,
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: ' '.repeat(GAP),
    },
    // Colour comes from io (NO_COLOR, --no-color, FORCE_COLOR), never from cli-table3's own
    // detection, so the table styles nothing itself.
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  for (const r of rows) {
    table.push(
      r.map((text, i) => {
        const style = columns[i]!.style;
        return style && text ? io.color[style](text) : text;
      }),
    );
  }
  return (
    table
      .toString()
      .split('\n')
      .map((l) => l.replace(/ +$/, ''))
      .join('\n') + '\n'
  );
}

/**
 * Writes one object (a created webhook, one link). json: the object itself, pretty on a
 * terminal; ndjson: one line; csv: header and one record; table: field/value lines on a
 * terminal, one tab-separated row otherwise.
 */
export async function renderObject<T>(io: IO, item: T, opts: RenderOptions<T>): Promise<void> {
  switch (opts.format) {
    case 'json':
      await io.out((io.stdoutIsTTY ? prettyJson(item, '') : JSON.stringify(item)) + '\n');
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
      const headers = opts.columns.map((c) => c.header ?? c.key.toUpperCase());
      const pad = Math.max(...headers.map(width));
      const lines = opts.columns.map((c, i) => {
        const text = cellText(c.value(item), ', ');
        const styled = c.style && text ? io.color[c.style](text) : text;
        return `${io.color.bold(headers[i]!.padEnd(pad))}  ${styled}`.replace(/ +$/, '');
      });
      await io.out(lines.join('\n') + '\n');
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
