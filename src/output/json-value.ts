// JSON text of a value, at any depth. A server (or a webhook sender) may send valid JSON nested
// tens of thousands deep: JSON.parse reads it, but JSON.stringify recurses and overflows the
// stack, and pretty-printing it takes space growing with the square of its depth. Every JSON
// value we print goes through jsonText, which writes such a value compact and iteratively.

/** Past this nesting, pretty JSON is written compact (its indentation alone would be huge). */
export const PRETTY_MAX_DEPTH = 100;

/** Whether `value` is nested deeper than `max` (iterative, stops as soon as it knows). */
function deeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return false;
}

const skipped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/** JSON.stringify(value) without recursion: an explicit stack of open arrays and objects. */
function stringifyIteratively(root: unknown): string {
  type Frame = { items: unknown[]; keys: string[] | null; i: number; first: boolean };
  const parts: string[] = [];
  const stack: Frame[] = [];
  const open = (raw: unknown) => {
    const v =
      raw !== null &&
      typeof raw === 'object' &&
      typeof (raw as { toJSON?: unknown }).toJSON === 'function'
        ? (raw as { toJSON(): unknown }).toJSON()
        : raw;
    if (Array.isArray(v)) {
      parts.push('[');
      stack.push({ items: v, keys: null, i: 0, first: true });
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v).filter((k) => !skipped((v as Record<string, unknown>)[k]));
      parts.push('{');
      stack.push({
        items: keys.map((k) => (v as Record<string, unknown>)[k]),
        keys,
        i: 0,
        first: true,
      });
    } else {
      parts.push(skipped(v) ? 'null' : JSON.stringify(v));
    }
  };
  open(root);
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.i >= f.items.length) {
      parts.push(f.keys ? '}' : ']');
      stack.pop();
      continue;
    }
    if (!f.first) parts.push(',');
    f.first = false;
    if (f.keys) parts.push(JSON.stringify(f.keys[f.i]) + ':');
    open(f.items[f.i++]);
  }
  return parts.join('');
}

/**
 * JSON.stringify(value, null, indent), for a value of any depth: one nested deeper than
 * PRETTY_MAX_DEPTH is written compact, and one too deep for JSON.stringify is written without
 * recursion. The text is the same JSON either way.
 */
export function jsonText(value: unknown, indent = 0): string {
  if (indent > 0 && !deeperThan(value, PRETTY_MAX_DEPTH)) {
    return JSON.stringify(value, null, indent);
  }
  try {
    return JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return stringifyIteratively(value);
  }
}
