// What the build and `npm pack` leave in the checkout stays out of git: a tarball committed by
// `git add .` would ship a stale copy of the package in the repository.
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};

describe('.gitignore', () => {
  it.each([`${pkg.name}-${pkg.version}.tgz`, 'dist/cli.js', 'node_modules/x'])(
    'ignores %s',
    async (file) => {
      // --no-index: asks the ignore rules alone, whether or not such a file exists or is tracked.
      const r = await execa('git', ['check-ignore', '--no-index', '-q', file], {
        cwd: root,
        reject: false,
      });
      expect(r.exitCode, `${file} is not ignored by .gitignore`).toBe(0);
    },
  );
});
