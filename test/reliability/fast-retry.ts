// Keeps the client's retry backoff short in the reliability suite, with no production knob:
// createApiClient() copies the exported RETRY policy each time it builds a client, so a test
// file narrows that policy's backoff (5–20 ms instead of 250 ms–4 s) for the clients its
// in-process commands build (ctx.api(), ctx.apiFor(), completion's own). Everything else —
// retry counts, what is retried, Retry-After and its cap, timeouts — stays the production
// policy, which is what the suite tests. Spawned binaries keep the real backoff.
//
// Why not vi.mock: vitest 4 hands the real module to a dynamic import() that overlaps another
// one of a factory-mocked module from the same importer (vitest-dev/vitest#7040). The matrix
// runs cases concurrently and every command imports the client dynamically, so some cases
// silently got the real client.
import { afterAll, beforeAll } from 'vitest';
import { RETRY } from '../../src/api/client.js';

export const FAST_BACKOFF = { baseDelayMs: 5, maxDelayMs: 20 } as const;

/** Short backoff for the whole test file. */
export function useFastRetries(): void {
  const saved = { ...RETRY };
  beforeAll(() => {
    Object.assign(RETRY, FAST_BACKOFF);
  });
  afterAll(() => {
    Object.assign(RETRY, saved);
  });
}
