#!/usr/bin/env node
'use strict';
// The `sched` command. CommonJS on purpose (see bin/package.json): Node starts its ES module
// loader only for an ES module, and that alone adds ~15 ms to every run, so `sched --version`
// (what scripts and installers call to check the tool) answers before it, and so does
// `sched --help` on a pipe, from the text the build rendered; everything else is the bundled
// CLI in dist/. Measured with `npm run bench`; see BENCHMARKS.md.
const argv = process.argv.slice(2);
/* eslint-disable no-undef, @typescript-eslint/no-require-imports -- CommonJS here */
const alone = argv.length === 1 ? argv[0] : undefined;
if (alone === '--version' || alone === '-V') {
  answer(require('../package.json').version + '\n');
} else if (
  (alone === '--help' || alone === '-h') &&
  !require('node:tty').isatty(1) &&
  !/^schedcli(\.c?js)?$/.test(require('node:path').basename(process.argv[1] || ''))
) {
  // `sched --help` on a pipe (scripts, `| less`, a test): the text the build rendered from the
  // CLI itself (dist/help.txt, scripts/build.mjs). On a terminal the CLI renders it for the
  // terminal's width; invoked as `schedcli` (src/names.ts), the CLI renders it with that name.
  let help;
  try {
    help = require('node:fs').readFileSync(
      require('node:path').join(__dirname, '..', 'dist', 'help.txt'),
    );
  } catch {
    // Not built yet (a git clone): the CLI answers, building dist/ first.
  }
  if (help) answer(help);
  else runCli();
} else {
  runCli();
}

function runCli() {
  import('../dist/main.js').catch(firstRunFromClone);
}

/** Writes a whole answer to stdout and leaves. */
function answer(text) {
  try {
    // Straight to the descriptor: creating process.stdout (a stream over a pipe or terminal)
    // would cost more than everything else here.
    require('node:fs').writeSync(1, text);
  } catch (e) {
    // A reader that went away is not an error; a full non-blocking pipe is retried through the
    // stream; anything else (a full disk) is one line on stderr and exit 1, as in the CLI.
    if (e.code === 'EPIPE') return;
    if (e.code !== 'EAGAIN') return cannotWrite(e);
    process.stdout.on('error', (err) => {
      if (err.code !== 'EPIPE') cannotWrite(err);
    });
    process.stdout.write(text);
  }
}

/** The CLI's OutputFailed (src/errors.ts), said here without loading it. */
function cannotWrite(e) {
  process.exitCode = 1;
  try {
    require('node:fs').writeSync(2, `error: could not write to stdout (${e.code || e.message})\n`);
  } catch {
    // stderr failed too: the exit code says it.
  }
}
/* eslint-enable no-undef, @typescript-eslint/no-require-imports */

/**
 * The package ships dist/ built; a git clone has no dist/ until something builds it (`npm
 * test`, `npm run build`, `npm run demo`): there is no install script, so that installing the
 * package never runs one. A clone installed with `npm install -g .` or `npm link` builds it on
 * its first run here. Only when dist/main.js is missing: any other failure is rethrown as is.
 */
function firstRunFromClone(error) {
  /* eslint-disable no-undef, @typescript-eslint/no-require-imports -- CommonJS here */
  const { existsSync } = require('node:fs');
  const { join } = require('node:path');
  const root = join(__dirname, '..');
  if (existsSync(join(root, 'dist', 'main.js'))) throw error;
  const build = join(root, 'scripts', 'build.mjs');
  if (!existsSync(build)) {
    process.stderr.write(`sched: ${join(root, 'dist')} is missing: reinstall sched\n`);
    process.exit(1);
  }
  // A clone before `npm install` has no esbuild to build with: say what to run, in one line,
  // rather than the build's ERR_MODULE_NOT_FOUND and its stack.
  try {
    require.resolve('esbuild', { paths: [root] });
  } catch {
    process.stderr.write(
      `sched: this clone is not built yet: run \`npm install && npm run build\` in ${root}\n`,
    );
    process.exit(1);
  }
  process.stderr.write('sched: first run from a git clone: building dist/ (npm run build)\n');
  const r = require('node:child_process').spawnSync(process.execPath, [build], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (r.status !== 0) process.exit(1);
  return import('../dist/main.js');
  /* eslint-enable no-undef, @typescript-eslint/no-require-imports */
}
