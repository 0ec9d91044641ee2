import { defineConfig } from 'vitest/config';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

// SCHED_COVERAGE=1 (`npm run coverage`, and CI's one Node 20 `npm test`): branch, statement,
// function and line coverage of src/, counting what the tests run in-process (vitest's V8
// coverage) and what the processes they spawn run (the built binary, built with source maps;
// each child writes raw V8 coverage where test/helpers/child-coverage.ts points it). The test
// global setup merges both into coverage/ (scripts/coverage-report.mjs) and, when the whole
// suite ran, fails the run below this share of branches covered (measured: see README).
const coverage = process.env.SCHED_COVERAGE === '1';
const coverageMinBranches = 95;
if (coverage) {
  // Read by scripts/build.mjs (the global setup's build) and by the test workers.
  process.env.SCHED_BUILD_SOURCEMAP = '1';
  process.env.SCHED_CHILD_COVERAGE = fileURLToPath(
    new URL('./coverage/.v8-children', import.meta.url),
  );
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Under SCHED_COVERAGE=1: the least share of branches (%) a whole-suite run must cover. */
    coverageMinBranches: number;
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    ...(coverage && {
      setupFiles: ['test/helpers/child-coverage.ts'],
      provide: { coverageMinBranches },
      coverage: {
        enabled: true,
        provider: 'v8' as const,
        include: ['src/**/*.ts'],
        reporter: ['json' as const],
        reportsDirectory: 'coverage/in-process',
        // The summary is the global setup's, once both are merged.
        reportOnFailure: true,
      },
    }),
  },
  define: {
    SCHED_VERSION: JSON.stringify(pkg.version),
  },
});
