// A throw-away SCHED_CONFIG_DIR for one test file: made before its tests, removed after them.
import { afterAll, beforeAll } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Registers the beforeAll/afterAll; `path` is set once beforeAll has run. */
export function useConfigDir(prefix: string): { readonly path: string } {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return {
    get path() {
      return dir;
    },
  };
}
