// The tests the exchange group of `npm run mutation` (scripts/stryker.exchange.config.mjs) runs
// against each of its mutants: the exchange's own unit tests and the webhook sender's POST,
// in-process against local servers. The callers' tests (client*.test.ts, the commands) reach
// the exchange too, but each takes seconds and would run once per mutant.
import mutation from './vitest.mutation.config.mjs';

export default {
  ...mutation,
  test: {
    ...mutation.test,
    include: ['test/api/exchange.test.ts', 'test/domain/webhooks/http*.test.ts'],
  },
};
