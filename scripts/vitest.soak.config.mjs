// `npm run soak`: the soak runs in test/soak/*.soak.ts, apart from `npm test` (whose pattern is
// test/**/*.test.ts). SOAK_SCALE=ci (default) runs small counts, SOAK_SCALE=full the counts
// recorded in BENCHMARKS.md. One file at a time: each loads the machine on its own.
import base from '../vitest.config.ts';

export default {
  ...base,
  test: {
    ...base.test,
    // Replaced, not merged: only the soak files.
    include: ['test/soak/**/*.soak.ts'],
    fileParallelism: false,
    testTimeout: 60 * 60_000,
    hookTimeout: 60_000,
  },
};
