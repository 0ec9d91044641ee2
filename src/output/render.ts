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
import type { IO } from '../io.js';
import type { OutputFormat } from './formats.js';
import { csvRecord, type CsvCell } from './csv.js';
import { isJsonText, relayoutJson } from './json-text.js';
import { sanitizeCell, sanitizeCsvField } from '../text/sanitize.js';

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
   * people copy (UUIDs, URLs, codes) leave it unset and are never cut; a cell holding a URL
   * or UUID is never cut either.
   */
  shrink?: boolean;
  /**
   * Terminal table only: this column may wrap onto more lines (at spaces, commas and
   * slashes, else anywhere) to fit the width. Nothing is lost, so it suits names and lists;
   * a URL or UUID inside is never broken (the column is kept at least that wide). Rows stay
   * aligned.
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
    if (rows.length > 0) await io.out(formatTable(io, columns, rows));
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

const GAP = 2;
const MIN_SHRUNK_WIDTH = 8;

/**
 * The most characters of one value a terminal shows, so that a hostile or absurd value (a
 * 100,000-character name) costs no more to lay out than a long one. Text that may wrap or be
 * cut is capped at MAX_TEXT_CELL; values kept whole (UUIDs, URLs, codes) at MAX_WHOLE_CELL,
 * the longest webhook URL the tool accepts. A capped value ends in …; JSON, NDJSON, CSV and
 * TSV always carry the full value.
 */
export const MAX_TEXT_CELL = 256;
export const MAX_WHOLE_CELL = 2048;

/** How a column gives way to the width: never (kept whole), by wrapping, or cut with …. */
type Fit = 'whole' | 'wrap' | 'shrink';

function fitOf(c: Column<unknown>): Fit {
  return c.wrap ? 'wrap' : c.shrink ? 'shrink' : 'whole';
}

/** At most `max` characters: the first max - 1 and an ellipsis. */
function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  // At most 2 code units a character: the first 2 * max units hold the first max characters.
  const chars = Array.from(text.slice(0, 2 * max));
  if (chars.length <= max && text.length <= 2 * max) return text;
  return chars.slice(0, max - 1).join('') + '…';
}

/** A cell as a terminal shows it: sanitized, arrays joined with ", ", capped. */
function terminalText(v: CellValue, fit: Fit): string {
  return capText(cellText(v, ', '), fit === 'whole' ? MAX_WHOLE_CELL : MAX_TEXT_CELL);
}

// Combining marks and format characters take no column; East Asian wide/fullwidth and most
// emoji take two.
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;
const WIDE =
  /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u;

function charWidth(ch: string): number {
  if (ch < '\u0300') return 1;
  if (ZERO_WIDTH.test(ch)) return 0;
  return WIDE.test(ch) ? 2 : 1;
}

/** The columns a string takes on a terminal (it holds no escape sequences: cells are sanitized). */
function width(s: string): number {
  let w = 0;
  for (const ch of s) w += charWidth(ch);
  return w;
}

function maxOf(values: Iterable<number>, start = 0): number {
  let m = start;
  for (const v of values) if (v > m) m = v;
  return m;
}

/**
 * What people copy and a line break would spoil: a URL (scheme://…, up to white space) or a
 * UUID. wrapText never breaks inside one and a shrink column never cuts one, whatever the
 * column's flags say.
 */
const UNBREAKABLE =
  /[a-z][a-z0-9+.-]*:\/\/\S+|(?<![0-9a-f])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-f])/giu;

/** The widest URL or UUID in `text`, 0 when there is none. */
function widestUnbreakable(text: string): number {
  let w = 0;
  for (const m of text.matchAll(UNBREAKABLE)) w = Math.max(w, width(m[0]));
  return w;
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
 * and the rest fitted again. When even that is not enough the widths are still wider than
 * `available` (nothing is ever cut below its minimum): the caller then prints records.
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

/** The pieces a line may break between; a URL or UUID is one piece. */
function segments(text: string): Array<{ seg: string; whole: boolean }> {
  const out: Array<{ seg: string; whole: boolean }> = [];
  const words = (s: string) => {
    for (const seg of s.match(BREAK_AFTER) ?? []) out.push({ seg, whole: false });
  };
  let at = 0;
  for (const m of text.matchAll(UNBREAKABLE)) {
    words(text.slice(at, m.index));
    out.push({ seg: m[0], whole: true });
    at = m.index + m[0].length;
  }
  words(text.slice(at));
  return out;
}

/** The longest start of `text` at most `max` wide (at least one character). */
function cutAt(text: string, max: number): string {
  let cut = '';
  let w = 0;
  for (const ch of text) {
    const cw = charWidth(ch);
    if (w + cw > max && cut !== '') break;
    cut += ch;
    w += cw;
  }
  return cut;
}

/**
 * Splits `text` into lines at most `max` wide, breaking after spaces, commas and slashes when
 * it can, else inside a word — but never inside a URL or a UUID, which gets a line of its own
 * (wider than `max` if it must). Trailing spaces of a line are dropped.
 */
export function wrapText(text: string, max: number): string[] {
  if (width(text) <= max) return [text];
  const lines: string[] = [];
  let line = '';
  const push = () => {
    if (line.trim() !== '') lines.push(line.trimEnd());
    line = '';
  };
  for (const { seg, whole } of segments(text)) {
    if (width((line + seg).trimEnd()) <= max) {
      line += seg;
      continue;
    }
    push();
    let rest = seg.trimStart();
    if (!whole) {
      while (width(rest.trimEnd()) > max) {
        const cut = cutAt(rest, max);
        lines.push(cut);
        rest = rest.slice(cut.length);
      }
    }
    line = rest;
  }
  push();
  return lines.length > 0 ? lines : [''];
}

/** `text` cut to at most `max` columns, ending in … when it was cut. */
function truncate(text: string, max: number): string {
  return width(text) <= max ? text : cutAt(text, Math.max(0, max - 1)) + '…';
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
    // No column is optional, so none is hidden (null).
  ) as number[];
}

