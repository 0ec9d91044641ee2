// A count and its noun: "1 webhook", "3 webhooks", "1 link was", "2 links were". A leaf
// module: no imports, usable from every layer.

/** `n` and the noun it counts, singular for exactly 1; `many` defaults to `one` + "s". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
