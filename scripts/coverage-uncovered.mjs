#!/usr/bin/env node
// node scripts/coverage-uncovered.mjs [path prefix ...]: every branch arm of src/ that the last
// coverage run (`npm run coverage`: coverage/coverage-final.json) never took, one line each,
//   src/sandbox/page.ts:187:7  if  │ if (!link) return notFoundPage();
// naming the arm by its kind and position ('if', 'if (else)', 'cond-expr (2 of 2)', ...) and
// showing the source line it starts on. Prefixes (like `src/sandbox`) narrow the list; the last
// line counts what was listed. The coverage run writes the whole list to coverage/uncovered.txt.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const armName = (type, i, n) => {
  if (type === 'if') return i === 0 ? 'if' : 'if (else)';
  return n === 1 ? type : `${type} (${i + 1} of ${n})`;
};

/**
 * The uncovered arms of an istanbul coverage map (coverage-final.json's shape), as text.
 * @param {Record<string, any>} map
 * @param {string[]} [prefixes] absolute path prefixes to keep (all when empty)
 */
export async function uncoveredArms(map, prefixes = []) {
  const out = [];
  for (const file of Object.keys(map).sort()) {
    if (prefixes.length > 0 && !prefixes.some((p) => file.startsWith(p))) continue;
    const { branchMap, b } = map[file];
    const lines = (await readFile(file, 'utf8')).split('\n');
    const rel = path.relative(root, file);
    const arms = [];
    for (const id of Object.keys(branchMap)) {
      const { type, locations, loc } = branchMap[id];
      b[id].forEach((hits, i) => {
        if (hits > 0) return;
        // An `if` without an else has no location of its own for the else: it is the if's.
        const at = locations[i]?.start?.line != null ? locations[i].start : loc.start;
        const col = (at.column ?? 0) + 1;
        const source = (lines[at.line - 1] ?? '').trim();
        arms.push({
          line: at.line,
          col,
          text: `${rel}:${at.line}:${col}  ${armName(type, i, b[id].length)}  │ ${source}`,
        });
      });
    }
    arms.sort((x, y) => x.line - y.line || x.col - y.col);
    out.push(...arms.map((a) => a.text));
  }
  out.push(`${out.length} uncovered branch arm${out.length === 1 ? '' : 's'}`);
  return out.join('\n') + '\n';
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let map;
  try {
    map = JSON.parse(await readFile(path.join(root, 'coverage', 'coverage-final.json'), 'utf8'));
  } catch {
    console.error(
      'coverage-uncovered: no coverage/coverage-final.json; run `npm run coverage` first',
    );
    process.exit(2);
  }
  process.stdout.write(
    await uncoveredArms(
      map,
      process.argv.slice(2).map((p) => path.resolve(p)),
    ),
  );
}
