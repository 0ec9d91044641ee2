// Where sched keeps its files on each platform, like env-paths (without its "-nodejs" suffix):
// the config (profiles) and the cache (Node's compile cache, completion candidates). One rule
// for both, and one for making and trusting a private directory there; a leaf module (Node's
// builtins through process.getBuiltinModule: it is used on every start, before anything).

type Env = Record<string, string | undefined>;

/** The entries of a colon-separated database (/etc/group, /etc/passwd); none when unreadable. */
function entries(file: string): string[][] {
  try {
    return process
      .getBuiltinModule('node:fs')
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.split(':'));
  } catch {
    return [];
  }
}

let privateGroups: Map<number, boolean> | undefined;

/**
 * OpenSSH's rule for a group-writable file: harmless only when its group is the user's own
 * private group — the user's primary group, of the user's name, with no other member and no
 * other user's primary group. Anything unknown (no such entry, a directory service) is not.
 */
export function isPrivateGroup(gid: number): boolean {
  privateGroups ??= new Map();
  const known = privateGroups.get(gid);
  if (known !== undefined) return known;
  let ok = false;
  if (typeof process.getgid === 'function' && gid === process.getgid()) {
    const user = process.getBuiltinModule('node:os').userInfo().username;
    const group = entries('/etc/group').find((g) => Number(g[2]) === gid);
    const members = (group?.[3] ?? '').split(',').filter(Boolean);
    ok =
      group?.[0] === user &&
      members.every((m) => m === user) &&
      !entries('/etc/passwd').some((p) => Number(p[3]) === gid && p[0] !== user);
  }
  privateGroups.set(gid, ok);
  return ok;
}

/**
 * `kind`'s directory for sched on `platform`:
 * - macOS: ~/Library/Preferences/sched, ~/Library/Caches/sched
 * - Windows: %APPDATA%\sched\Config, %LOCALAPPDATA%\sched\Cache (else under the profile)
 * - others: $XDG_CONFIG_HOME/sched, $XDG_CACHE_HOME/sched, else ~/.config/sched, ~/.cache/sched;
 *   an XDG variable that is not an absolute path is invalid and ignored (the XDG spec).
 */
export function schedDir(
  kind: 'config' | 'cache',
  env: Env,
  platform: NodeJS.Platform,
  home: string,
): string {
  const nodePath = process.getBuiltinModule('node:path');
  const path = platform === 'win32' ? nodePath.win32 : nodePath.posix;
  if (platform === 'darwin') {
    return path.join(home, 'Library', kind === 'config' ? 'Preferences' : 'Caches', 'sched');
  }
  if (platform === 'win32') {
    const [base, local, leaf] =
      kind === 'config' ? [env.APPDATA, 'Roaming', 'Config'] : [env.LOCALAPPDATA, 'Local', 'Cache'];
    return path.join(base || path.join(home, 'AppData', local), 'sched', leaf);
  }
  const xdg = kind === 'config' ? env.XDG_CONFIG_HOME : env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(home, `.${kind}`);
  return path.join(base, 'sched');
}

/**
 * mkdir -p, private (0700), at most `parents` missing parents deep. Not fs.mkdirSync's
 * `recursive`: it spins forever where mkdir answers ENOENT under an existing parent (/proc,
 * some FUSE).
 */
export function makePrivateDir(dir: string, parents: number): void {
  const fs = process.getBuiltinModule('node:fs');
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    const parent = process.getBuiltinModule('node:path').dirname(dir);
    // No `parent === dir` stop needed: the root always exists (EEXIST above).
    if (code !== 'ENOENT' || parents === 0) throw e;
    makePrivateDir(parent, parents - 1);
    fs.mkdirSync(dir, { mode: 0o700 });
  }
}

/**
 * A directory sched may read what it left there (Node runs the compiled code it finds in the
 * compile cache): this user's, and writable by no one else (sticky or not: they could still
 * add entries) — everyone, or a group that is not the user's own private group (ssh's rule,
 * src/config/ownership.ts) — as the config directory is refused (src/config/trust.ts). Nor one
 * whose parents someone else could rename it away in and plant another: each parent up to the
 * root must be the user's or root's, and writable by no one else unless sticky (like /tmp).
 * Judged by the real path. POSIX only (Windows has ACLs, and no uid).
 */
export function ownedDir(dir: string): boolean {
  if (typeof process.getuid !== 'function') return true;
  const fs = process.getBuiltinModule('node:fs');
  const path = process.getBuiltinModule('node:path');
  const uid = process.getuid();
  const groupOpen = (st: { mode: number; gid: number }) =>
    (st.mode & 0o020) !== 0 && !isPrivateGroup(st.gid);
  const real = fs.realpathSync(dir);
  const st = fs.statSync(real);
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o002) !== 0 || groupOpen(st)) {
    return false;
  }
  for (let p = path.dirname(real); ; p = path.dirname(p)) {
    const parent = fs.statSync(p);
    if (parent.uid !== uid && parent.uid !== 0) return false;
    const sticky = (parent.mode & 0o1000) !== 0;
    if (!sticky && ((parent.mode & 0o002) !== 0 || groupOpen(parent))) return false;
    if (path.dirname(p) === p) return true;
  }
}
