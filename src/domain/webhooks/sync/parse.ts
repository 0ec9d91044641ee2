// Turns the sync file's text into a plain value. JSON or YAML: by extension (.json, .yaml,
// .yml), else by content (JSON starts with `{` or `[`). Syntax errors carry line and column and
// never quote the file, which may hold a literal secret.
import type { Readable } from 'node:stream';
import type * as YamlNs from 'yaml';
import { readAtMost } from '../../../read-bytes.js';
import { UsageError } from '../../../errors.js';
import { readUserFile, streamSource, untilAborted } from '../../../user-file.js';
import { lineColumn, locateJsonError } from '../../../text/json-error.js';

/**
 * A sync file describes webhooks, a few hundred bytes each: 1 MiB is thousands of them. A bigger
 * input is refused before it is read whole or parsed (a 16 MB file once took 1.5 GB of memory).
 */
export const MAX_SYNC_FILE_BYTES = 1024 * 1024;

function tooLarge(name: string, bytes: number | undefined): string {
  const size = bytes === undefined ? 'more than 1 MiB' : `${bytes} bytes`;
  return `${name}: the file is too large (${size}; a sync file may be at most 1 MiB)`;
}

export type ReadOutcome = { ok: true; name: string; text: string } | { ok: false; problem: string };

/**
 * Reads the sync file (`-` is stdin) without ever holding more than the limit: the size is
 * checked first for a regular file, and every source is read with a cap (a FIFO, /dev/zero,
 * a pipe), through the one user-file reader: a FIFO nobody writes to ends on `signal`.
 */
export async function readSyncInput(
  file: string,
  stdin: Readable,
  signal?: AbortSignal,
): Promise<ReadOutcome> {
  const name = file === '-' ? 'stdin' : file;
  const read = (bytes: Buffer | undefined): ReadOutcome =>
    bytes
      ? { ok: true, name, text: bytes.toString('utf8') }
      : { ok: false, problem: tooLarge(name, undefined) };
  if (file === '-') {
    return read(
      await untilAborted(streamSource(stdin), signal, 'stdin', (s) =>
        readAtMost(s, MAX_SYNC_FILE_BYTES),
      ),
    );
  }
  let r;
  try {
    r = await readUserFile(file, { what: 'sync file', max: MAX_SYNC_FILE_BYTES, signal });
  } catch (e) {
    if (e instanceof UsageError) return { ok: false, problem: e.message };
    throw e;
  }
  return 'tooLarge' in r ? { ok: false, problem: tooLarge(name, r.size) } : read(r.bytes);
}

/**
 * How deep a sync file may nest (its real shape is 4 levels: the file, `webhooks`, an entry, its
 * `events`). The YAML parser recurses once per level: a file of 1 MiB of `[` would exhaust the
 * stack (a crash, or "Maximum call stack size exceeded" reported as a YAML error) — refused first.
 */
export const MAX_SYNC_NESTING = 64;

/**
 * Where the text first nests deeper than MAX_SYNC_NESTING — flow brackets outside quoted
 * strings, or block indentation (spaces and `- ` entries) past 4 columns a level — or undefined.
 */
function nestingPlace(text: string): number | undefined {
  let depth = 0;
  let quote: string | undefined;
  let lineStart = true;
  let indent = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') {
      lineStart = true;
      indent = 0;
      quote = quote === "'" ? undefined : quote;
      continue;
    }
    if (lineStart) {
      if (c === ' ' || c === '-' || c === '\t' || c === '?') {
        indent += 1;
        if (indent > MAX_SYNC_NESTING * 4) return i;
        continue;
      }
      lineStart = false;
    }
    if (quote !== undefined) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === '[' || c === '{') {
      if (++depth > MAX_SYNC_NESTING) return i;
    } else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
  }
  return undefined;
}

export type SyncFileFormat = 'json' | 'yaml';

export type ParseOutcome =
  | { ok: true; value: unknown; format: SyncFileFormat }
  | { ok: false; problem: string; format: SyncFileFormat | undefined };

export function detectFormat(name: string, text: string): SyncFileFormat {
  const lower = name.toLowerCase();
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml';
  return /^\s*[{[]/.test(text) ? 'json' : 'yaml';
}

/** `name` is how the file is named in messages (its path, or "stdin"). */
export async function parseSyncText(name: string, raw: string): Promise<ParseOutcome> {
  const bytes = raw.length > MAX_SYNC_FILE_BYTES / 3 ? Buffer.byteLength(raw) : 0;
  if (bytes > MAX_SYNC_FILE_BYTES) {
    return { ok: false, format: undefined, problem: tooLarge(name, bytes) };
  }
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  if (text.trim() === '') {
    return {
      ok: false,
      format: undefined,
      problem: `${name}: the file is empty; expected {"webhooks": [...]}`,
    };
  }
  const format = detectFormat(name, text);
  const deep = nestingPlace(text);
  if (deep !== undefined) {
    const { line, column } = lineColumn(text, deep);
    return {
      ok: false,
      format,
      problem: `${name}:${line}:${column}: nested more than ${MAX_SYNC_NESTING} levels deep; a sync file is a list of webhooks, a few levels deep`,
    };
  }
  if (format === 'json') {
    try {
      return { ok: true, format, value: JSON.parse(text) as unknown };
    } catch {
      const where = locateJsonError(text);
      return {
        ok: false,
        format,
        problem: where
          ? `${name}:${where.line}:${where.column}: not valid JSON: ${where.message}`
          : `${name}: not valid JSON`,
      };
    }
  }

  const YAML = await loadYaml();
  // prettyErrors would append the offending source line, which may be a literal secret.
  const doc = YAML.parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const { line, column } = lineColumn(text, first.pos[0]);
    const more = doc.errors.length > 1 ? ` (and ${doc.errors.length - 1} more)` : '';
    return {
      ok: false,
      format,
      problem: `${name}:${line}:${column}: not valid YAML: ${firstLine(first.message)}${more}`,
    };
  }
  try {
    return { ok: true, format, value: doc.toJS({ maxAliasCount: 100 }) as unknown };
  } catch (e) {
    // toJS throws (an Error) for alias bombs and unresolved aliases.
    return {
      ok: false,
      format,
      problem: `${name}: not valid YAML: ${firstLine((e as Error).message)}`,
    };
  }
}

type YamlModule = typeof YamlNs;

/**
 * `yaml` is CommonJS: Node's ESM loader exposes its named exports, but in the esbuild bundle a
 * dynamic import yields the module under `default` only. Accept both shapes.
 */
async function loadYaml(): Promise<YamlModule> {
  const mod = (await import('yaml')) as YamlModule & { default?: YamlModule };
  return typeof mod.parseDocument === 'function' ? mod : mod.default!;
}

function firstLine(s: string): string {
  return s.split('\n')[0]!.trim();
}