function headerOf(c: Column<unknown>): string {
  return c.header ?? c.key.toUpperCase();
}

function padEnd(text: string, w: number): string {
  return text + ' '.repeat(Math.max(0, w - width(text)));
}

/**
 * A terminal table: a header row and aligned columns, two spaces apart, no borders. Columns
 * give way to the width as their flags allow (planWidths); a URL or UUID is never broken or
 * cut. When the table cannot fit even so, the rows are printed as records instead.
 */
function formatTable<T>(
  io: IO,
  allColumns: readonly Column<T>[],
  values: readonly CellValue[][],
): string {
  const fits = allColumns.map((c) => fitOf(c as Column<unknown>));
  const allHeaders = allColumns.map((c) => headerOf(c as Column<unknown>));
  const allRows = values.map((r) => r.map((v, i) => terminalText(v, fits[i]!)));
  const allNatural = allColumns.map((_, i) =>
    maxOf(
      allRows.map((r) => width(r[i]!)),
      width(allHeaders[i]!),
    ),
  );
  const planned = planWidths(
    allColumns.map((c, i) => {
      // A wrapped column is no narrower than its widest URL or UUID; a cut one keeps every
      // cell holding one whole.
      const unbreakable = maxOf(
        allRows.map((r) => {
          const text = r[i]!;
          if (fits[i] === 'wrap') return widestUnbreakable(text);
          return fits[i] === 'shrink' && widestUnbreakable(text) > 0 ? width(text) : 0;
        }),
      );
      return {
        natural: allNatural[i]!,
        min: Math.max(width(allHeaders[i]!), c.minWidth ?? MIN_SHRUNK_WIDTH, unbreakable),
        reducible: fits[i] !== 'whole',
        narrowFirst: c.narrowFirst,
        optional: c.optional,
      };
    }),
    io.columns,
  );
  const keep = allColumns.map((_, i) => i).filter((i) => planned[i] !== null);
  const total = keep.reduce((a, i) => a + planned[i]!, 0) + GAP * (keep.length - 1);
  if (total > io.columns) return formatRecords(io, allColumns, values);

  const columns = keep.map((i) => allColumns[i]!);
  const headers = keep.map((i) => allHeaders[i]!);
  const natural = keep.map((i) => allNatural[i]!);
  const widths = keep.map((i) => planned[i]!);
  const rows = allRows.map((r) => keep.map((i) => r[i]!));
  const fit = keep.map((i) => fits[i]!);

  // Wrapped columns often need less than they were given (a list breaks at its commas): the
  // width they leave is handed back to the columns that were narrowed, wrapped ones first.
  let spare = 0;
  const compacted = new Set<number>();
  fit.forEach((f, i) => {
    if (f !== 'wrap' || widths[i]! >= natural[i]!) return;
    const used = maxOf(
      rows.map((r) => maxOf(wrapText(r[i]!, widths[i]!).map(width))),
      width(headers[i]!),
    );
    if (used >= widths[i]!) return;
    spare += widths[i]! - used;
    widths[i] = used;
    compacted.add(i);
  });
  for (const wrapFirst of [true, false]) {
    fit.forEach((f, i) => {
      if (spare <= 0 || compacted.has(i) || (f === 'wrap') !== wrapFirst) return;
      const give = Math.min(spare, natural[i]! - widths[i]!);
      if (give <= 0) return;
      widths[i]! += give;
      spare -= give;
    });
  }

  // One screen line per row of wrapped/cut cells; each column as wide as its widest line
  // (often less than planned, once wrapped), padded on the side its alignment says, two
  // spaces apart. Widths come from width() above, the one rule for the whole table.
  const paint = (text: string, i: number) => {
    const s = columns[i]!.style;
    return s && text ? io.color[s](text) : text;
  };
  const lines: string[][] = [];
  for (const r of rows) {
    const cells = r.map((text, i) =>
      fit[i] === 'wrap'
        ? wrapText(text, widths[i]!)
        : fit[i] === 'shrink'
          ? [truncate(text, widths[i]!)]
          : [text],
    );
    const height = maxOf(cells.map((c) => c.length));
    for (let l = 0; l < height; l++) lines.push(cells.map((c) => c[l] ?? ''));
  }
  const shown = columns.map((_, i) =>
    maxOf(
      lines.map((line) => width(line[i]!)),
      width(headers[i]!),
    ),
  );
  const join = (cells: readonly string[], style: (text: string, i: number) => string) =>
    cells
      .map((text, i) => {
        const pad = ' '.repeat(Math.max(0, shown[i]! - width(text)));
        return columns[i]!.align === 'right' ? pad + style(text, i) : style(text, i) + pad;
      })
      .join(' '.repeat(GAP))
      .replace(/ +$/, '');
  return (
    [join(headers, (h) => (h ? io.color.bold(h) : h)), ...lines.map((l) => join(l, paint))].join(
      '\n',
    ) + '\n'
  );
}

