// The terminal table and field list: what `table` output is on a terminal. Loaded (with the
// table library, cli-table3, and the string-width it measures with) only when one is drawn,
// so piped output, JSON and CSV never load it.
//
// One measure for the whole layout: string-width, the one cli-table3 pads and cuts with, so the
// planner's widths and the drawn table agree. It counts an emoji sequence (a ZWJ family, a
// skin tone, a flag, a keycap, an emoji with VS16) as the two columns a terminal gives it, and
// East Asian wide characters as two; it counts a combining mark outside U+0300–U+036F (Thai
// vowel signs, Hebrew points) as one column, where a terminal gives it none.
import Table from 'cli-table3';
import stringWidth from 'string-width';
import type { IO } from '../io.js';
import { cellText, MAX_TEXT_CELL, MAX_WHOLE_CELL, type CellValue, type Column } from './columns.js';

const GAP = 2;
const MIN_SHRUNK_WIDTH = 8;

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

/** The columns a string takes on a terminal (cells are sanitized: no escape sequences). */
const width = (s: string): number => stringWidth(s);

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

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

/**
 * The longest start of `text` at most `max` wide (at least one character), cut between
 * graphemes: an emoji sequence or a letter with its marks is never split.
 */
function cutAt(text: string, max: number): string {
  let cut = '';
  let w = 0;
  for (const { segment } of graphemes.segment(text)) {
    const cw = width(segment);
    if (w + cw > max && cut !== '') break;
    cut += segment;
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
export function formatTable<T>(
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

  // The cells as lines (wrapped or cut), drawn by cli-table3: each column as wide as its widest
  // line, padded on the side its alignment says, two spaces apart, no borders.
  const paint = (text: string, i: number) => {
    const s = columns[i]!.style;
    return s && text ? io.color[s](text) : text;
  };
  const cellLines = rows.map((r) =>
    r.map((text, i) =>
      fit[i] === 'wrap'
        ? wrapText(text, widths[i]!)
        : fit[i] === 'shrink'
          ? [truncate(text, widths[i]!)]
          : [text],
    ),
  );
  // Each column as wide as its widest line (often less than planned, once wrapped).
  const shown = columns.map((_, i) =>
    maxOf(
      cellLines.map((cells) => maxOf(cells[i]!.map(width))),
      width(headers[i]!),
    ),
  );
  const table = new Table({
    head: headers.map((h) => (h ? io.color.bold(h) : h)),
    colWidths: shown,
    colAligns: columns.map((c) => c.align ?? 'left'),
    chars: NO_BORDERS,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
  });
  // One table row per item, a wrapped cell as lines (each painted on its own).
  for (const r of cellLines) {
    table.push(r.map((lines, i) => lines.map((l) => paint(l, i)).join('\n')));
  }
  return table.toString().replace(/ +$/gm, '') + '\n';
}

/** No borders, no rules: columns two spaces apart, as `gh` and `kubectl` print them. */
const NO_BORDERS = {
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
};

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

/** One object as `NAME  value` lines (a created webhook, one link), on a terminal. */
export function formatFields<T>(
  io: IO,
  columns: readonly Column<T>[],
  values: readonly CellValue[],
): string {
  return fieldLines(io, fieldsOf(columns, values)).lines.join('\n') + '\n';
}
