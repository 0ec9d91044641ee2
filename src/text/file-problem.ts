// Why a file could not be read, in the words every command uses ("no such file", …), from
// the error fs threw. One home for `--input`, `--file` and `--payload-file`.

export function fileProblem(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENXIO' || code === 'ENOTREG') return 'it is not a regular file';
  return e instanceof Error ? e.message : (code ?? String(e));
}
