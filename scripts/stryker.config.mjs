// The main group of `npm run mutation` (scripts/mutation.mjs runs each group in turn; the
// exchange has its own, scripts/stryker.exchange.config.mjs, which starts from this one).
// Stryker mutates the modules where a silent bug costs users most and runs, against each
// mutant, only the tests that cover it (per-test coverage) among the in-process tests in
// scripts/vitest.mutation.config.mjs. The TypeScript checker drops mutants that do not
// compile. Incremental: reports/stryker-incremental.json keeps the last results, so a re-run
// only tests the mutants whose code or tests changed (`npm run mutation -- --force` redoes all).
// The HTML and JSON reports go to reports/ (git-ignored); the per-module scores are in docs/quality.md.
// One module: `npm run mutation -- --mutate src/api/retry.ts`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'scripts/vitest.mutation.config.mjs', related: true },
  checkers: ['typescript'],
  // The checker type-checks src/ only: a mutant never changes a test.
  tsconfigFile: 'scripts/tsconfig.mutation.json',
  coverageAnalysis: 'perTest',
  mutate: [
    'src/api/retry.ts',
    'src/errors.ts',
    'src/api/wording.ts',
    'src/api/paginate.ts',
    'src/bulk/limiter.ts',
    'src/domain/webhooks/signature.ts',
    'src/domain/webhooks/url.ts',
    'src/domain/webhooks/event-names.ts',
    'src/domain/webhooks/sync/plan.ts',
    'src/domain/webhooks/sync/apply.ts',
    'src/output/csv.ts',
    'src/text/sanitize.ts',
    'src/mask.ts',
    'src/config/trust.ts',
    'src/mcp/tools.ts',
    'src/mcp/selection.ts',
    'src/domain/webhooks/listen/listener.ts',
    'src/domain/webhooks/secret.ts',
    'src/domain/webhooks/events.ts',
    'src/sandbox/actions.ts',
    'src/output/render.ts',
  ],
  // Not copied into Stryker's sandbox: build output (rebuilt by other test runs meanwhile),
  // coverage data and reports.
  ignorePatterns: ['dist', 'coverage', 'reports', '.stryker-tmp*'],
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // The machine this runs on may be shared: two test processes at most.
  concurrency: 2,
  timeoutMS: 5_000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
