// The global options of a run with no flag given, for tests that build a context themselves.
import type { GlobalOptions } from '../../src/context.js';

export const DEFAULT_GLOBALS: GlobalOptions = {
  profile: 'default',
  baseUrl: undefined,
  output: 'table',
  color: false,
  input: false,
  timeoutMs: 30_000,
  verbose: false,
  quiet: false,
};
