// A count and its noun: "1 webhook", "3 webhooks", "1 link was", "2 links were". A leaf
// module: no imports, usable from every layer.

/** `n` and the noun it counts, singular for exactly 1; `many` defaults to `one` + "s". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * A whole number with thousands separators, as in English ("1,000", "100,000"). Not
 * toLocaleString: its first call loads ICU's locale data (~15-45 ms), paid at start-up by every
 * command whose help text holds a number.
 */
export function grouped(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+$)/g, ',');
}
