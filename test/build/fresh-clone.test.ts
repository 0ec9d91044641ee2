// A fresh clone run as `./bin/sched.js` before `npm install`: no dist/, no node_modules. It
// says in one line what to run (no Node stack) and exits 1; `--version` needs neither.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
let clone: string;

beforeAll(() => {
  // What git checks out that this path reads: bin/, scripts/, package.json.
  clone = fs.mkdtempSync(path.join(os.tmpdir(), 'sched-clone-'));
  for (const d of ['bin', 'scripts']) {
    fs.cpSync(path.join(root, d), path.join(clone, d), { recursive: true });
  }
  fs.copyFileSync(path.join(root, 'package.json'), path.join(clone, 'package.json'));
});
afterAll(() => fs.rmSync(clone, { recursive: true, force: true }));

const run = (args: string[]) =>
  execa(process.execPath, [path.join(clone, 'bin', 'sched.js'), ...args], {
    cwd: clone,
    reject: false,
    env: { NO_COLOR: '1' },
  });

describe('./bin/sched.js in a fresh clone before npm install', () => {
  it.each([[['types', 'list']], [['--help']], [[]]])(
    '%j: one line saying what to run, exit 1',
    async (args) => {
      const r = await run(args);
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `sched: this clone is not built yet: run \`npm install && npm run build\` in ${clone}`,
      );
      expect(fs.existsSync(path.join(clone, 'dist'))).toBe(false);
    },
  );

  it('--version answers without dist/', async () => {
    const r = await run(['--version']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
