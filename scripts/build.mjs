// Builds dist/ with esbuild: ES modules split into chunks, the entry (dist/main.js) loading the
// command tree and each command's code loaded when that command runs, so a command loads only
// what it uses (`sig verify` never loads undici, conf or the prompts). bin/sched.js, plain
// CommonJS, answers `--version` itself and imports dist/main.js for everything else.
// Dependencies are trimmed in the bundle where measured to matter; see the plugins below and
// BENCHMARKS.md.
//
// Usage: node scripts/build.mjs [--outdir <dir>]
//
// The output is synced into the directory rather than wiped and rewritten: test runs and the
// benchmark spawn bin/sched.js while another process may be rebuilding, and a wiped dist/ would
// make those runs fail for a moment. Each changed file is written under a temporary name and
// renamed into place (atomic), and files no longer produced are removed last.
import { build } from 'esbuild';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import http2 from 'node:http2';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));

const argv = process.argv.slice(2);
const at = argv.indexOf('--outdir');
const outdir = resolve(root, at >= 0 && argv[at + 1] ? argv[at + 1] : 'dist');

/**
 * `undici` as src/api/exchange.ts sees it, in the bundle: only the dispatchers and `request` it
 * uses. undici's index loads fetch, WebSocket, caches, cookies and mocks as well, and through
 * them Node's own bundled copy of undici: that roughly halves the cost of loading the HTTP
 * stack (measured with `npm run bench`; see BENCHMARKS.md). A name exchange.ts imports that is
 * missing here fails the build. The deep paths are undici's files (its package has no
 * "exports" map); `request` is undici's own wrapper (index.js, makeDispatcher) restated.
 * Tests of src/ run against the full package.
 *
 * It also has V8 compile WebAssembly with Liftoff only. undici parses HTTP with llhttp compiled
 * to WebAssembly; by default V8 compiles it fast (Liftoff), then again, optimised (TurboFan), in
 * the background as soon as it runs. For a command that makes a few requests that second
 * compile costs more CPU than all the rest (~150 ms here), ~35 MB of memory, and the exit waits
 * for it; Liftoff code parses all a CLI receives fast enough (`--all` and bulk link creation
 * got faster too). Here, so that only commands that load the HTTP client pay for node:v8.
 * Only on V8 versions known to have the flag: setting an unknown flag prints an error.
 */
const UNDICI_SLIM = `
import { setFlagsFromString } from 'node:v8';
import Agent from 'undici/lib/dispatcher/agent.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';
import errors from 'undici/lib/core/errors.js';
import util from 'undici/lib/core/util.js';
import { getGlobalDispatcher } from 'undici/lib/global.js';

Object.assign(Dispatcher.prototype, api);

// Before undici's first connection, which compiles llhttp.
const v8Major = Number(process.versions.v8.split('.')[0]);
if (v8Major >= 9 && v8Major <= 14) setFlagsFromString('--liftoff-only');

export function request(url, opts) {
  if (!url || (typeof url !== 'string' && typeof url !== 'object' && !(url instanceof URL))) {
    throw new errors.InvalidArgumentError('invalid url');
  }
  if (opts != null && typeof opts !== 'object') {
    throw new errors.InvalidArgumentError('invalid opts');
  }
  if (opts && opts.path != null) {
    if (typeof opts.path !== 'string') throw new errors.InvalidArgumentError('invalid opts.path');
    const path = opts.path.startsWith('/') ? opts.path : '/' + opts.path;
    url = new URL(util.parseOrigin(url).origin + path);
  } else {
    if (!opts) opts = typeof url === 'object' ? url : {};
    url = util.parseURL(url);
  }
  const { agent, dispatcher = getGlobalDispatcher() } = opts;
  if (agent) throw new errors.InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?');
  return api.request.call(dispatcher, {
    ...opts,
    origin: url.origin,
    path: url.search ? url.pathname + url.search : url.pathname,
    method: opts.method || (opts.body ? 'PUT' : 'GET'),
  });
}

export { Agent, EnvHttpProxyAgent, Dispatcher, errors };
`;

/**
 * undici's HTTP/2 client requires node:http2 (and through it node:tls) when it loads, for a
 * few constants, though sched never asks for HTTP/2 (no `allowH2`): the constants are inlined
 * (taken from node:http2 at build time) and node:http2 is required on first use only.
 */
const LAZY_HTTP2 = `
const constants = ${JSON.stringify(http2.constants)};
module.exports = {
  constants,
  connect(...args) {
    return require('node:http2').connect(...args);
  },
};
`;

/**
 * conf loads ajv (JSON schema) and semver (migrations) when it loads, and uses them only with
 * the `schema` and `migrations` options, which src/config does not give it. Left out of the
 * bundle (a stub that fails loudly if it is ever used); if src/config starts using those
 * options, the build keeps the real modules.
 */
