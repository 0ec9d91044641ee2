// Under `npm run coverage` only (scripts/coverage.mjs sets SCHED_CHILD_COVERAGE): every
// process a test spawns (bin/sched.js, the demo) writes its V8 coverage there. Set here, in the
// test worker, not before it starts: Node reads NODE_V8_COVERAGE at start-up, so the worker
// itself (measured in-process by vitest) does not write any, but its children inherit it.
const dir = process.env.SCHED_CHILD_COVERAGE;
if (dir) process.env.NODE_V8_COVERAGE = dir;
