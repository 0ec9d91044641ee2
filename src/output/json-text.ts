// JSON text laid out again without being parsed into values: numbers too large for a double,
// key order and string escapes stay exactly as the server sent them (`sched api` prints
// bodies "as received", only pretty on a terminal and compact in a pipe).
import { PRETTY_MAX_DEPTH } from './json-value.js';

/** Whether the JSON `text` nests arrays and objects deeper than `max`. */
function textDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    } else if (ch === '{' || ch === '[') {
      if (++depth > max) return true;
    } else if (ch === '}' || ch === ']') {
      depth--;
    }
  }
  return false;
}

/** Whether `text` is one JSON value (white space around it allowed). */
export function isJsonText(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * `text` (valid JSON: check with isJsonText first) with its white space replaced: none when
 * `indent` is 0, else one member per line indented by `indent` spaces, like
 * JSON.stringify(value, null, indent). No trailing newline. `mask` is applied to the text inside
 * each string (a secret in its JSON-escaped form is masked there, never across quotes).
 */
export function relayoutJson(
  text: string,
  indent: number,
  mask: (s: string) => string = (s) => s,
): string {
  // Pretty, a body nested thousands deep would be mostly indentation (its size grows with the
  // square of the depth): past PRETTY_MAX_DEPTH it is written compact.
  const pretty = indent > 0 && !textDeeperThan(text, PRETTY_MAX_DEPTH);
  let out = '';
  let depth = 0;
  const newline = () => (pretty ? '\n' + ' '.repeat(indent * depth) : '');
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += '"' + mask(text.slice(i + 1, j)) + '"';
      i = j;
    } else if (ch === '{' || ch === '[') {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j]!)) j++;
      if (text[j] === (ch === '{' ? '}' : ']')) {
        out += ch + text[j];
        i = j;
      } else {
        depth++;
        out += ch + newline();
      }
    } else if (ch === '}' || ch === ']') {
      depth--;
      out += newline() + ch;
    } else if (ch === ',') {
      out += ',' + newline();
    } else if (ch === ':') {
      out += pretty ? ': ' : ':';
    } else if (!/\s/.test(ch)) {
      out += ch;
    }
  }
  return out;
}
