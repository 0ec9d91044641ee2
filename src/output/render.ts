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
   * Terminal table only: the text shown in place of `value` when a shorter or friendlier
   * form reads better in a table (`all` for every event, a short time). TSV, CSV and JSON
   * always carry `value`: they are for programs, and stable.
   */
  display?: (item: T) => CellValue;
  /**
   * Terminal table only: this column may be truncated (with …) to fit the width. Columns
   * people copy (UUIDs, URLs, codes) leave it unset and are never cut.
   */
  shrink?: boolean;
  /**
   * Terminal table only: this column may wrap onto more lines (at spaces, commas and
   * slashes, else anywhere) to fit the width. Nothing is lost, so it suits names, lists
   * and URLs; rows stay aligned.
   */
  wrap?: boolean;
  /** Terminal table only: the narrowest a shrink/wrap column is made (default 8, or its header). */
  minWidth?: number;
  /**
   * Terminal table only: narrowed before the other shrink/wrap columns (a list that wraps
   * neatly gives way before a URL has to).
   */
  narrowFirst?: boolean;
  /**
   * Terminal table only: a detail hidden when the table cannot fit otherwise (after every
   * shrink/wrap column is at its narrowest), rather than squeezing the others further.
   */
  optional?: boolean;
  /**
   * Terminal only (table and field list): a detail for people that TSV and CSV leave out.
   * The field list shows it only when it has a value.
   */
  terminalOnly?: boolean;
  /** Terminal table only: alignment of the cells (numbers read best on the right). */
  align?: 'left' | 'right';
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
  const machineColumns = opts.columns.filter((c) => !c.terminalOnly);
  switch (opts.format) {
    case 'json':
      return renderJsonArray(io, items);
    case 'ndjson':
      return pump(io, items, (item) => JSON.stringify(item) + '\n');
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
      rows.push(columns.map((c) => cellText((c.display ?? c.value)(item), ', ')));
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

export interface FitColumn {
  /** Width of the header and the widest cell. */
  natural: number;
  /** Narrowest it may be made (only used when reducible). */
  min: number;
  /** Truncated or wrapped to fit (shrink or wrap). */
  reducible: boolean;
  /** Narrowed before the other reducible columns. */
  narrowFirst?: boolean;
  /** May be hidden when nothing else makes the table fit. */
  optional?: boolean;
}

/**
 * The width of each column (null: hidden) for a terminal `available` columns wide. The
 * reducible columns give up width, widest first (narrowFirst ones before the rest), never
 * below their minimum. When that is not enough, optional columns are hidden, rightmost first,
 * and the rest fitted again. When even that is not enough the table is left wider than the
 * terminal rather than cutting an ID.
 */
export function planWidths(cols: readonly FitColumn[], available: number): (number | null)[] {
  const shown = cols.map(() => true);
  for (;;) {
    const idx = cols.map((_, i) => i).filter((i) => shown[i]);
    const widths = cols.map((c) => c.natural);
    let excess = idx.reduce((a, i) => a + widths[i]!, 0) + GAP * (idx.length - 1) - available;
    for (const first of [true, false]) {
      while (excess > 0) {
        let widest = -1;
        for (const i of idx) {
          const c = cols[i]!;
          if (!c.reducible || Boolean(c.narrowFirst) !== first || widths[i]! <= c.min) continue;
          if (widest < 0 || widths[i]! > widths[widest]!) widest = i;
        }
        if (widest < 0) break;
        widths[widest]! -= 1;
        excess -= 1;
      }
    }
    const drop = excess > 0 ? idx.filter((i) => cols[i]!.optional).pop() : undefined;
    if (drop === undefined) return cols.map((_, i) => (shown[i] ? widths[i]! : null));
    shown[drop] = false;
  }
}

/** Where a line may break: after white space, a comma, a slash, ? or &. */
const BREAK_AFTER = /[^\s,/?&]+[\s,/?&]*|[\s,/?&]+/gu;

/**
 * Splits `text` into lines at most `max` wide, breaking after spaces, commas and slashes when
 * it can, else inside a word. Trailing spaces of a line are dropped.
 */
export function wrapText(text: string, max: number): string[] {
  if (width(text) <= max) return [text];
  const lines: string[] = [];
  let line = '';
  const push = () => {
    if (line.trim() !== '') lines.push(line.trimEnd());
    line = '';
  };
  for (const seg of text.match(BREAK_AFTER) ?? [text]) {
    if (width((line + seg).trimEnd()) <= max) {
      line += seg;
      continue;
    }
    push();
    let rest = seg.trimStart();
    while (width(rest.trimEnd()) > max) {
      let cut = '';
      for (const ch of rest) {
        if (width(cut + ch) > max) break;
        cut += ch;
      }
      if (cut === '') cut = [...rest][0] ?? ''; // one character wider than the column
      lines.push(cut);
      rest = rest.slice(cut.length);
    }
    line = rest;
  }
  push();
  return lines.length > 0 ? lines : [''];
}

/** planWidths for columns that are all shown: shrinkable ones narrowed widest first. */
export function fitWidths(
  natural: readonly number[],
  shrinkable: readonly boolean[],
  mins: readonly number[],
  available: number,
): number[] {
  return planWidths(
    natural.map((n, i) => ({ natural: n, min: mins[i]!, reducible: shrinkable[i] === true })),
    available,
  ).map((w, i) => w ?? natural[i]!);
}

async function formatTable<T>(
  io: IO,
  allColumns: readonly Column<T>[],
  allRows: readonly string[][],
): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const allHeaders = allColumns.map((c) => c.header ?? c.key.toUpperCase());
  const planned = planWidths(
    allColumns.map((c, i) => ({
      natural: Math.max(width(allHeaders[i]!), ...allRows.map((r) => width(r[i] ?? ''))),
      min: Math.max(width(allHeaders[i]!), c.minWidth ?? MIN_SHRUNK_WIDTH),
      reducible: c.shrink === true || c.wrap === true,
      narrowFirst: c.narrowFirst,
      optional: c.optional,
    })),
    io.columns,
  );
  const keep = allColumns.map((_, i) => i).filter((i) => planned[i] !== null);
  const columns = keep.map((i) => allColumns[i]!);
  const headers = keep.map((i) => allHeaders[i]!);
  const natural = keep.map((i) =>
    Math.max(width(allHeaders[i]!), ...allRows.map((r) => width(r[i] ?? ''))),
  );
  const widths = keep.map((i) => planned[i]!);
  const rows = allRows.map((r) => keep.map((i) => r[i] ?? ''));

  // Wrapped columns often need less than they were given (a list breaks at its commas): the
  // width they leave is handed back to the columns that were narrowed, wrapped ones first.
  const wrapAll = (i: number) => rows.map((r) => wrapText(r[i]!, widths[i]!));
  const used = (i: number, cells: string[][]) =>
    Math.max(width(headers[i]!), ...cells.map((lines) => Math.max(...lines.map(width))));
  let spare = 0;
  const compacted = new Set<number>();
  columns.forEach((c, i) => {
    if (!c.wrap || widths[i]! >= natural[i]!) return;
    const u = used(i, wrapAll(i));
    if (u >= widths[i]!) return;
    spare += widths[i]! - u;
    widths[i] = u;
    compacted.add(i);
  });
  for (const wrapFirst of [true, false]) {
    columns.forEach((c, i) => {
      if (spare <= 0 || compacted.has(i) || Boolean(c.wrap) !== wrapFirst) return;
      const give = Math.min(spare, natural[i]! - widths[i]!);
      if (give <= 0) return;
      widths[i]! += give;
      spare -= give;
    });
  }
  const cells = rows.map((r) =>
    r.map((text, i) => (columns[i]!.wrap ? wrapText(text, widths[i]!) : [text])),
  );

  const table = new Table({
    head: headers.map((h) => io.color.bold(h)),
    colWidths: widths,
    colAligns: columns.map((c) => c.align ?? 'left'),
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
  for (const r of cells) {
    table.push(
      r.map((lines, i) => {
        const style = columns[i]!.style;
        return lines.map((text) => (style && text ? io.color[style](text) : text)).join('\n');
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
      const fields = opts.columns
        .map((c) => ({ c, v: c.value(item) }))
        .filter(({ c, v }) => !c.terminalOnly || cellText(v, ', ') !== '');
      const headers = fields.map(({ c }) => c.header ?? c.key.toUpperCase());
      const pad = Math.max(...headers.map(width));
      const lines = fields.map(({ c, v }, i) => {
        // A list too long for the line gets one item per line, aligned under the first.
        const oneLine = cellText(v, ', ');
        const items =
          Array.isArray(v) && pad + 2 + width(oneLine) > io.columns
            ? v.map((x) => cellText(x, ', '))
            : [oneLine];
        const styled = items.map((t) => (c.style && t ? io.color[c.style](t) : t));
        return `${io.color.bold(headers[i]!.padEnd(pad))}  ${styled.join('\n' + ' '.repeat(pad + 2))}`.replace(
          / +$/,
          '',
        );
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
