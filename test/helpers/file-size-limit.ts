// A real failing write to a regular file: the built CLI run under a file size limit
// (RLIMIT_FSIZE, set by util-linux `prlimit`). A write past it fails with EFBIG — Node ignores
// SIGXFSZ, so the process is not killed — after writing what fits. /dev/full cannot stand in:
// the files a user names must be regular files, and /dev/full is refused before any write.
import { execa } from 'execa';
import { BIN, type RunResult } from './run.js';

/** Whether `prlimit` runs here (Linux with util-linux; CI installs it). */
export const PRLIMIT: boolean = await execa('prlimit', ['--version'], { reject: false }).then(
  (r) => r.exitCode === 0,
  () => false,
);

/** `sched <argv>` started with no file it writes allowed past `bytes` (a long-running one). */
export function spawnWithFileLimit(
  bytes: number,
  argv: string[],
  env: Record<string, string | undefined> = {},
) {
  return execa('prlimit', [`--fsize=${bytes}:${bytes}`, '--', process.execPath, BIN, ...argv], {
    reject: false,
    input: '',
    stripFinalNewline: false,
    // No V8 coverage from this child (`npm run coverage`): the limit would cut its coverage
    // file too, and the report could not read it.
    env: {
      NO_COLOR: '1',
      FORCE_COLOR: undefined,
      CI: undefined,
      NODE_V8_COVERAGE: undefined,
      ...env,
    },
  });
}

/** `sched <argv>` run to its end with no file it writes allowed past `bytes`. */
export async function schedWithFileLimit(
  bytes: number,
  argv: string[],
  env: Record<string, string | undefined> = {},
): Promise<RunResult> {
  const r = await spawnWithFileLimit(bytes, argv, env);
  return { code: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr };
}