const CONF_UNUSED = {
  'ajv/dist/2020.js': `export class Ajv2020 { constructor() { unused('ajv'); } }`,
  'ajv-formats': `const f = () => unused('ajv-formats'); f.default = f; export default f;`,
  semver: `export default new Proxy({}, { get: () => () => unused('semver') });`,
};
const UNUSED_HEAD =
  'function unused(name) { throw new Error(name + " is not in the sched bundle: conf is used without schema or migrations (see scripts/build.mjs)"); }\n';

async function confUsesSchemaOrMigrations() {
  const dir = join(root, 'src', 'config');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.ts'));
  for (const f of files) {
    const text = await readFile(join(dir, f), 'utf8');
    if (/\b(schema|rootSchema|ajvOptions|migrations|projectVersion)\b/.test(text)) return true;
  }
  return false;
}

/**
 * Builtins that a dependency loads when it loads but uses only on paths sched never takes:
 * commander spawns processes only for executable subcommands (sched has none), conf uses
 * crypto only to encrypt its file (sched does not ask it to). Each is required on first use.
 */
const LAZY_BUILTINS = [
  { builtin: 'node:child_process', importer: 'commander/lib/command.js' },
  { builtin: 'node:crypto', importer: 'conf/dist/source/index.js' },
];
const lazyBuiltin = (name) => `
let real;
module.exports = new Proxy({}, {
  get(_, key) {
    real ??= require(${JSON.stringify(name)});
    return real[key];
  },
});
`;

const inPackage = (importer, pkgPath) =>
  importer.includes(`${sep}node_modules${sep}${pkgPath.split('/').join(sep)}`);

const slimDependencies = (stubConf) => ({
  name: 'slim-dependencies',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, (args) =>
      args.importer.endsWith(join('src', 'api', 'exchange.ts'))
        ? { path: 'undici', namespace: 'slim' }
        : undefined,
    );
    b.onResolve({ filter: /^node:http2$/ }, (args) =>
      inPackage(args.importer, 'undici/lib/dispatcher/client-h2.js')
        ? { path: 'node:http2', namespace: 'slim' }
        : undefined,
    );
    b.onResolve({ filter: /^node:(child_process|crypto)$/ }, (args) =>
      LAZY_BUILTINS.some((l) => l.builtin === args.path && inPackage(args.importer, l.importer))
        ? { path: args.path, namespace: 'slim', pluginData: 'lazy' }
        : undefined,
    );
    if (stubConf) {
      b.onResolve({ filter: /^(ajv\/dist\/2020\.js|ajv-formats|semver)$/ }, (args) =>
        inPackage(args.importer, 'conf/') ? { path: args.path, namespace: 'slim' } : undefined,
      );
    }
    b.onLoad({ filter: /.*/, namespace: 'slim' }, (args) => ({
      contents:
        args.path === 'undici'
          ? UNDICI_SLIM
          : args.path === 'node:http2'
            ? LAZY_HTTP2
            : args.pluginData === 'lazy'
              ? lazyBuiltin(args.path)
              : UNUSED_HEAD + CONF_UNUSED[args.path],
      loader: 'js',
      resolveDir: root,
    }));
  },
});

const REQUIRE_BANNER =
  "import { createRequire as __schedCreateRequire } from 'node:module'; const require = __schedCreateRequire(import.meta.url);";

const SOURCEMAP = Boolean(process.env.SCHED_BUILD_SOURCEMAP);

const result = await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/main.ts' },
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
  // Some dependencies are CommonJS and call require(); give the ESM bundle one.
  // (Removed again below from the files that never call it.)
  banner: { js: REQUIRE_BANNER },
  plugins: process.env.SCHED_BUILD_FULL_DEPS
    ? []
    : [slimDependencies(!(await confUsesSchemaOrMigrations()))],
  logLevel: 'warning',
});

async function listFiles(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? e.path, e.name));
}

/**
 * The banner in a file that never calls require() only costs start-up (node:module is loaded
 * for it): the entry file, above all, which `sched --version` loads alone.
 */
function withoutUnusedBanner(text) {
  if (!text.startsWith(REQUIRE_BANNER)) return text;
  const rest = text.slice(REQUIRE_BANNER.length);
  return /\brequire\b/.test(rest) ? text : rest.replace(/^\n/, '');
}

const produced = new Set();
for (const file of result.outputFiles) {
  produced.add(file.path);
  // With source maps the banner stays: removing a line would shift every mapping.
  const contents = Buffer.from(SOURCEMAP ? file.text : withoutUnusedBanner(file.text));
  const old = await readFile(file.path).catch(() => undefined);
  if (old && Buffer.compare(old, contents) === 0) continue;
  await mkdir(dirname(file.path), { recursive: true });
  const tmp = `${file.path}.${process.pid}.tmp`;
  await writeFile(tmp, contents);
  await rename(tmp, file.path);
}
for (const file of await listFiles(outdir)) {
  // Another build's temporary file is its business; anything else not produced is stale.
  if (!produced.has(file) && !/\.\d+\.tmp$/.test(file)) {
    await rm(file, { force: true });
  }
}
if (process.env.SCHED_BUILD_VERBOSE) {
  for (const f of result.outputFiles) {
    console.error(`${String(f.contents.length).padStart(8)} ${relative(root, f.path)}`);
  }
}
