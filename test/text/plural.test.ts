// One home for "1 webhook" / "2 webhooks" (src/text/plural.ts), used by link create, webhooks rm
// and webhooks sync.
import { describe, expect, it } from 'vitest';
import { plural } from '../../src/text/plural.js';

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
