// Whether the config directory and file can be trusted before anything in them is used. A
// profile holds a base URL, and the key (from the profile or SCHED_API_KEY) is sent there: a
// file someone else could write (planted in a shared directory, or writable by others) would
// send the key to their server. Such a file or directory is refused — never just warned about —
// before any request. Symbolic links are not followed for writing.
import { Failure, UsageError } from '../errors.js';
import type { Stats } from 'node:fs';
import { distrust, distrustStat, octal, writableBy, type Distrust } from './ownership.js';
import { shellCommand } from '../text/quote.js';

const fs = process.getBuiltinModule('node:fs');

function lstat(p: string): Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

/** What a user can do about a config directory of another user without being root. */
const OTHERS_DIR_HINT =
  'use a directory of your own: export SCHED_CONFIG_DIR="$HOME/.sched"; ' +
  'with SCHED_API_KEY and SCHED_BASE_URL set, no profile is needed';

/**
 * Refuses a config directory owned by another user (exit 1), or writable by others without the
 * sticky bit (anyone could replace config.json), and a config file owned by another user or
 * writable by others (the rule is distrust(), shared with the sandbox's --state file). Nothing
 * that does not exist yet is refused: it will be created private.
 */
export function checkConfigTrust(dir: string, file: string): void {
  const d = distrust(dir);
  if (d?.why === 'owner') {
    // Exit 1, not 2: the command line is right, the directory is not, and a user who is not
    // root cannot chown it. Typed, so a command that needs no profile goes on without it.
    throw new Failure(
      `the config directory ${dir} belongs to another user (uid ${d.uid}); sched will not use a profile someone else can change`,
      { hint: OTHERS_DIR_HINT, code: 'config_untrusted' },
    );
  }
  if (d?.why === 'writable') {
    throw new UsageError(
      `the config directory ${dir} is ${writableBy(d)} (mode ${octal(d.mode)}); ${d.by === 'group' ? 'its members' : 'anyone'} could replace its config.json`,
      {
        hint: `check the base URLs in it (${shellCommand`grep baseUrl ${file}`}), then ${shellCommand`chmod 700 ${dir}`}; or point SCHED_CONFIG_DIR elsewhere`,
      },
    );
  }
  checkConfigFile(file, distrust(file));
}

function checkConfigFile(file: string, f: Distrust | undefined): void {
  if (f?.why === 'owner') {
    throw new UsageError(
      `the config file ${file} belongs to another user (uid ${f.uid}); sched will not send your key to a profile someone else wrote`,
      {
        hint: `if you did not create it, delete it (${shellCommand`rm ${file}`}) and run \`sched auth login\`; else ${shellCommand`chown "$(id -un)" ${file}`}`,
      },
    );
  }
  if (f?.why === 'writable') {
    throw new UsageError(
      `the config file ${file} is ${writableBy(f)} (mode ${octal(f.mode)}); ${f.by === 'group' ? 'its members' : 'anyone'} could have changed its profiles, and your key would go to their base URL`,
      {
        hint: `check the base URLs in it (${shellCommand`grep baseUrl ${file}`}), then ${shellCommand`chmod 600 ${file}`}`,
      },
    );
  }
}

/** Why a config.json that is a directory, a FIFO or a device is not read (`ENOTREG`). */
function notRegular(): NodeJS.ErrnoException {
  return Object.assign(new Error('it is not a regular file'), { code: 'ENOTREG' });
}

/**
 * Refuses a config.json that exists and is not a regular file (a directory, a FIFO, a
 * device) before anything changes it: tightening its mode first would chmod a directory to
 * 0600 (losing its x bit) or someone else's FIFO. A symbolic link is judged where it is read.
 * Throws what readTrustedConfig throws for it, so both are worded alike.
 */
export function checkConfigRegular(file: string): void {
  const l = lstat(file);
  if (l && !l.isFile() && !l.isSymbolicLink()) throw notRegular();
}

/** Profiles are a few hundred bytes each: 1 MiB is thousands. A bigger file is not read. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The config file's text, read from one descriptor whose fstat passed the trust rule (never a
 * check of the path and then a read of whatever is at the path by then); undefined when absent.
 */
export function readTrustedConfig(file: string): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw notRegular();
    checkConfigFile(file, distrustStat(st));
    if (st.size > MAX_CONFIG_BYTES) {
      throw Object.assign(
        new Error(`it is larger than ${MAX_CONFIG_BYTES / 1024 / 1024} MiB, which no config is`),
        { code: 'EFBIG' },
      );
    }
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Refuses to write through a config.json that is a symbolic link (exit 2): writing would either
 * change the file it points to, or silently replace the link with a file (conf writes a
 * temporary file and renames it over the path).
 */
export function checkConfigWritable(file: string): void {
  const l = lstat(file);
  if (l?.isSymbolicLink()) {
    let target = '';
    try {
      target = ` (to ${fs.readlinkSync(file)})`;
    } catch {
      // Gone meanwhile: the path alone says enough.
    }
    throw new UsageError(
      `the config file ${file} is a symbolic link${target}; sched does not write through links`,
      {
        hint: `replace the link with a regular file (mv, or cp --remove-destination), or point SCHED_CONFIG_DIR at another directory`,
      },
    );
  }
}
