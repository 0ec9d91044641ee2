// Turns the sync file's text into a plain value. JSON or YAML: by extension (.json, .yaml,
// .yml), else by content (JSON starts with `{` or `[`). Syntax errors carry line and column and
// never quote the file, which may hold a literal secret.
import type * as YamlNs from 'yaml';
import { lineColumn, locateJsonError } from '../../text/json-error.js';

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
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  if (text.trim() === '') {
    return {
      ok: false,
      format: undefined,
      problem: `${name}: the file is empty; expected {"webhooks": [...]}`,
    };
  }
  const format = detectFormat(name, text);
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
    // toJS throws for alias bombs and unresolved aliases.
    return {
      ok: false,
      format,
      problem: `${name}: not valid YAML: ${firstLine(e instanceof Error ? e.message : String(e))}`,
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
