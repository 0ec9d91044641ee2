#!/usr/bin/env node
// npm run coverage [-- <vitest filters>]: branch, statement, function and line coverage of src/,
// counting both what the tests run in-process and what runs in the processes they spawn (the
// built binary, bin/sched.js -> dist/, which only those tests reach: main.ts, prompt.ts, signal
// handling ...).
//
// 1. vitest runs the suite with its V8 coverage (scripts/vitest.coverage.config.mjs) and writes
//    coverage/in-process/coverage-final.json; dist/ is built with source maps
//    (SCHED_BUILD_SOURCEMAP=1) and every spawned process writes raw V8 coverage
//    (NODE_V8_COVERAGE, handed on by test/helpers/child-coverage.ts) to coverage/.v8-children.
// 2. Each spawned process's coverage of dist/ is mapped back onto src/ through the source maps,
//    with the converter vitest itself uses (ast-v8-to-istanbul), so the two runs have the same
//    shape, and merged with the in-process run.
// 3. Written: coverage/coverage-final.json (merged), coverage/coverage-summary.json (per file and
//    total), coverage/folders.txt (the per-folder table, also printed).
//
// Exit code: vitest's (a failing test fails the run), after the summary is written.
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import convert from 'ast-v8-to-istanbul';
import libCoverage from 'istanbul-lib-coverage';
import libReport from 'istanbul-lib-report';
import reports from 'istanbul-reports';
import { parseAstAsync } from 'vitest/node';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = path.join(root, 'coverage');
const children = path.join(out, '.v8-children');
const src = path.join(root, 'src') + path.sep;
const distUrl = pathToFileURL(path.join(root, 'dist')).href + '/';

await rm(out, { recursive: true, force: true });
await mkdir(children, { recursive: true });

// 1. The suite.
const vitest = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--config',
    'scripts/vitest.coverage.config.mjs',
    ...process.argv.slice(2),
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, SCHED_BUILD_SOURCEMAP: '1', SCHED_CHILD_COVERAGE: children },
  },
);

// 2. Merge.
const map = libCoverage.createCoverageMap({});
const inProcess = JSON.parse(
  await readFile(path.join(out, 'in-process', 'coverage-final.json'), 'utf8'),
);
map.merge(inProcess);

/** dist/ files, parsed once: the code, its AST and its source map. */
const scripts = new Map();
async function script(url) {
  let s = scripts.get(url);
  if (!s) {
    const file = fileURLToPath(url);
    const code = await readFile(file, 'utf8');
    const sourceMap = JSON.parse(await readFile(`${file}.map`, 'utf8'));
    s = { code, sourceMap, ast: await parseAstAsync(code) };
    scripts.set(url, s);
  }
  return s;
}

let processes = 0;
for (const name of await readdir(children)) {
  if (!name.endsWith('.json')) continue;
  const raw = JSON.parse(await readFile(path.join(children, name), 'utf8'));
  const ours = raw.result.filter((r) => r.url.startsWith(distUrl) && r.url.endsWith('.js'));
  if (ours.length === 0) continue;
  processes += 1;
  for (const r of ours) {
    const { code, sourceMap, ast } = await script(r.url);
    const data = await convert({
      code,
      ast,
      sourceMap,
      coverage: { url: r.url, functions: r.functions },
      wrapperLength: 0,
    });
    // Only src/: the bundle also holds the dependencies.
    for (const file of Object.keys(data)) if (!file.startsWith(src)) delete data[file];
    // As JSON, like the in-process run's: an open end column (Infinity) becomes null there,
    // and the merge matches entries by their location written out.
    map.merge(JSON.parse(JSON.stringify(data)));
  }
}
map.filter((file) => file.startsWith(src));

// 3. Reports.
const context = libReport.createContext({ dir: out, coverageMap: map, defaultSummarizer: 'flat' });
reports.create('json-summary').execute(context);
reports.create('json').execute(context);

const folders = new Map();
for (const file of map.files()) {
  const rel = path.relative(src, file);
  const folder = path.dirname(rel) === '.' ? '(src)' : `${path.dirname(rel)}/`;
  const sum = folders.get(folder) ?? libCoverage.createCoverageSummary();
  sum.merge(map.fileCoverageFor(file).toSummary());
  folders.set(folder, sum);
}
const total = libCoverage.createCoverageSummary();
for (const s of folders.values()) total.merge(s);

const pct = (m) => (m.total === 0 ? '100.0' : ((100 * m.covered) / m.total).toFixed(1));
const rows = [
  ['folder', '% branches', 'uncovered', '% statements', '% functions', '% lines'],
  ...[...folders.keys()]
    .sort()
    .map((k) => [k, folders.get(k)])
    .concat([['all of src/', total]])
    .map(([k, s]) => [
      k,
      pct(s.branches),
      String(s.branches.total - s.branches.covered),
      pct(s.statements),
      pct(s.functions),
      pct(s.lines),
    ]),
];
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
const table = rows
  .map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '))
  .join('\n');
const text =
  `Coverage of src/: in-process tests + ${processes} spawned processes\n\n${table}\n\n` +
  `Per file: coverage/coverage-summary.json; merged detail: coverage/coverage-final.json\n`;
await writeFile(path.join(out, 'folders.txt'), text);
await rm(children, { recursive: true, force: true });
process.stdout.write(`\n${text}`);
process.exit(vitest.status ?? 1);
