// Builds dist/ with esbuild: ES modules split into chunks, the entry (dist/main.js) loading the
// command tree and each command's code loaded when that command runs, so a command loads only
// what it uses (`sig verify` never loads undici, conf or the prompts). bin/sched.js, plain
// CommonJS, answers `--version` itself and imports dist/main.js for everything else.
// Dependencies are trimmed in the bundle where measured to matter; see the plugins below and
// BENCHMARKS.md.
//
// The build is guarded: it writes nothing and exits 1, listing every problem, when a dependency
// it reaches into is not pinned to the installed exact version, when a substitution rule
// matched no import, when what a rule keeps out (the full undici, ajv, semver) is in the bundle
// anyway, or when undici's code that is restated or inlined here changed.
// test/build/bundle.test.ts runs the built binary where the substitutions matter.
//
// Usage: node scripts/build.mjs [--outdir <dir>]
//
// The output is synced into the directory rather than wiped and rewritten: test runs and the
// benchmark spawn bin/sched.js while another process may be rebuilding, and a wiped dist/ would
// make those runs fail for a moment. Each changed file is written under a temporary name and
// renamed into place (atomic), and files no longer produced are removed last.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
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

/** Every problem found, reported together at the end; any one fails the build. */
const problems = [];

/**
 * The dependencies whose files the plugins below reach into (deep imports, importer paths,
 * restated code). package.json pins them to exact versions and the build checks that the
 * installed copy is that version: an upgrade is a deliberate act, made together with a review
 * of the plugins (then update the pin, and the fingerprint below if undici's changed).
 */
const REACHED_INTO = ['undici', 'conf', 'commander'];
const declared = { ...pkg.dependencies, ...pkg.devDependencies };
for (const name of REACHED_INTO) {
  const spec = declared[name];
  const installed = await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8')
    .then((t) => JSON.parse(t).version)
    .catch(() => undefined);
  if (!spec || !/^\d+\.\d+\.\d+$/.test(spec)) {
    problems.push(
      `package.json must pin ${name} to an exact version (it says ${JSON.stringify(spec)}): the build reaches into its files`,
    );
  } else if (installed !== spec) {
    problems.push(
      `${name} ${installed ?? '(missing)'} is installed but package.json pins ${spec}: run \`npm install\``,
    );
  }
}

const depFile = (path) => join(root, 'node_modules', ...path.split('/'));
const depText = (path) => readFile(depFile(path), 'utf8');

/**
 * `undici` as src/ sees it, in the bundle: only the dispatchers and `request` it uses.
 * undici's index loads fetch, WebSocket, caches, cookies and mocks as well, and through them
 * Node's own bundled copy of undici: that roughly halves the cost of loading the HTTP stack
 * (measured with `npm run bench`; see BENCHMARKS.md). A name src/ imports that is missing here
 * fails the build. The deep paths are undici's files (its package has no "exports" map);
 * `request` is undici's own wrapper (index.js, makeDispatcher) restated: the build checks that
 * wrapper's fingerprint, so an undici whose wrapper changed fails until this copy is reviewed.
 * Tests of src/ run against the full package; test/build/bundle.test.ts runs this one.
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

/** sha256 of undici's makeDispatcher (index.js), the code `request` above restates. */
const UNDICI_REQUEST_FINGERPRINT =
  '43819a1c4608e80f8173fdf8ed20a1cfb1bb51ff5bd590d56b90aaa90c3faf31';
{
  const index = await depText('undici/index.js').catch(() => '');
  const wrapper = /\nfunction makeDispatcher \(fn\) \{\n[\s\S]*?\n\}\n/.exec(index)?.[0];
  const sum = wrapper && createHash('sha256').update(wrapper).digest('hex');
  if (sum !== UNDICI_REQUEST_FINGERPRINT) {
    problems.push(
      wrapper
        ? `undici's request wrapper (makeDispatcher in undici/index.js) changed (sha256 ${sum}): review \`request\` in UNDICI_SLIM, then update UNDICI_REQUEST_FINGERPRINT`
        : 'undici/index.js has no makeDispatcher any more: review `request` in UNDICI_SLIM',
    );
  }
}

