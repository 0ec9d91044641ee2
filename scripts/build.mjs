// Builds dist/ with esbuild: ES modules split into chunks, the entry (dist/main.js) loading the
// command tree and each command's code loaded when that command runs, so a command loads only
// what it uses (`sig verify` never loads undici, conf or the prompts). bin/sched.js, plain
// CommonJS, answers `--version` itself and imports dist/main.js for everything else.
// Dependencies are bundled as published, through their public entry points: nothing of theirs
// is restated, stubbed or swapped here, so an update within their majors needs no change to
// this file (what that costs at start-up is measured in BENCHMARKS.md).
//
// Usage: node scripts/build.mjs [--outdir <dir>] [--types]
//
// The output is synced into the directory rather than wiped and rewritten: test runs and the
// benchmark spawn bin/sched.js while another process may be rebuilding, and a wiped dist/ would
// make those runs fail for a moment. Each changed file is written under a temporary name and
// renamed into place (atomic), and files no longer produced are removed last.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));

const argv = process.argv.slice(2);
const at = argv.indexOf('--outdir');
const outdir = resolve(root, at >= 0 && argv[at + 1] ? argv[at + 1] : 'dist');
/** Also write the type declarations of the library entry (dist/types/); `npm pack` asks. */
const withTypes = argv.includes('--types');
const typesDir = join(outdir, 'types');

/** Every problem found (the declarations'), reported together at the end; any fails the build. */
const problems = [];

const REQUIRE_BANNER =
  "import { createRequire as __schedCreateRequire } from 'node:module'; const require = __schedCreateRequire(import.meta.url);";

const SOURCEMAP = Boolean(process.env.SCHED_BUILD_SOURCEMAP);

const result = await build({
  absWorkingDir: root,
  // dist/main.js: the CLI. dist/sandbox.js: `sched/sandbox`, the sandbox as a library (package.json
  // "exports"), which loads nothing of the CLI (test/build/bundle.test.ts checks).
  entryPoints: { main: 'src/main.ts', sandbox: 'src/sandbox/library.ts' },
  outdir,
  write: false,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  // SCHED_BUILD_SOURCEMAP=1 (npm run coverage): source maps, and the code kept as written, so
  // the spawned binary's coverage maps back onto src/ like the in-process run's.
  minifySyntax: !SOURCEMAP,
  sourcemap: SOURCEMAP ? 'linked' : false,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  define: { SCHED_VERSION: JSON.stringify(pkg.version) },
  // Some dependencies are CommonJS and call require(); give the ESM bundle one (kept below only
  // in the files that name it).
  banner: { js: REQUIRE_BANNER },
  logLevel: 'warning',
});

async function listFiles(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? e.path, e.name));
}

/**
 * Declarations for `sched/sandbox` (dist/types/sandbox/library.d.ts and what it imports),
 * from the same tsconfig as the typecheck. Slow (a TypeScript program), hence on request.
 */
async function declarations() {
  const { default: ts } = await import('typescript');
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) =>
        problems.push(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    },
  );
  const program = ts.createProgram([join(root, 'src', 'sandbox', 'library.ts')], {
    ...config.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    outDir: typesDir,
    rootDir: join(root, 'src'),
  });
  const files = [];
  const emitted = program.emit(undefined, (path, text) =>
    files.push({ path: resolve(path), text }),
  );
  for (const d of [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics]) {
    problems.push(`types: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
  }
  return files;
}
/**
 * The banner is written into every output file, but only the files that name `require` use it
 * (esbuild's runtime chunk, whose `__require` serves every bundled CommonJS require). Each copy
 * costs a `createRequire` and an import of `node:module` per chunk loaded: a one-GET run loads
 * ~40 chunks, and dropping the unused copies saved ~5% of its CPU (BENCHMARKS.md). Kept
 * wherever the word `require` (not a property, not part of a name) or a call of `eval` appears, comments
 * and strings included: a false match costs one copy, never a missing `require`. Only the
 * banner's own line is emptied, so source maps stay aligned.
 */
const NAMES_REQUIRE = /(?<![\w$.])require(?![\w$])|(?<![\w$.])eval\s*\(/;
function withoutUnusedBanner(text) {
  if (!text.startsWith(REQUIRE_BANNER)) return text;
  const rest = text.slice(REQUIRE_BANNER.length);
  return NAMES_REQUIRE.test(rest) ? text : rest;
}
const outputs = [
  ...result.outputFiles.map((f) => ({
    path: f.path,
    text: f.path.endsWith('.js') ? withoutUnusedBanner(f.text) : f.text,
  })),
  ...(withTypes ? await declarations() : []),
];
if (problems.length > 0) {
  process.stderr.write(
    `scripts/build.mjs: the build failed, nothing written:\n${problems.map((p) => `  - ${p}\n`).join('')}`,
  );
  process.exit(1);
}

const produced = new Set();
for (const file of outputs) {
  produced.add(file.path);
  const contents = Buffer.from(file.text);
  const old = await readFile(file.path).catch(() => undefined);
  if (old && Buffer.compare(old, contents) === 0) continue;
  await mkdir(dirname(file.path), { recursive: true });
  const tmp = `${file.path}.${process.pid}.tmp`;
  await writeFile(tmp, contents);
  await rename(tmp, file.path);
}
// dist/help.txt: `sched --help` exactly as the bundle just written prints it on a pipe (not a
// terminal: no width or colour to adapt to), so bin/sched.js answers that one question without
// loading the CLI, as it does `--version` (measured in BENCHMARKS.md).
{
  const help = spawnSync(process.execPath, [join(outdir, 'main.js'), '--help'], {
    env: { PATH: process.env.PATH, NODE_DISABLE_COMPILE_CACHE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (help.status !== 0 || help.stdout.length === 0) {
    process.stderr.write(
      `scripts/build.mjs: rendering dist/help.txt failed (exit ${help.status}): ${help.stderr}\n`,
    );
    process.exit(1);
  }
  const helpFile = join(outdir, 'help.txt');
  produced.add(helpFile);
  const old = await readFile(helpFile).catch(() => undefined);
  if (!old || Buffer.compare(old, help.stdout) !== 0) {
    const tmp = `${helpFile}.${process.pid}.tmp`;
    await writeFile(tmp, help.stdout);
    await rename(tmp, helpFile);
  }
}
for (const file of await listFiles(outdir)) {
  // Another build's temporary file is its business; anything else not produced is stale.
  // Declarations are left alone by a build that does not write them, and dist/bin/ (the
  // standalone executables of scripts/build-binary.mjs) by every build.
  if (!withTypes && file.startsWith(typesDir + sep)) continue;
  if (file.startsWith(join(outdir, 'bin') + sep)) continue;
  if (!produced.has(file) && !/\.\d+\.tmp$/.test(file)) {
    await rm(file, { force: true });
  }
}
if (process.env.SCHED_BUILD_VERBOSE) {
  for (const f of result.outputFiles) {
    console.error(`${String(f.contents.length).padStart(8)} ${relative(root, f.path)}`);
  }
}
