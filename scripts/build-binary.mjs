// `npm run build:binary`: the standalone `sched` executable, for people without Node, made with
// Node's single executable application support (SEA, https://nodejs.org/api/single-executable-applications.html):
//
//   1. src/binary.ts bundled by esbuild into one CommonJS script (an SEA runs one script; the
//      per-command chunks of dist/ become lazily initialised parts of it);
//   2. the official Node binary of the chosen version, from the npm registry's node-<os>-<arch>
//      package (kept in node_modules/.cache/sched-binary/ between builds);
//   3. `node --experimental-sea-config` turns the script into a blob, with V8's code cache of
//      it (useCodeCache) when the blob is for the platform that builds it;
//   4. postject (the Node project's injector, from npm, no install script) writes the blob into
//      a copy of that Node binary: dist/bin/sched-<os>-<arch>[.exe].
//
// Usage: node scripts/build-binary.mjs [--target linux-x64|win-x64] [--node <major>]
//          [--no-code-cache]
// Default: the platform that builds, Node 24. A Windows binary from Linux is built without code
// cache (V8's cache is only valid for the platform that made it); injecting the blob breaks
// node.exe's Authenticode signature (postject warns), so it must be signed again on Windows
// before it is handed out. It is not run here (no Windows to run it on).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CACHE_DIR, registryNode, TARGETS } from './registry-node.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));

const { values: opt } = parseArgs({
  options: {
    target: {
      type: 'string',
      default: `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`,
    },
    node: { type: 'string', default: '24' },
    'no-code-cache': { type: 'boolean', default: false },
  },
  strict: true,
});

const target = TARGETS[opt.target];
if (!target) fail(`unknown --target ${opt.target}: expected ${Object.keys(TARGETS).join(' or ')}`);
if (!/^\d+$/.test(opt.node) || Number(opt.node) < 22) {
  fail(`--node ${opt.node}: expected a major version, 22 or later (SEA with code cache)`);
}
const hostTarget = `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
const native = opt.target === hostTarget;

function fail(message) {
  process.stderr.write(`build-binary: ${message}\n`);
  process.exit(1);
}
function run(cmd, args, what) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) fail(`${what} failed (${r.error?.message ?? `exit ${r.status}`})`);
}
const log = (s) => process.stderr.write(`build-binary: ${s}\n`);

const work = CACHE_DIR;
const outDir = join(root, 'dist', 'bin');
await mkdir(work, { recursive: true });
await mkdir(outDir, { recursive: true });

// 1. One CommonJS script.
const script = join(work, 'sched.cjs');
await build({
  absWorkingDir: root,
  entryPoints: ['src/binary.ts'],
  outfile: script,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: `node${opt.node}`,
  minifySyntax: true,
  legalComments: 'none',
  define: { SCHED_VERSION: JSON.stringify(pkg.version) },
  logLevel: 'warning',
});

// 2. The Node binary of the target, and (to make the blob) the same version for this machine.
const fetchNode = (t) => registryNode(opt.node, t, log).catch((e) => fail(e.message));
const targetNode = await fetchNode(opt.target);
const hostNode = native ? targetNode : await fetchNode('linux-x64');
const version = spawnSync(hostNode, ['--version'], { encoding: 'utf8' }).stdout.trim();

// 3. The blob.
const useCodeCache = native && !opt['no-code-cache'];
const blob = join(work, `sched-${opt.target}.blob`);
const config = join(work, `sea-config-${opt.target}.json`);
await writeFile(
  config,
  JSON.stringify({
    main: script,
    output: blob,
    disableExperimentalSEAWarning: true,
    useCodeCache,
    useSnapshot: false,
  }),
);
run(hostNode, ['--experimental-sea-config', config], 'node --experimental-sea-config');

// 4. The executable.
const out = join(outDir, `sched-${opt.target}${target.suffix}`);
const tmp = `${out}.${process.pid}.tmp`;
await copyFile(targetNode, tmp);
await chmod(tmp, 0o755);
// Node's Linux binary ships with its symbols and debug information: ~16 MiB that a user never
// needs (crash stacks from JavaScript are unaffected). Left as is where `strip` is missing.
let stripped = false;
if (opt.target.startsWith('linux-') && process.platform === 'linux') {
  stripped = spawnSync('strip', [tmp], { stdio: 'ignore' }).status === 0;
}
const { inject } = await import('postject');
// postject writes the blob with LIEF (compiled to WebAssembly), which warns "Can't find string
// offset for section name '.note.100'" (and '.note') about a dozen times on Linux: rebuilding
// the ELF it finds notes whose names are not in the section-name table, and writes them as
// they were. Harmless (nodejs/postject#83, lief-project/LIEF#816): the executable runs, as
// test/build/standalone.test.ts checks. Only those lines are dropped, so a real warning shows.
// LIEF's messages go through console.warn, bound when postject's module starts (in inject).
const LIEF_NOTE_NOISE = /^warning: Can't find string offset for section name '\.note(\.\d+)?'$/;
const warn = console.warn;
console.warn = (...args) => {
  if (!(args.length === 1 && LIEF_NOTE_NOISE.test(String(args[0])))) warn(...args);
};
try {
  await inject(tmp, 'NODE_SEA_BLOB', await readFile(blob), {
    sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  });
} finally {
  console.warn = warn;
}
await rm(out, { force: true });
await copyFile(tmp, out);
await chmod(out, 0o755);
await rm(tmp, { force: true });
const size = (await stat(out)).size;
log(
  `${out.slice(root.length)}: ${(size / 2 ** 20).toFixed(1)} MiB, Node ${version}, ` +
    `code cache ${useCodeCache ? 'on' : 'off'}${stripped ? ', stripped' : ''}`,
);
