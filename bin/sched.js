#!/usr/bin/env node
'use strict';
// The `sched` command. CommonJS on purpose (see bin/package.json): Node starts its ES module
// loader only for an ES module, and that alone adds ~15 ms to every run, so `sched --version`
// (what scripts and installers call to check the tool) answers before it; everything else is
// the bundled CLI in dist/. Measured with `npm run bench`; see BENCHMARKS.md.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // eslint-disable-next-line no-undef, @typescript-eslint/no-require-imports -- CommonJS here
  process.stdout.write(require('../package.json').version + '\n');
} else {
  import('../dist/main.js');
}
