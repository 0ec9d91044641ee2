// The exchange group of `npm run mutation` (scripts/mutation.mjs): the one HTTP client and the
// webhook sender's POST on it. Every client network test reaches every line of the exchange, so
// against the in-process set of scripts/stryker.config.mjs each mutant ran dozens of slow tests
// (a run was estimated at ~4 hours); here its mutants run against its own unit tests
// (scripts/vitest.mutation.exchange.config.mjs). Everything else is the main config's; the
// results and the report are kept apart, so the two groups never overwrite each other's.
import base from './stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  vitest: { ...base.vitest, configFile: 'scripts/vitest.mutation.exchange.config.mjs' },
  mutate: ['src/api/exchange.ts', 'src/domain/webhooks/http.ts'],
  incrementalFile: 'reports/stryker-incremental-exchange.json',
  htmlReporter: { fileName: 'reports/mutation-exchange/index.html' },
  jsonReporter: { fileName: 'reports/mutation-exchange/mutation.json' },
};
