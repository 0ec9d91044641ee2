#!/usr/bin/env node
// Regenerates completions/ from the command tree: builds dist/, then writes exactly what
// `sched completion <shell>` prints. Run after changing commands or flags:
//   node scripts/gen-completions.mjs
import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const COMPLETION_FILES = { bash: 'sched.bash', zsh: '_sched', fish: 'sched.fish' };

execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
mkdirSync(`${root}/completions`, { recursive: true });
for (const [shell, file] of Object.entries(COMPLETION_FILES)) {
  const script = execFileSync(process.execPath, ['bin/sched.js', 'completion', shell], {
    cwd: root,
    encoding: 'utf8',
  });
  writeFileSync(`${root}/completions/${file}`, script);
  process.stderr.write(`wrote completions/${file}\n`);
}
