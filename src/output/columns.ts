// What a command declares of its columns, and how a cell becomes text: shared by the
// renderer (render.ts) and the terminal table (terminal-table.ts), which is loaded only when a
// table or a field list is drawn on a terminal.
import { sanitizeCell } from '../text/sanitize.js';

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

/** Formats a cell for table/TSV: arrays joined, null and undefined empty, then sanitized. */
export function cellText(v: CellValue, arraySep: string): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return sanitizeCell(v.map(String).join(arraySep));
  return sanitizeCell(String(v));
}

/**
 * The most characters of one value a terminal shows, so that a hostile or absurd value (a
 * 100,000-character name) costs no more to lay out than a long one. Text that may wrap or be
 * cut is capped at MAX_TEXT_CELL; values kept whole (UUIDs, URLs, codes) at MAX_WHOLE_CELL,
 * the longest webhook URL the tool accepts. A capped value ends in …; JSON, NDJSON, CSV and
 * TSV always carry the full value.
 */
export const MAX_TEXT_CELL = 256;
export const MAX_WHOLE_CELL = 2048;
