// What every value of `sched mcp` becomes before it leaves the process: masked (the API key and
// every secret known), cleaned as the output gate cleans text (escape sequences, controls and
// invisible characters), then — only then — cut to a bound. Masking first means a cut can never
// leave a piece of a secret. Values nested past a depth bound are replaced, never passed on
// uncleaned, so a result is always bounded in depth (a value 20,000 deep from the API would
// otherwise overflow the serialiser) and in the length of each string. No MCP SDK here.
import { mapStrings, type Mask } from '../mask.js';
import { sanitizeCell, sanitizeTerminal } from '../text/sanitize.js';

/** The longest string a result carries (in UTF-16 units); longer ones are cut with a marker. */
export const MAX_STRING = 64 * 1024;
/** The deepest a value of a result nests; a deeper array or object is replaced by DEEP_MARKER. */
export const MAX_DEPTH = 64;
export const DEEP_MARKER = `[cut: nested over ${MAX_DEPTH} levels deep]`;

/**
 * `s` at most `max` units long: cut, with a marker saying how long it was (a cut string is
 * never cut again: the result is within `max`). A surrogate pair is never split.
 */
export function cutText(s: string, max = MAX_STRING): string {
  if (s.length <= max) return s;
  const marker = `… [cut: ${s.length} characters]`;
  let head = s.slice(0, Math.max(0, max - marker.length));
  if (/[\ud800-\udbff]$/.test(head)) head = head.slice(0, -1);
  return head + marker;
}

/** What a string from outside becomes in a result: masked, cleaned as the gate cleans, cut. */
export function cleanText(s: string, mask: Mask): string {
  return cutText(sanitizeTerminal(mask(s), { color: false }));
}

/**
 * Every string of a value (keys and values) cleaned and cut; numbers, booleans and null kept;
 * an array or object deeper than MAX_DEPTH replaced by DEEP_MARKER. The shape and unknown
 * fields are kept above that depth.
 */
export function cleanValue(v: unknown, mask: Mask): unknown {
  const text = (s: string) => cleanText(s, mask);
  return mapStrings(v, { text, keys: true, maxDepth: MAX_DEPTH, deep: DEEP_MARKER });
}

/**
 * A value for one line of a result's text: masked first, then escape sequences, controls and
 * line breaks gone, then cut to `max` (so no piece of a secret survives the cut).
 */
export function cell(v: unknown, mask: Mask, max = 120): string {
  const s = sanitizeCell(mask(v === undefined || v === null ? '' : String(v)));
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/**
 * A string value masked. One that holds JSON (a result's structured content serialised as
 * text) and needs masking is masked inside ITS values too, so its structure stays JSON.
 */
function maskString(s: string, mask: Mask): string {
  const masked = mask(s);
  if (masked === s || !/^[[{]/.test(s)) return masked;
  try {
    return JSON.stringify(maskValues(JSON.parse(s), mask));
  } catch {
    return masked;
  }
}

/**
 * The last net over a frame: every string VALUE of a message masked (object keys, numbers,
 * booleans and null are never touched, so no structural token of the JSON can be masked; nor
 * of JSON held in a string value).
 * Past `maxDepth` a value is replaced by DEEP_MARKER.
 */
export function maskValues(v: unknown, mask: Mask, maxDepth = 4 * MAX_DEPTH): unknown {
  const text = (s: string) => maskString(s, mask);
  return mapStrings(v, { text, keys: false, maxDepth, deep: DEEP_MARKER });
}
