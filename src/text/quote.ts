// How text someone typed (or a server sent) is quoted inside a message, everywhere: in double
// quotes with JSON escapes, cut to a readable length. Hostile text is shown, never obeyed: an
// ESC sequence, a line break, a bidi override or a C1 control appears as `\u001b`, `\n`, … so
// it can neither restyle the terminal nor split the message over several lines.
// A leaf module: no imports, usable from every layer.

/** What JSON.stringify leaves as it is but a terminal would act on: DEL, C1, bidi, line separators. */
const INVISIBLE = /[\u007f-\u009f\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/;

function escapeChar(ch: string): string {
  if (INVISIBLE.test(ch)) return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return JSON.stringify(ch).slice(1, -1);
}

/**
 * `text` as `"…"` for a message: JSON-escaped (control characters as `\n`, `\u001b`, …), at most
 * `max` characters between the quotes, then `…`. Never cuts an escape or a surrogate pair.
 */
export function quote(text: string, max = 80): string {
  let out = '';
  for (const ch of text) {
    const piece = escapeChar(ch);
    if (out.length + piece.length > max) return `"${out}…"`;
    out += piece;
  }
  return `"${out}"`;
}

/** A URL for a message: as quote(), with any user name and password replaced by `***`. */
export function quoteUrl(raw: string, max = 80): string {
  return quote(raw.replace(/\/\/[^/@]*@/, '//***@'), max);
}

/** `s` as one single-quoted POSIX shell word (sh, bash, zsh): every character taken literally. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `s` in a command line shown to the user: as it is when it needs no quotes, else shellQuote(s). */
export function shellWord(s: string): string {
  return /^[\w./@:+-]+$/.test(s) ? s : shellQuote(s);
}

/**
 * A command line for the user to paste, as a template tag: each interpolated value becomes one
 * literal shell word (shellWord), whatever it holds — a uuid a sender chose, a URL an API
 * returned, a file name — while the template's own text (`<url>` placeholders, flags) stays as
 * written. Every command `sched` suggests is built with it:
 * shellCommand`sched webhooks rm ${uuid}`.
 */
export function shellCommand(
  parts: TemplateStringsArray,
  ...values: ReadonlyArray<string | number>
): string {
  return shellLine(parts, values);
}

/** What shellCommand builds, for another template tag of the same kind (hints.ts). */
export function shellLine(
  parts: TemplateStringsArray,
  values: ReadonlyArray<string | number>,
): string {
  let out = parts[0]!;
  values.forEach((v, i) => {
    out += shellWord(String(v)) + parts[i + 1]!;
  });
  return out;
}
