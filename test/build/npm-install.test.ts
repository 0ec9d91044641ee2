// `npm install` in a fresh clone, on each supported Node (20, the machine's; 22 and 24 from
// SCHED_NODE22_BIN / SCHED_NODE24_BIN, which .ci/run sets): no EBADENGINE warning (no locked
// package needs a newer Node than this one; the MCP Inspector, which needs Node >= 22.19, is
// installed only where its test runs, see .ci/run), and no changed file (the lock says what
// package.json says). npm resolves the tree with --package-lock-only, as `npm install` does
// before it writes anything, with npm's default log level: no warning is hidden.
// `engines` says what the toolchain needs: every locked package's range allows the lowest
// version of each line `engines` allows.
import { execa } from 'execa';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { unavailable } from '../helpers/skip.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FILES = ['package.json', 'package-lock.json'];
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The bin directory of each Node the clone is installed with (undefined: the machine's). */
const NODES: [string, string | undefined, string | false][] = [
  ['this Node', undefined, false],
  ...(['22', '24'] as const).map((v): [string, string | undefined, string | false] => {
    const dir = process.env[`SCHED_NODE${v}_BIN`];
    const why = !dir
      ? `npm install on Node ${v} needs SCHED_NODE${v}_BIN (.ci/run sets it)`
      : !existsSync(path.join(dir, 'node')) && `SCHED_NODE${v}_BIN has no node: ${dir}`;
    return [`Node ${v}`, dir, why];
  }),
];

describe('npm install in a fresh clone', () => {
  it.each(NODES)(
    '%s: no EBADENGINE line, no changed file',
    async (_, bin, why) => {
      if (unavailable(why)) return;
      const clone = mkdtempSync(path.join(tmpdir(), 'sched-npm-install-'));
      dirs.push(clone);
      for (const f of FILES) copyFileSync(path.join(root, f), path.join(clone, f));
      const env: Record<string, string | undefined> = {
        // npm's defaults: every warning shown, nothing of the caller's npm settings.
        npm_config_loglevel: 'warn',
        npm_config_package_lock: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
      };
      if (bin) env.PATH = `${bin}${path.delimiter}${process.env.PATH ?? ''}`;
      const r = await execa('npm', ['install', '--package-lock-only'], {
        cwd: clone,
        env,
        extendEnv: true,
        reject: false,
        all: true,
        timeout: 120_000,
      });
      const out = String(r.all);
      expect(r.exitCode, out).toBe(0);
      if (bin) {
        // npm starts with the first `node` on PATH: the one of `bin`.
        const onPath = await execa('node', ['--version'], { env, extendEnv: true });
        const wanted = await execa(path.join(bin, 'node'), ['--version']);
        expect(onPath.stdout).toBe(wanted.stdout);
      }
      expect(out).not.toMatch(/EBADENGINE/);
      for (const f of FILES) {
        expect(readFileSync(path.join(clone, f), 'utf8'), `${f} changed`).toBe(
          readFileSync(path.join(root, f), 'utf8'),
        );
      }
    },
    150_000,
  );
});

// semver is locked already (a dependency of istanbul and babel); declared for this test.
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
};

describe('engines', () => {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    engines: { node: string };
    devDependencies: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { engines?: { node?: string }; optional?: boolean }>;
  };
  /** The lowest version of each line of Node that `engines` allows. */
  const lowest = ['20.19.0', '22.13.0', '24.0.0'];

  it('allows the lowest version of each supported line, and nothing older', () => {
    for (const v of lowest) expect(semver.satisfies(v, pkg.engines.node), v).toBe(true);
    for (const v of ['20.18.1', '22.12.0', '18.20.0']) {
      expect(semver.satisfies(v, pkg.engines.node), v).toBe(false);
    }
  });

  it('no locked package needs more than the lowest version engines allows', () => {
    const tooNew = Object.entries(lock.packages).flatMap(([where, p]) => {
      const range = p.engines?.node;
      if (!where || !range) return [];
      return lowest
        .filter((v) => !semver.satisfies(v, range))
        .map((v) => `${where.replace(/^.*node_modules\//, '')} (${range}) refuses ${v}`);
    });
    expect(tooNew).toEqual([]);
  });

  it('the MCP Inspector is not a dependency every clone installs', () => {
    expect(Object.keys(pkg.devDependencies)).not.toContain('@modelcontextprotocol/inspector');
  });
});
