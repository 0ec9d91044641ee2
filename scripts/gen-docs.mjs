#!/usr/bin/env node
// Regenerates docs/ (the command reference), sched.1 (the man page) and completions/ (through
// scripts/gen-completions.mjs) from the command definitions in src/commands/**/index.ts. Run
// after changing a command, a flag, an example, a JSON shape or an exit code:
//   npm run docs
// The TypeScript is bundled in memory with esbuild (dependencies stay external) and run once.
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cache = join(root, 'node_modules', '.cache', 'sched-gen-docs');
mkdirSync(cache, { recursive: true });
const entry = join(cache, 'files.mjs');
await build({
  entryPoints: [join(root, 'src/docs/files.ts')],
  outfile: entry,
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  logLevel: 'warning',
  // The version help prints, put in as scripts/build.mjs does.
  define: {
    SCHED_VERSION: JSON.stringify(
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version,
    ),
  },
});
const { generatedFiles } = await import(pathToFileURL(entry).href);

// docs/commands/ holds only generated pages: one of a removed command goes away.
rmSync(join(root, 'docs', 'commands'), { recursive: true, force: true });
for (const [path, text] of await generatedFiles()) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}
process.stderr.write(
  `wrote docs/ (${readdirSync(join(root, 'docs', 'commands')).length} command pages) and sched.1\n`,
);
// The completion scripts are what the built CLI prints (`sched completion <shell>`).
execFileSync(process.execPath, [join(root, 'scripts', 'gen-completions.mjs')], {
  stdio: 'inherit',
});
