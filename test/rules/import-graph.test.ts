// The import graph of src/ has no cycle, type-only imports and lazy `import()`s included
// (ARCHITECTURE.md: a verb takes its options type from its noun's inputs.ts, never from the
// index.ts that loads it). The detector itself is shown to find a planted cycle of each kind.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cyclesOf, importGraph, importsOf } from '../helpers/import-graph.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('import graph of src/', () => {
  it('has no cycle', () => {
    const graph = importGraph(root, 'src');
    expect(graph.size).toBeGreaterThan(100);
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('sees type-only imports, re-exports and lazy loads', () => {
    const text = [
      "import type { A } from './a.js';",
      "export type { B } from './b.js';",
      "import { c } from 'commander';",
      "const load = () => import('./d.js');",
      "type E = import('./e.js').E;",
    ].join('\n');
    expect(importsOf('x.ts', text)).toEqual(['./a.js', './b.js', './d.js', './e.js']);
  });

  it('finds a planted cycle: a verb importing its type from the index that loads it', () => {
    const planted = new Map([
      ['src/commands/x/index.ts', ['src/commands/define.ts', 'src/commands/x/run.ts']],
      ['src/commands/x/run.ts', ['src/commands/x/index.ts', 'src/errors.ts']],
      ['src/commands/define.ts', []],
      ['src/errors.ts', []],
      ['src/self.ts', ['src/self.ts']],
    ]);
    expect(cyclesOf(planted)).toEqual([
      ['src/commands/x/index.ts', 'src/commands/x/run.ts'],
      ['src/self.ts'],
    ]);
  });
});
