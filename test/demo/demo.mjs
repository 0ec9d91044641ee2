// PLACEHOLDER tour until the sandbox lands: shows the command tree.
import { execFileSync } from 'node:child_process';
const bin = new URL('../../bin/sched.js', import.meta.url).pathname;
process.stdout.write(execFileSync(process.execPath, [bin, '--help']));
