// The file-system care the config store needs and conf does not give: modes tightened to
// what a file holding API keys should have, and a lock file around read-modify-write so two
// `sched auth login` runs cannot lose each other's profile. Synchronous, like conf itself.
import type { Stats } from 'node:fs';
import { Failure } from '../errors.js';

import { currentUid, octal } from './ownership.js';

const fs = process.getBuiltinModule('node:fs');
const os = process.getBuiltinModule('node:os');
const path = process.getBuiltinModule('node:path');

export { currentUid, octal, POSIX } from './ownership.js';

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** `CODE: message` of a file-system error, without Node's repeated code prefix. */
export function describeFsError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code ? `${err.code}: ${err.message.replace(/^\w+: /, '')}` : String(e);
}

/** Narrows the mode of a file or directory we own when it is wider than `want`. */
export function tighten(p: string, want: number, what: string, warn: (line: string) => void): void {
  let st: Stats;
  try {
    st = fs.statSync(p);
  } catch {
    return;
  }
  const mode = st.mode & 0o7777;
  if ((mode & 0o777 & ~want) === 0) return;
  const uid = currentUid();
  // Never chmod a shared directory (sticky like /tmp, the home directory, someone else's):
  // say so instead.
  const shared =
    (st.isDirectory() && (mode & 0o1000 || path.resolve(p) === path.resolve(os.homedir()))) ||
    (uid !== undefined && st.uid !== uid);
  if (shared) {
    warn(
      `warning: the ${what} ${p} is shared (mode ${octal(mode)}); point SCHED_CONFIG_DIR at a private directory`,
    );
    return;
  }
  try {
    fs.chmodSync(p, want);
    warn(
      `warning: the ${what} ${p} had mode ${octal(mode)}; changed it to ${octal(want)} (it holds API keys)`,
    );
  } catch (e) {
    warn(
      `warning: the ${what} ${p} has mode ${octal(mode)} and could not be changed (${describeFsError(e)})`,
    );
  }
}

/** Runs fn holding an exclusive lock file beside the config file (waits up to `waitMs`). */
export function withLock<T>(file: string, fn: () => T, waitMs = 5_000): T {
  const lock = `${file}.lock`;
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lock, 'wx', 0o600));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new Failure(`cannot lock the config file ${file}: ${describeFsError(e)}`);
      }
      // A lock older than 10 s belongs to a process that died mid-write.
      try {
        if (Date.now() - fs.statSync(lock).mtimeMs > 10_000) fs.rmSync(lock, { force: true });
      } catch {
        // It went away meanwhile: try again.
      }
      if (Date.now() > deadline) {
        throw new Failure(`the config file ${file} is locked by another sched process`, {
          hint: `if no other sched is running, delete "${lock}"`,
        });
      }
      sleepSync(15 + Math.random() * 20);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}