/**
 * undici's HTTP/2 client requires node:http2 (and through it node:tls) when it loads, for a
 * few constants, though sched never asks for HTTP/2 (no `allowH2`): node:http2 is required on
 * first use only, and the constants are written here. They are fixed by HTTP/2 itself (header
 * names, RFC 9113; error codes, RFC 9113 section 7), not by the Node that builds; the build
 * reads the names client-h2.js takes and fails if one is missing here.
 */
const HTTP2_CONSTANTS = {
  HTTP2_HEADER_AUTHORITY: ':authority',
  HTTP2_HEADER_METHOD: ':method',
  HTTP2_HEADER_PATH: ':path',
  HTTP2_HEADER_SCHEME: ':scheme',
  HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
  HTTP2_HEADER_EXPECT: 'expect',
  HTTP2_HEADER_STATUS: ':status',
  HTTP2_HEADER_PROTOCOL: ':protocol',
  NGHTTP2_REFUSED_STREAM: 7,
  NGHTTP2_CANCEL: 8,
};
{
  const h2 = await depText('undici/lib/dispatcher/client-h2.js').catch(() => '');
  const names = /\bconstants:\s*\{([^}]*)\}\s*\}\s*=\s*http2\b/.exec(h2)?.[1];
  if (!names) {
    problems.push(
      'cannot find the constants undici/lib/dispatcher/client-h2.js takes from node:http2: review LAZY_HTTP2',
    );
  } else {
    for (const name of names
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean)) {
      if (!(name in HTTP2_CONSTANTS)) {
        problems.push(
          `undici's client-h2.js uses http2.constants.${name}: add it to HTTP2_CONSTANTS`,
        );
      }
    }
  }
}
const LAZY_HTTP2 = `
module.exports = {
  constants: ${JSON.stringify(HTTP2_CONSTANTS)},
  connect(...args) {
    return require('node:http2').connect(...args);
  },
};
`;

/**
 * conf loads ajv (JSON schema) and semver (migrations) when it loads, and uses them only with
 * the `schema`/`rootSchema`/`ajvOptions` and `migrations` options, which src/config does not
 * give it. Left out of the bundle: a stub that throws, naming itself, when used, so a Conf
 * given one of those options fails every config command of the built binary (the end-to-end
 * tests run them) rather than silently dropping validation. To use them, delete these rules.
 */
const unusedStub = (name, body) =>
  `function unused() { throw new Error(${JSON.stringify(
    `${name} is not in the sched bundle: conf is used without schema or migrations (see scripts/build.mjs)`,
  )}); }\n${body}`;

/**
 * Builtins that a dependency loads when it loads but uses only on paths sched never takes:
 * commander spawns processes only for executable subcommands (sched has none), conf uses
 * crypto only to encrypt its file (sched does not ask it to). Each is required on first use.
 */
const lazyBuiltin = (name) => `
let real;
module.exports = new Proxy({}, {
  get(_, key) {
    real ??= require(${JSON.stringify(name)});
    return real[key];
  },
});
`;

const srcDir = join(await realpath(root), 'src') + sep;
const fromSrc = (importer) => importer.startsWith(srcDir);
const fromDep = (path) => (importer) =>
  importer.endsWith(`${sep}node_modules${sep}${path.split('/').join(sep)}`);

/**
 * Every substitution the bundle makes: which import (`filter`, exact), from which importer,
 * becomes what. Each rule must match at least once, or the build fails: a dependency that moved
 * or renamed a file would otherwise silently bring back what the rule was there to keep out.
 */
