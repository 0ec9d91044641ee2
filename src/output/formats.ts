// The output formats, a leaf: one row per format saying what it is. The renderer
// (render.ts) writes each from its row and its writer; the context (the global --output), the
// command definitions (which formats a command prints) and the completion read the names.
// A new format is one row here and one writer in render.ts.

export interface FormatRow {
  /** For people: the command's own words and colour, hints, --quiet lines. */
  human: boolean;
  /** Prints the data itself (the records as JSON values), not the command's columns. */
  data: boolean;
  /** Writes each record as it arrives; otherwise the output is one document (an array). */
  streams: boolean;
  /** Needs the command's columns (a header, cells). */
  columns: boolean;
}

export const FORMAT_ROWS = {
  table: { human: true, data: false, streams: true, columns: true },
  json: { human: false, data: true, streams: false, columns: false },
  ndjson: { human: false, data: true, streams: true, columns: false },
  csv: { human: false, data: false, streams: true, columns: true },
} as const satisfies Record<string, FormatRow>;

export type OutputFormat = keyof typeof FORMAT_ROWS;
export const OUTPUT_FORMATS = Object.keys(FORMAT_ROWS) as readonly OutputFormat[];

const formatsWhere = (test: (row: FormatRow) => boolean): readonly OutputFormat[] =>
  OUTPUT_FORMATS.filter((f) => test(FORMAT_ROWS[f]));

/** What a command that prints text for people (not records) can print: its text, or JSON. */
export const TEXT_OR_JSON = formatsWhere((r) => r.human || (r.data && !r.streams));
/** Records without columns: the command's own table, or the data itself. */
export const NO_CSV = formatsWhere((r) => r.human || r.data);
/** Text for people only (a completion script, a server's log). */
export const TEXT_ONLY = formatsWhere((r) => r.human);

/** What a run prints when no format is asked for. */
export const DEFAULT_FORMAT: OutputFormat = 'table';

/** The format flags as given: `--json`, `-o <format>`. */
export interface AskedFormat {
  json?: boolean;
  output?: OutputFormat;
}

/** The format asked for: `--json` is `-o json`; undefined when neither was given. */
export function askedFormat(asked: AskedFormat): OutputFormat | undefined {
  return asked.json ? 'json' : asked.output;
}

/** `--json` beside an `-o` naming another format: two formats asked for. */
export function twoFormatsAsked(asked: AskedFormat): boolean {
  return (
    Boolean(asked.json) &&
    asked.output !== undefined &&
    asked.output !== askedFormat({ json: true })
  );
}
