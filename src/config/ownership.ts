// Whether a file or directory can be trusted: the one rule that the config store (profiles hold
// the base URL the key is sent to) and the sandbox's --state file (webhook URLs and secrets)
// both apply before reading. A leaf module: node:fs only, so the sandbox library can use it
// without loading the CLI.
//
// POSIX only: Windows has neither these owners nor these modes (ACLs protect the files).
import fs from 'node:fs';
import os from 'node:os';

export const octal = (mode: number) => '0' + (mode & 0o7777).toString(8);

export function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}
/** Modes mean nothing on Windows: nothing to check or tighten there. */
export const POSIX = process.platform !== 'win32';

/**
 * Why a path is not to be trusted: another owner, or writable by others — every user
 * (`by: 'others'`), or a group that is not the user's own private group (`by: 'group'`).
 */
export type Distrust =
  | { why: 'owner'; uid: number }
  | { why: 'writable'; mode: number; by: 'others' | 'group'; gid?: number };

/** The entries of a colon-separated database (/etc/group, /etc/passwd); none when unreadable. */
function entries(file: string): string[][] {
  try {
    return fs
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
    const user = os.userInfo().username;
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
 * The trust rule: a path owned by another user, or writable by others or by a group that is
 * not the user's private group (a directory with the sticky bit excepted, like /tmp: nobody can
 * replace another's file in it), is not trusted. A symbolic link is judged by what it points
 * to. Undefined when trusted, absent or not POSIX.
 */
export function distrust(p: string): Distrust | undefined {
  if (!POSIX) return undefined;
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch {
    return undefined;
  }
  return distrustStat(st);
}

/** The trust rule applied to what fstat said of an open descriptor (the file actually read). */
export function distrustStat(st: fs.Stats): Distrust | undefined {
  if (!POSIX) return undefined;
  const uid = currentUid();
  if (uid !== undefined && st.uid !== uid) return { why: 'owner', uid: st.uid };
  const sticky = st.isDirectory() && st.mode & 0o1000;
  if (st.mode & 0o002 && !sticky) return { why: 'writable', mode: st.mode, by: 'others' };
  if (st.mode & 0o020 && !sticky && !isPrivateGroup(st.gid)) {
    return { why: 'writable', mode: st.mode, by: 'group', gid: st.gid };
  }
  return undefined;
}

/** "writable by others" / "writable by its group (gid 4), not your own private group". */
export function writableBy(d: { by: 'others' | 'group'; gid?: number }): string {
  return d.by === 'others'
    ? 'writable by others'
    : `writable by its group (gid ${d.gid}), which is not your own private group`;
}
