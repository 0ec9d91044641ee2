// Skipping a test honestly. A test that cannot run here is skipped only outside CI, with the
// reason printed; under CI=true the same guard throws, so a suite that could not run is a
// failure there, never a quiet skip (.ci/run installs every tool the tests need).
//
// Two kinds of guard, and every skipIf/runIf/t.skip in test/ uses one of them
// (test/rules/skips.test.ts checks):
// - unavailable(reason): something the test needs is missing (a tool, a browser, a port).
// - runsElsewhere(reason): the test is for another platform or user than this one (Windows,
//   non-root; CI is Linux, as root, and runs the twin test), or it has its own CI step (the
//   standalone executable's, after .ci/run builds it). Skipped with the reason printed, in CI too.

const inCi = (): boolean => {
  const v = process.env.CI;
  return v !== undefined && v !== '' && v !== '0' && v !== 'false';
};

const said = new Set<string>();
function note(reason: string): void {
  if (said.has(reason)) return;
  said.add(reason);
  process.stderr.write(`skipped: ${reason}\n`);
}

/**
 * For `it.skipIf(unavailable(reason))`: false when `reason` is falsy (run the test). Otherwise,
 * under CI=true it throws (the file fails, naming what is missing); elsewhere it prints the
 * reason and returns true (skip).
 */
export function unavailable(reason: string | false | undefined | null): boolean {
  if (!reason) return false;
  if (inCi()) {
    throw new Error(`${reason}: under CI=true this test must run; .ci/run installs what it needs`);
  }
  note(reason);
  return true;
}

/** For `it.skipIf(runsElsewhere(reason))`: skips, printing the reason, when `reason` is set. */
export function runsElsewhere(reason: string | false | undefined | null): boolean {
  if (!reason) return false;
  note(reason);
  return true;
}