const RULES = [
  { what: 'undici, slim', filter: /^undici$/, importer: fromSrc, contents: UNDICI_SLIM },
  {
    what: 'node:http2, lazy, in undici',
    filter: /^node:http2$/,
    importer: fromDep('undici/lib/dispatcher/client-h2.js'),
    contents: LAZY_HTTP2,
  },
  {
    what: 'node:child_process, lazy, in commander',
    filter: /^node:child_process$/,
    importer: fromDep('commander/lib/command.js'),
    contents: lazyBuiltin('node:child_process'),
  },
  {
    what: 'node:crypto, lazy, in conf',
    filter: /^node:crypto$/,
    importer: fromDep('conf/dist/source/index.js'),
    contents: lazyBuiltin('node:crypto'),
  },
  {
    // An ES import of a builtin builds a facade that reads every export once, and reading
    // process.stdin builds the stdin stream (~5-10 ms): chalk (supports-color) uses only
    // process.env/argv/platform, so it gets the global process object.
    what: 'node:process, the global, in chalk',
    filter: /^node:process$/,
    importer: fromDep('chalk/source/vendor/supports-color/index.js'),
    contents: 'export default globalThis.process;',
  },
  {
    what: 'ajv, stubbed, in conf',
    filter: /^ajv\/dist\/2020\.js$/,
    importer: fromDep('conf/dist/source/index.js'),
    contents: unusedStub('ajv', 'export class Ajv2020 { constructor() { unused(); } }'),
  },
  {
    what: 'ajv-formats, stubbed, in conf',
    filter: /^ajv-formats$/,
    importer: fromDep('conf/dist/source/index.js'),
    contents: unusedStub(
      'ajv-formats',
      'const f = () => unused(); f.default = f; export default f;',
    ),
  },
  {
    what: 'semver, stubbed, in conf',
    filter: /^semver$/,
    importer: fromDep('conf/dist/source/index.js'),
    contents: unusedStub('semver', 'export default new Proxy({}, { get: () => () => unused() });'),
  },
];

/** Files that must not be in the bundle: what the rules above keep out. */
const KEPT_OUT = [
  ['undici/index.js', 'the full undici'],
  ['ajv/', 'ajv'],
  ['ajv-formats/', 'ajv-formats'],
  ['semver/', 'semver'],
];

const slimDependencies = {
  name: 'slim-dependencies',
  setup(b) {
    RULES.forEach((rule, i) => {
      rule.matched = 0;
      b.onResolve({ filter: rule.filter }, (args) => {
        if (!rule.importer(args.importer)) return undefined;
        rule.matched += 1;
        return { path: `${i}:${args.path}`, namespace: 'slim' };
      });
    });
    b.onLoad({ filter: /.*/, namespace: 'slim' }, (args) => ({
      contents: RULES[Number(args.path.split(':')[0])].contents,
      loader: 'js',
      resolveDir: root,
    }));
  },
};

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
  // Some dependencies are CommonJS and call require(); give the ESM bundle one.
  // (Removed again below from the files that never call it.)
  banner: { js: REQUIRE_BANNER },
  plugins: [slimDependencies],
  metafile: true,
  logLevel: 'warning',
});

for (const rule of RULES) {
  if (rule.matched === 0) {
    problems.push(
      `the rule "${rule.what}" (${rule.filter}) matched nothing: a dependency changed; review the rule`,
    );
  }
}
for (const [path, what] of KEPT_OUT) {
  const found = Object.keys(result.metafile.inputs).filter((i) =>
    i.includes(`node_modules/${path}`),
  );
  if (found.length > 0)
    problems.push(`${what} is in the bundle (${found.length} files: ${found[0]}, …)`);
}
if (problems.length > 0) {
  process.stderr.write(
    `scripts/build.mjs: the build failed, nothing written:\n${problems.map((p) => `  - ${p}\n`).join('')}`,
  );
  process.exit(1);
}

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
const outputs = [
  // With source maps the banner stays: removing a line would shift every mapping.
  ...result.outputFiles.map((f) => ({
    path: f.path,
    text: SOURCEMAP ? f.text : withoutUnusedBanner(f.text),
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
for (const file of await listFiles(outdir)) {
  // Another build's temporary file is its business; anything else not produced is stale.
  // Declarations are left alone by a build that does not write them.
  if (!withTypes && file.startsWith(typesDir + sep)) continue;
  if (!produced.has(file) && !/\.\d+\.tmp$/.test(file)) {
    await rm(file, { force: true });
  }
}
if (process.env.SCHED_BUILD_VERBOSE) {
  for (const f of result.outputFiles) {
    console.error(`${String(f.contents.length).padStart(8)} ${relative(root, f.path)}`);
  }
}