interface Field {
  column: Column<unknown>;
  value: CellValue;
}

/** The fields of one item as a field list shows them: terminal-only ones only when set. */
function fieldsOf<T>(columns: readonly Column<T>[], values: readonly CellValue[]): Field[] {
  return columns
    .map((c, i) => ({ column: c as Column<unknown>, value: values[i] }))
    .filter(({ column, value }) => !column.terminalOnly || cellText(value, ', ') !== '');
}

/**
 * One item as `NAME  value` lines, the names aligned. A value that does not fit beside its
 * name: a list goes one item per line, text that may wrap wraps under itself, and a value
 * kept whole (a URL, a UUID) goes on its own line below the name, so it is never broken.
 * Returns the lines and the width of the widest.
 */
function fieldLines(io: IO, fields: readonly Field[]): { lines: string[]; widest: number } {
  const cols = io.columns;
  const names = fields.map(({ column }) => headerOf(column));
  const nameWidth = maxOf(names.map(width));
  const indent = nameWidth + GAP;
  const lines: string[] = [];
  let widest = 0;
  const add = (plain: string, styled: string) => {
    widest = Math.max(widest, width(plain));
    lines.push(styled.replace(/ +$/, ''));
  };
  fields.forEach(({ column, value }, f) => {
    const fit = fitOf(column);
    const paint = (t: string) => (column.style && t ? io.color[column.style](t) : t);
    const name = padEnd(names[f]!, nameWidth);
    const label = io.color.bold(name) + ' '.repeat(GAP);
    const text = terminalText(value, fit);
    const beside = (parts: readonly string[]) =>
      parts.forEach((t, n) =>
        add(name + '  ' + t, (n === 0 ? label : ' '.repeat(indent)) + paint(t)),
      );
    const room = cols - indent;
    const wrapped = fit === 'whole' || room < MIN_SHRUNK_WIDTH * 2 ? [] : wrapText(text, room);
    if (indent + width(text) <= cols || text === '') {
      beside([text]);
    } else if (Array.isArray(value) && value.length > 1) {
      beside(value.map((x) => terminalText(x, fit)));
    } else if (wrapped.length > 0 && wrapped.every((l) => width(l) <= room)) {
      beside(wrapped);
    } else {
      // Below the name, with the whole width: a URL or UUID wider than the space beside the
      // names is never broken (wider than the terminal, it is left to the terminal to fold).
      add(name, io.color.bold(name));
      for (const l of fit === 'whole' ? [text] : wrapText(text, cols - GAP)) {
        const under = GAP + width(l) <= cols ? ' '.repeat(GAP) : '';
        add(under + l, under + paint(l));
      }
    }
  });
  return { lines, widest: Math.min(widest, cols) };
}

/**
 * The rows of a table too wide for the terminal, as records (like psql's \x): a
 * `-[ RECORD n ]---` rule, then one `NAME  value` line per column, every column shown.
 */
function formatRecords<T>(
  io: IO,
  columns: readonly Column<T>[],
  values: readonly CellValue[][],
): string {
  const records = values.map((r) => fieldLines(io, fieldsOf(columns, r)));
  const widest = maxOf(records.map((r) => r.widest));
  let out = '';
  records.forEach((r, n) => {
    const title = `-[ RECORD ${n + 1} ]`;
    out += io.color.dim(title + '-'.repeat(Math.max(1, widest - title.length))) + '\n';
    out += r.lines.join('\n') + '\n';
  });
  return out;
}

/**
 * Writes one object (a created webhook, one link). json: the object itself, pretty on a
 * terminal; ndjson: one line; csv: header and one record; table: field/value lines on a
 * terminal, one tab-separated row otherwise.
 */
export async function renderObject<T>(io: IO, item: T, opts: RenderOptions<T>): Promise<void> {
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
      await io.out(fieldLines(io, fieldsOf(opts.columns, values)).lines.join('\n') + '\n');
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
  await io.out(isJsonText(text) ? relayoutJson(text, io.stdoutIsTTY ? 2 : 0) + '\n' : text);
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
  await io.out(JSON.stringify(value) + '\n');
}

/**
 * Text a command composed whole, written as it is: human lines in its own words (colours from
 * io; anything from outside in them already passed sanitizeCell) or a generated document (a
 * completion script). io.out's gate still applies.
 */
export async function renderText(io: IO, text: string): Promise<void> {
  await io.out(text);
}
