// Builds dist/ once before the suite, so end-to-end tests spawn the same binary users run.
// Under SCHED_COVERAGE=1 (see vitest.config.ts) it also clears the last coverage data first and,
// once vitest has written its own, writes the merged report and prints the per-folder table.
// Every run ends by checking that no process a test started is still running (leftovers.ts).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { endLeftovers, tagRun } from './leftovers.js';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const coverage = process.env.SCHED_COVERAGE === '1';
  // @ts-expect-error -- a plain .mjs script, without declarations
  const report = coverage ? await import('../../scripts/coverage-report.mjs') : undefined;
  await report?.prepareCoverage();
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  const tag = tagRun();

  return async () => {
    const left = await endLeftovers(tag);
    if (left.length > 0) {
      process.stderr.write(
        `Leftovers: ${left.length} process(es) started by tests were still running after the ` +
          `run, and were ended (each test must close what it starts):\n` +
          left.map((l) => `  ${l.pid} ${l.command.slice(0, 200)}\n`).join(''),
      );
      process.exitCode = 1;
    }
    if (!report) return;
    // A report that cannot be written fails the run: vitest only logs a teardown's error.
    let result: { text: string; branches: number };
    try {
      result = await report.writeCoverageReport();
    } catch (e) {
      process.stderr.write(`Coverage: the report could not be written: ${String(e)}\n`);
      process.exitCode = 1;
      return;
    }
    const { text, branches } = result;
    process.stdout.write(`\n${text}`);
    // Only a whole-suite run is held to the minimum: a focused one undercounts.
    const ran = project.vitest.state.getTestModules().length;
    const all = (await project.globTestFiles()).testFiles.length;
    const min = project.getProvidedContext().coverageMinBranches;
    if (ran === all && branches < min) {
      process.stderr.write(
        `Coverage: ${branches.toFixed(1)}% of branches is below the minimum of ${min}% ` +
          `(vitest.config.ts); test what is uncovered (coverage/coverage-final.json).\n`,
      );
      process.exitCode = 1;
    }
  };
}
