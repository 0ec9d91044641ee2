// One rule: a test is skipped only through test/helpers/skip.ts (or the helpers built on it:
// noTmux, noShell), so that under CI=true a suite that cannot run fails instead of passing
// quietly, and elsewhere a skip says why.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runsElsewhere, unavailable } from '../helpers/skip.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const GUARDS = /\b(unavailable|runsElsewhere|noTmux|noShell|NO_BROWSER)\b/;
const SKIP = /\.(skipIf|runIf)\(|\bt\.skip\(|\b(it|describe|test)\.skip\(|\.todo\(/g;

/** Each skip in `text` that no guard decides, as `line n`. */
function unguardedSkips(text: string): string[] {
  const bad: string[] = [];
  for (const m of text.matchAll(SKIP)) {
    // The guard is the skipIf's argument (after it) or the t.skip's condition (before it).
    const window = text.slice(Math.max(0, m.index - 400), m.index + 300);
    if (!GUARDS.test(window)) bad.push(`line ${text.slice(0, m.index).split('\n').length}`);
  }
  return bad;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? testFiles(join(dir, e.name))
      : /\.test\.ts$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

describe('skips', () => {
  it('every skip in test/ goes through a guard of test/helpers/skip.ts', () => {
    const bad = testFiles(join(root, 'test'))
      .filter((f) => !f.endsWith('skips.test.ts'))
      .flatMap((f) =>
        unguardedSkips(readFileSync(f, 'utf8')).map((l) => `${relative(root, f)} ${l}`),
      );
    expect(bad).toEqual([]);
  });

  it('finds a planted bare skipIf and a bare t.skip', () => {
    const planted =
      "import { it } from 'vitest';\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n" +
      "it.skipIf(!hasTool)('x', () => {});\n" +
      ''.padEnd(500, '/') +
      "\nit('y', (t) => { if (!ok) t.skip('no tool'); });\n";
    expect(unguardedSkips(planted)).toEqual(['line 16', 'line 18']);
  });

  it('under CI=true a missing tool throws; elsewhere it skips; another platform skips in CI too', () => {
    const ci = process.env.CI;
    try {
      process.env.CI = 'true';
      expect(() => unavailable('frobnicate is not installed')).toThrow(
        /frobnicate is not installed: under CI=true this test must run/,
      );
      expect(unavailable(false)).toBe(false);
      expect(runsElsewhere('Windows only')).toBe(true);
      process.env.CI = '';
      expect(unavailable('frobnicate is not installed')).toBe(true);
      expect(runsElsewhere(false)).toBe(false);
    } finally {
      if (ci === undefined) delete process.env.CI;
      else process.env.CI = ci;
    }
  });
});
