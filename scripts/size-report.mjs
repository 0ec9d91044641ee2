// Where the hard rooms are: lines of src/ per folder, and the longest, deepest and most
// branched functions, from ESLint's own max-lines-per-function, max-depth and complexity
// (eslint.config.js, SIZE_RULES: warnings at 60 lines, depth 4, complexity 15).
//
//   npm run size              # the folders and the 15 longest functions, then the rest over a limit
//   npm run size -- --top 30  # more of them
//   npm run size -- --json    # everything, for a script
import { ESLint } from 'eslint';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const json = args.includes('--json');
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 15;

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

// Lines per folder (non-blank), as the folders of ARCHITECTURE.md's table.
const perFolder = new Map();
for (const f of files(join(root, 'src'))) {
  const folder = dirname(relative(join(root, 'src'), f)) || '.';
  const lines = readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '').length;
  perFolder.set(folder, (perFolder.get(folder) ?? 0) + lines);
}

// Every function measured: the rules at 0 report every function with its size in the message.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['warn', { max: 0, skipBlankLines: true, skipComments: true }],
      complexity: ['warn', 0],
      'max-depth': ['warn', 0],
    },
  },
});
const results = await eslint.lintFiles(['src/**/*.ts']);
const fns = new Map();
let deepest = [];
for (const r of results) {
  const file = relative(root, r.filePath);
  for (const m of r.messages) {
    const key = `${file}:${m.line}`;
    const m2 = /\((\d+)\)|complexity of (\d+)/.exec(m.message);
    const n = Number(m2?.[1] ?? m2?.[2]);
    if (m.ruleId === 'max-depth') {
      deepest.push({ at: key, depth: n });
      continue;
    }
    const name = /^(.*?) has (too many lines|a complexity)/.exec(m.message)?.[1] ?? 'function';
    const fn = fns.get(key) ?? { at: key, name, lines: 0, complexity: 0 };
    if (m.ruleId === 'max-lines-per-function') fn.lines = n;
    if (m.ruleId === 'complexity') fn.complexity = n;
    fns.set(key, fn);
  }
}
const all = [...fns.values()].sort((a, b) => b.lines - a.lines);
deepest = deepest.sort((a, b) => b.depth - a.depth);

if (json) {
  process.stdout.write(
    JSON.stringify({ folders: Object.fromEntries(perFolder), functions: all, depth: deepest }) +
      '\n',
  );
} else {
  const out = [];
  out.push('lines of src/ (non-blank) per folder:');
  for (const [folder, n] of [...perFolder].sort((a, b) => b[1] - a[1])) {
    out.push(`  ${String(n).padStart(6)}  ${folder}/`);
  }
  out.push('', `the ${top} longest functions (lines, complexity):`);
  for (const f of all.slice(0, top)) {
    out.push(
      `  ${String(f.lines).padStart(4)}  ${String(f.complexity).padStart(3)}  ${f.at}  ${f.name}`,
    );
  }
  const over = all.filter((f) => f.lines > 60 || f.complexity > 15);
  out.push('', `over a limit (60 lines or complexity 15): ${over.length} functions`);
  const deep = deepest.filter((d) => d.depth > 4);
  out.push(`nested deeper than 4: ${deep.map((d) => `${d.at} (${d.depth})`).join(', ') || 'none'}`);
  process.stdout.write(out.join('\n') + '\n');
}
