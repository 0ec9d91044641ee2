// The coverage report of a `SCHED_COVERAGE=1` test run (`npm run coverage`, CI's `npm test`),
// written by the test global setup's teardown once vitest has written its own in-process data.
//
// 1. vitest's V8 coverage of the in-process tests: coverage/in-process/coverage-final.json.
// 2. Every process a test spawns (bin/sched.js -> dist/, built with source maps) wrote raw V8
//    coverage to coverage/.v8-children (NODE_V8_COVERAGE, test/helpers/child-coverage.ts); each
//    is mapped from dist/ back onto src/ with the converter vitest itself uses
//    (ast-v8-to-istanbul), so both have the same shape, and merged with the in-process data.
// 3. Written: coverage/coverage-final.json (merged), coverage/coverage-summary.json (per file
//    and total), coverage/folders.txt (the per-folder table), coverage/uncovered.txt (every branch
//    arm never taken, with its source line: scripts/coverage-uncovered.mjs).
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mergeProcessCovs } from '@bcoe/v8-coverage';
import convert from 'ast-v8-to-istanbul';
import libCoverage from 'istanbul-lib-coverage';
import libReport from 'istanbul-lib-report';
import reports from 'istanbul-reports';
import { parseAstAsync } from 'vitest/node';
import { uncoveredArms } from './coverage-uncovered.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
export const coverageDir = path.join(root, 'coverage');
/** Where spawned processes write their raw V8 coverage (NODE_V8_COVERAGE). */
export const childrenDir = path.join(coverageDir, '.v8-children');
const src = path.join(root, 'src') + path.sep;
const distUrl = pathToFileURL(path.join(root, 'dist')).href + '/';

/** Before the run: no leftovers of an earlier one. */
export async function prepareCoverage() {
  for (const name of [
    '.v8-children',
    'coverage-final.json',
    'coverage-summary.json',
    'folders.txt',
    'uncovered.txt',
  ])
    await rm(path.join(coverageDir, name), { recursive: true, force: true });
  await mkdir(childrenDir, { recursive: true });
}

const key = ({ start, end }) => `${start.line}|${start.column}|${end.line}|${end.column}`;

/**
 * Puts a spawned process's counts on the in-process entries they belong to. Mapped back
 * through the bundle's source map, an entry can start a few columns off (esbuild writes
 * `} else if`, and the map points at the `if` differently); merged as is, it would count as a
 * second, never-covered branch. The in-process data describes every file of src/ (vitest
 * converts the files no test loaded too), so it is the reference: an entry of the child's is
 * matched exactly, else to the entry of the same kind on the same lines with the nearest start
 * column, else dropped (it exists only in the bundle, like a helper esbuild adds).
 */
function alignTo(base, child) {
  const align = (hits, items, baseItems, locOf, same) => {
    const exact = new Set(Object.values(baseItems).map((b) => key(locOf(b))));
    for (const id of Object.keys(items)) {
      const loc = locOf(items[id]);
      if (exact.has(key(loc))) continue;
      let best;
      for (const b of Object.values(baseItems)) {
        const bl = locOf(b);
        if (bl.start.line !== loc.start.line || bl.end.line !== loc.end.line) continue;
        if (!same(b, items[id])) continue;
        const d = Math.abs(bl.start.column - loc.start.column);
        if (!best || d < best.d) best = { b, d };
      }
      if (best) items[id] = structuredClone(best.b);
      else {
        delete items[id];
        delete hits[id];
      }
    }
  };
  align(
    child.s,
    child.statementMap,
    base.statementMap,
    (x) => x,
    () => true,
  );
  align(
    child.f,
    child.fnMap,
    base.fnMap,
    (x) => x.loc,
    () => true,
  );
  align(
    child.b,
    child.branchMap,
    base.branchMap,
    (x) => x.locations[0],
    (a, b) => a.type === b.type && a.locations.length === b.locations.length,
  );
}

const pct = (m) => (m.total === 0 ? 100 : (100 * m.covered) / m.total);

/**
 * Merges, writes the reports and returns the table and the overall branch figure.
 * @returns {Promise<{ text: string, branches: number }>}
 */
export async function writeCoverageReport() {
  const map = libCoverage.createCoverageMap({});
  map.merge(
    JSON.parse(await readFile(path.join(coverageDir, 'in-process', 'coverage-final.json'), 'utf8')),
  );

  // All processes' raw coverage of dist/ merged first (V8's own format, summed range by range
  // the way vitest merges its workers'), then mapped onto src/ once per script: converting each
  // process's copy would parse and walk the bundle hundreds of times.
  let processes = 0;
  let merged = { result: [] };
  for (const name of await readdir(childrenDir)) {
    if (!name.endsWith('.json')) continue;
    const raw = JSON.parse(await readFile(path.join(childrenDir, name), 'utf8'));
    const ours = raw.result.filter((r) => r.url.startsWith(distUrl) && r.url.endsWith('.js'));
    if (ours.length === 0) continue;
    processes += 1;
    merged = mergeProcessCovs([merged, { result: ours }]);
  }
  const inProcessFiles = new Set(map.files());
  for (const r of merged.result) {
    const file = fileURLToPath(r.url);
    const code = await readFile(file, 'utf8');
    const data = await convert({
      code,
      ast: await parseAstAsync(code),
      sourceMap: JSON.parse(await readFile(`${file}.map`, 'utf8')),
      coverage: { url: r.url, functions: r.functions },
      wrapperLength: 0,
    });
    // Only src/: the bundle also holds the dependencies.
    for (const f of Object.keys(data)) if (!f.startsWith(src)) delete data[f];
    // As JSON, like the in-process run's: an open end column (Infinity) becomes null there,
    // and the merge matches entries by their location written out.
    const json = JSON.parse(JSON.stringify(data));
    for (const f of Object.keys(json)) {
      if (inProcessFiles.has(f)) alignTo(map.fileCoverageFor(f).data, json[f]);
    }
    map.merge(json);
  }
  map.filter((file) => file.startsWith(src));

  const context = libReport.createContext({
    dir: coverageDir,
    coverageMap: map,
    defaultSummarizer: 'flat',
  });
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

  const rows = [
    ['folder', '% branches', 'uncovered', '% statements', '% functions', '% lines'],
    ...[...folders.keys()]
      .sort()
      .map((k) => [k, folders.get(k)])
      .concat([['all of src/', total]])
      .map(([k, s]) => [
        k,
        pct(s.branches).toFixed(1),
        String(s.branches.total - s.branches.covered),
        pct(s.statements).toFixed(1),
        pct(s.functions).toFixed(1),
        pct(s.lines).toFixed(1),
      ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const table = rows
    .map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '))
    .join('\n');
  const text =
    `Coverage of src/: in-process tests + ${processes} spawned processes\n\n${table}\n\n` +
    `Per file: coverage/coverage-summary.json; each branch never taken: coverage/uncovered.txt\n`;
  await writeFile(path.join(coverageDir, 'folders.txt'), text);
  await writeFile(path.join(coverageDir, 'uncovered.txt'), await uncoveredArms(map.toJSON()));
  await rm(childrenDir, { recursive: true, force: true });
  return { text, branches: pct(total.branches) };
}
