// Where a generated signing secret goes when it must not go to stdout (`webhooks add
// --secret-out <file>`): a file the user named, mode 0600, opened before the webhook is created so
// a path that cannot be written stops everything before anything exists.
//
// The file is created new. The one existing file it writes into is an empty regular file of ours
// (what `mktemp` makes, the usual way a CI step gets a private path); anything else is refused,
// since overwriting a file that holds a secret would lose the secret of another webhook. A
// symbolic link is never followed: one planted at the path must not redirect the secret.
import { constants } from 'node:fs';
import { lstat, open, unlink, type FileHandle } from 'node:fs/promises';
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

const WRITE = constants.O_WRONLY | constants.O_NOFOLLOW;

function refuse(path: string, why: string): UsageError {
  return new UsageError(`--secret-out ${quote(path)}: ${why}`, {
    hint: 'name a new file (or an empty one, as mktemp makes); a secret is never overwritten',
  });
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
    if (!st.isFile()) throw refuse(path, 'it exists and is not a regular file');
    if (st.size > 0) throw refuse(path, 'it exists and is not empty');
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) {
      throw refuse(path, 'it exists and belongs to another user');
    }
    try {
      fh = await open(path, WRITE);
    } catch (err) {
      throw refuse(path, fileProblem(err));
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
