// The test config plus what `npm run coverage` (scripts/coverage.mjs) needs: vitest's V8
// coverage of src/ for the in-process tests (raw JSON, merged later with the spawned
// processes'), and the setup file that hands NODE_V8_COVERAGE to those processes.
import { mergeConfig } from 'vitest/config';
import base from '../vitest.config.ts';

export default mergeConfig(base, {
  test: {
    setupFiles: ['test/helpers/child-coverage.ts'],
    coverage: {
      enabled: true,
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['json'],
      reportsDirectory: 'coverage/in-process',
      // The summary is scripts/coverage.mjs's, once both runs are merged.
      reportOnFailure: true,
    },
  },
});
