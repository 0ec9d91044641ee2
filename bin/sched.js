#!/usr/bin/env node
'use strict';
// The `sched` command. CommonJS on purpose (see bin/package.json): Node starts its ES module
// loader only for an ES module, and that alone adds ~15 ms to every run, so `sched --version`
// (what scripts and installers call to check the tool) answers before it; everything else is
// the bundled CLI in dist/. Measured with `npm run bench`; see BENCHMARKS.md.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  /* eslint-disable no-undef, @typescript-eslint/no-require-imports -- CommonJS here */
  const text = require('../package.json').version + '\n';
  try {
    // Straight to the descriptor: creating process.stdout (a stream over a pipe or terminal)
    // would cost more than everything else here.
    require('node:fs').writeSync(1, text);
  } catch (e) {
    // A reader that went away is not an error; anything else (a full non-blocking pipe), retry
    // through the stream.
    if (e.code !== 'EPIPE') process.stdout.write(text);
  }
  /* eslint-enable no-undef, @typescript-eslint/no-require-imports */
} else {
  import('../dist/main.js');
}
