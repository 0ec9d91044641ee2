#!/usr/bin/env node
// npm run coverage [-- <vitest filters>]: the suite (or the files named) with coverage of src/,
// counting both what the tests run in-process and what runs in the processes they spawn (the
// built binary, which only those tests reach: main.ts, prompt.ts, signal handling ...).
// It is `SCHED_COVERAGE=1 vitest run`: vitest.config.ts turns the collection on, and the test
// global setup writes the merged report (scripts/coverage-report.mjs) to coverage/ and prints
// the per-folder table. On a focused run, a folder's figure counts only the files named.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, SCHED_COVERAGE: '1' } },
);
process.exit(vitest.status ?? 1);
