// Retry-After as the retry decision reads it: whole or decimal seconds, or an HTTP date (how
// long from now, never negative); anything else is unreadable (undefined), and the usual
// backoff applies instead of no wait at all.
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/api/retry.js';

const NOW = Date.parse('2025-01-01T00:00:00Z');

describe('Retry-After', () => {
  it.each([
    ['3', 3000],
    ['0', 0],
    ['0.25', 250],
    ['1.5', 1500],
    [' 5 ', 5000],
    ['Wed, 01 Jan 2025 00:00:10 GMT', 10_000],
    ['Wednesday, 01-Jan-25 00:00:10 GMT', 10_000],
    ['Tue, 31 Dec 2024 23:59:00 GMT', 0],
    // asctime, the third form RFC 9110 allows: a day name with no comma.
    ['Wed Jan  1 00:00:10 2025', 10_000],
  ])('%j waits %i ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it.each([
    '',
    'soon',
    'in 5',
    '-1',
    '5x',
    'x5',
    '1.x',
    '1.',
    '5 seconds',
    'Someday',
    'at Wed, 01 Jan 2025 00:00:10 GMT',
    'Mon, someday',
  ])('%j is unreadable', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });

  it('absent is undefined', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
  });
});
