// Where a generated signing secret goes when it must not go to stdout (`webhooks add
// --secret-out <file>`): a file the user named, mode 0600, opened before the webhook is created so
// a path that cannot be written stops everything before anything exists.
//
// The file is created new. The one existing file it writes into is an empty regular file of ours
// of mode 0600 with no other name (what `mktemp` makes, the usual way a CI step gets a private
// path); anything else is refused, since overwriting a file that holds a secret would lose the
// secret of another webhook, and a file that was ever readable by others (or has another hard
// link) may be open in another user's process already: making it 0600 then does not stop that
// descriptor from reading the secret. A symbolic link is never followed: one planted at the path
// must not redirect the secret. What is judged is the open descriptor (fstat), not the path.
import { constants, type Stats } from 'node:fs';
import { lstat, open, unlink, type FileHandle } from 'node:fs/promises';
import { octal } from '../../config/ownership.js';
import { UsageError } from '../../errors.js';
import { fileProblem } from '../../text/file-problem.js';
import { quote } from '../../text/quote.js';

export interface SecretFile {
  readonly path: string;
  /** Writes the secret (one line) and closes the file. */
  write(secret: string): Promise<void>;
  /** Nothing was created after all: removes a file this opened new, else leaves it empty. */
  discard(): Promise<void>;
}

const WRITE = constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** The one existing file --secret-out writes into: its help and its refusals say it alike. */
export const SECRET_OUT_EXISTING = 'an empty file of mode 0600, as mktemp makes';

function refuse(path: string, why: string): UsageError {
  return new UsageError(`--secret-out ${quote(path)}: ${why}`, {
    hint: `name a new file (or ${SECRET_OUT_EXISTING}); a secret is never overwritten`,
  });
}

/** Why an existing file, as fstat sees its open descriptor, cannot take the secret. */
function existingProblem(st: Stats): string | undefined {
  if (!st.isFile()) return 'it exists and is not a regular file';
  if (st.size > 0) return 'it exists and is not empty';
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) {
    return 'it exists and belongs to another user';
  }
  if (st.mode & 0o077) {
    return `it exists with mode ${octal(st.mode)}, open to others (a reader may have it open already); it must be 0600`;
  }
  if (st.nlink > 1) return 'it has other hard links (another name for the same file)';
  return undefined;
}

/** Opens `path` for a generated secret, or throws a usage error saying why it cannot. */
export async function openSecretFile(path: string): Promise<SecretFile> {
  let fh: FileHandle;
  let created = true;
  try {
    fh = await open(path, WRITE | constants.O_CREAT | constants.O_EXCL, 0o600);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') throw refuse(path, fileProblem(e));
    const st = await lstat(path).catch((err: unknown) => {
      throw refuse(path, fileProblem(err));
    });
    if (st.isSymbolicLink()) throw refuse(path, 'it is a symbolic link');
    // A FIFO or a device is never opened at all…
    if (!st.isFile()) throw refuse(path, 'it exists and is not a regular file');
    try {
      fh = await open(path, WRITE);
    } catch (err) {
      throw refuse(path, fileProblem(err));
    }
    // …and the rest is judged on the descriptor: a file swapped in meanwhile is never written.
    const problem = await fh.stat().then(existingProblem, fileProblem);
    if (problem !== undefined) {
      await fh.close().catch(() => undefined);
      throw refuse(path, problem);
    }
    created = false;
  }
  try {
    await fh.chmod(0o600);
  } catch (e) {
    await fh.close().catch(() => undefined);
    throw refuse(path, fileProblem(e));
  }
  let open_ = true;
  const close = async () => {
    if (!open_) return;
    open_ = false;
    await fh.close().catch(() => undefined);
  };
  return {
    path,
    async write(secret) {
      try {
        await fh.writeFile(`${secret}\n`);
        await fh.sync();
      } finally {
        await close();
      }
    },
    async discard() {
      await close();
      if (created) await unlink(path).catch(() => undefined);
    },
  };
}
