// JSON.parse tells neither line nor column on Node 20, and some of its messages quote the whole
// input, which may hold a literal secret. This scanner runs only after JSON.parse has failed: it
// finds the first offending character and describes it without echoing the file. Every reader
// of a JSON file (sync files, the config file, the sandbox state file) reports through here.

export interface JsonSyntaxProblem {
  line: number;
  column: number;
  message: string;
}

class Stop {
  constructor(
    readonly pos: number,
    readonly message: string,
  ) {}
}

const WS = new Set([' ', '\t', '\n', '\r']);

function describeChar(c: string): string {
  const code = c.codePointAt(0)!; // c is one character
  if (code < 0x20 || code === 0x7f)
    return `control character U+${code.toString(16).padStart(4, '0')}`;
  return `'${c}'`;
}

export function locateJsonError(text: string): JsonSyntaxProblem | undefined {
  let i = 0;
  const n = text.length;

  const ws = () => {
    while (i < n && WS.has(text[i]!)) i++;
  };
  const eof = (what: string) => new Stop(n, `unexpected end of file ${what}`);
  const unexpected = (expected: string): Stop => {
    if (i >= n) return eof(`(${expected})`);
    const c = text[i]!;
    if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      return new Stop(i, 'comments are not allowed in JSON (YAML allows them)');
    }
    return new Stop(i, `unexpected ${describeChar(c)}: ${expected}`);
  };

  const value = (): void => {
    ws();
    if (i >= n) throw eof('(expected a value)');
    const c = text[i]!;
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    for (const lit of ['true', 'false', 'null']) {
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return;
      }
    }
    if (c === "'") throw new Stop(i, 'strings must be in double quotes');
    throw unexpected('expected a value');
  };

  /** An object or an array: `member` after the opening and after each comma, up to `close`. */
  const container = (close: '}' | ']', member: () => void, after: string): void => {
    i++; // { or [
    ws();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] === close) throw new Stop(i, 'trailing commas are not allowed in JSON');
      member();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === close) {
        i++;
        return;
      }
      throw unexpected(`expected ',' or '${close}' after ${after}`);
    }
  };

  const property = (): void => {
    if (text[i] !== '"') {
      if (text[i] === "'") throw new Stop(i, 'property names must be in double quotes');
      throw unexpected('expected a property name in double quotes');
    }
    string();
    ws();
    if (text[i] !== ':') throw unexpected("expected ':' after the property name");
    i++;
    value();
  };
  const object = () => container('}', property, 'the property value');
  const array = () => container(']', value, 'the array element');

  const string = (): void => {
    const start = i;
    i++; // "
    while (i < n) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === undefined) break;
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            throw new Stop(i, 'invalid \\u escape in a string (needs 4 hex digits)');
          }
          i += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(e)) throw new Stop(i, 'invalid escape sequence in a string');
        i += 2;
        continue;
      }
      if (c.charCodeAt(0) < 0x20) {
        throw new Stop(i, 'line break or control character inside a string (escape it)');
      }
      i++;
    }
    throw new Stop(start, 'unterminated string');
  };

  const number = (): void => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) throw new Stop(i, 'invalid number');
    i += m[0].length;
  };

  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    value();
    ws();
    if (i < n) throw unexpected('expected the end of the file after the JSON value');
    return undefined;
  } catch (e) {
    // Nesting deeper than the stack (JSON.parse takes it, this scanner recurses): no place.
    if (!(e instanceof Stop)) return undefined;
    return { ...lineColumn(text, e.pos), message: e.message };
  }
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, pos: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < pos && k < text.length; k++) {
    if (text[k] === '\n') {
      line++;
      lineStart = k + 1;
    }
  }
  return { line, column: pos - lineStart + 1 };
}

/**
 * Why `text` (which JSON.parse refused) is not JSON, as " (line L, column C: what)" to append
 * to a message, or '' when the scanner finds nothing wrong. Never quotes the text.
 */
export function jsonErrorPlace(text: string): string {
  const where = locateJsonError(text);
  return where ? ` (line ${where.line}, column ${where.column}: ${where.message})` : '';
}
