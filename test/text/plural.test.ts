// One home for "1 webhook" / "2 webhooks" (src/text/plural.ts), used by link create, webhooks rm
// and webhooks sync.
import { describe, expect, it } from 'vitest';
import { grouped, plural } from '../../src/text/plural.js';

describe('plural', () => {
  it.each([
    [0, 'webhook', undefined, '0 webhooks'],
    [1, 'webhook', undefined, '1 webhook'],
    [2, 'request', undefined, '2 requests'],
    [1, 'link was', 'links were', '1 link was'],
    [3, 'link was', 'links were', '3 links were'],
    [2, 'delivery', 'deliveries', '2 deliveries'],
  ])('%i %s', (n, one, many, want) => {
    expect(plural(n, one, many)).toBe(want);
  });
});

describe('grouped', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [25_000, '25,000'],
    [100_000, '100,000'],
    [1_234_567, '1,234,567'],
  ])('%i', (n, want) => {
    // The same text as toLocaleString('en'), which it replaces (see src/text/plural.ts).
    expect(grouped(n)).toBe(want);
    expect(grouped(n)).toBe(n.toLocaleString('en'));
  });
});
