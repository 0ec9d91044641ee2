// fast-check, configured once for every property test:
// - FC_NUM_RUNS sets how many inputs each property tries (default 150, to keep `npm test`
//   fast; raise it for a deeper run, e.g. FC_NUM_RUNS=5000 npx vitest run test/properties);
// - a failure reports the seed and the path of the shrunk counterexample; replay exactly that
//   case with FC_SEED=<seed> FC_PATH=<path>.
import fc from 'fast-check';

const env = process.env;
const numRuns = Number(env.FC_NUM_RUNS) > 0 ? Math.floor(Number(env.FC_NUM_RUNS)) : 150;

fc.configureGlobal({
  numRuns,
  // Names the seed, the path and the counterexample in the failure message.
  verbose: fc.VerbosityLevel.Verbose,
  ...(env.FC_SEED !== undefined && env.FC_SEED !== '' ? { seed: Number(env.FC_SEED) } : {}),
  ...(env.FC_PATH ? { path: env.FC_PATH } : {}),
});

export { fc };
export const NUM_RUNS = numRuns;
