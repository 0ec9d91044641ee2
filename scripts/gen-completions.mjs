#!/usr/bin/env node
// Regenerates completions/ from the command tree: builds dist/, then writes exactly what
// `sched completion <shell>` prints. Run after changing commands or flags:
//   node scripts/gen-completions.mjs
// The bash and zsh scripts complete both names the tool is installed under (src/names.ts);
// fish loads a completion file per command name, so `schedcli` has its own, printed by
// `schedcli completion fish` (run here through a link of that name).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const COMPLETION_FILES = [
  ['sched', 'bash', 'sched.bash'],
  ['sched', 'zsh', '_sched'],
  ['sched', 'fish', 'sched.fish'],
  ['schedcli', 'fish', 'schedcli.fish'],
];

execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
mkdirSync(`${root}/completions`, { recursive: true });
const links = mkdtempSync(join(tmpdir(), 'sched-gen-completions-'));
try {
  for (const [name, shell, file] of COMPLETION_FILES) {
    const bin = join(links, name);
    if (name !== 'sched') symlinkSync(join(root, 'bin', 'sched.js'), bin);
    const script = execFileSync(
      process.execPath,
      [name === 'sched' ? 'bin/sched.js' : bin, 'completion', shell],
      { cwd: root, encoding: 'utf8' },
    );
    writeFileSync(`${root}/completions/${file}`, script);
    process.stderr.write(`wrote completions/${file}\n`);
  }
} finally {
  rmSync(links, { recursive: true, force: true });
}
