// Builds dist/ with esbuild: one small entry chunk (commander + the command tree) and one
// lazily imported chunk per command, so `sched --version` never loads undici, conf or prompts.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));

await rm(new URL('dist', root), { recursive: true, force: true });
await build({
  absWorkingDir: new URL('.', root).pathname,
  entryPoints: { main: 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  minifySyntax: true,
  sourcemap: false,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  define: { SCHED_VERSION: JSON.stringify(pkg.version) },
  // Some dependencies are CommonJS and call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __schedCreateRequire } from 'node:module'; const require = __schedCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
