// Whether a file or directory can be trusted: the one rule that the config store (profiles hold
// the base URL the key is sent to) and the sandbox's --state file (webhook URLs and secrets)
// both apply before reading. Near a leaf: node:fs and platform-dirs.ts only, so the sandbox
// library can use it without loading the CLI.
//
// POSIX only: Windows has neither these owners nor these modes (ACLs protect the files).
import fs from 'node:fs';
import { isPrivateGroup } from '../platform-dirs.js';

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
