// `npm install` in a clone: npm 11 warns about every dependency whose install script
// package.json's allowScripts does not decide ("install scripts not yet covered by
// allowScripts"). Each one locked with an install script is decided there; esbuild's is denied:
// it only checks the platform binary, which npm installs as an optional dependency
// (@esbuild/<platform>), so the build works without it. (The MCP Inspector, a test tool with
// an install script, is no dependency: .ci/inspector/package.json denies its script where
// .ci/run installs it.)
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const read = (f: string) =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../${f}`, import.meta.url)), 'utf8')) as {
    allowScripts?: Record<string, boolean>;
    packages?: Record<string, { hasInstallScript?: boolean }>;
  };

describe('install scripts of dependencies', () => {
  it('every locked package with an install script is decided in allowScripts', () => {
    const allow = read('package.json').allowScripts ?? {};
    const withScripts = Object.entries(read('package-lock.json').packages ?? {})
      .filter(([, p]) => p.hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect(withScripts).toContain('esbuild');
    for (const name of withScripts) expect(Object.keys(allow), name).toContain(name);
  });

  it("esbuild's is denied, and its platform binary is installed without it", async () => {
    expect(read('package.json').allowScripts?.esbuild).toBe(false);
    const { transform } = await import('esbuild');
    expect((await transform('let a: number = 1', { loader: 'ts' })).code).toBe('let a = 1;\n');
  });
});
