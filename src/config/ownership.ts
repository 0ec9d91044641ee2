// Whether a file or directory can be trusted: the one rule that the config store (profiles hold
// the base URL the key is sent to) and the sandbox's --state file (webhook URLs and secrets)
// both apply before reading. Near a leaf: node:fs and platform-dirs.ts only, so the sandbox
// library can use it without loading the CLI.
//
// POSIX only: Windows has neither these owners nor these modes (ACLs protect the files).
import type { Stats } from 'node:fs';
import { isPrivateGroup } from '../platform-dirs.js';

const fs = process.getBuiltinModule('node:fs');

export const octal = (mode: number) => '0' + (mode & 0o7777).toString(8);

export function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}
/** Modes mean nothing on Windows: nothing to check or tighten there. */
export const POSIX = process.platform !== 'win32';

/** Who besides the user a mode lets in: every user, or a group that is not the user's private one. */
export interface OpenTo {
  by: 'others' | 'group';
  gid?: number;
}

/**
 * Why a path is not to be trusted: another owner, or writable by others — every user
 * (`by: 'others'`), or a group that is not the user's own private group (`by: 'group'`).
 */
export type Distrust = { why: 'owner'; uid: number } | ({ why: 'writable'; mode: number } & OpenTo);

/**
 * Why a file we write secrets into (a `listen --record` recording) is not private: another
 * owner, or readable by others or by a group that is not the user's own private group.
 */
export type Exposure = { why: 'owner'; uid: number } | ({ why: 'readable'; mode: number } & OpenTo);

/**
 * The trust rule: a path owned by another user, or writable by others or by a group that is
 * not the user's private group (a directory with the sticky bit excepted, like /tmp: nobody can
 * replace another's file in it), is not trusted. A symbolic link is judged by what it points
 * to. Undefined when trusted, absent or not POSIX.
 */
export function distrust(p: string): Distrust | undefined {
  if (!POSIX) return undefined;
  let st: Stats;
  try {
    st = fs.statSync(p);
  } catch {
    return undefined;
  }
  return distrustStat(st);
}

/** Another user's file (as root, every file of another user): `{why:'owner'}`. */
function foreignOwner(st: Stats): { why: 'owner'; uid: number } | undefined {
  const uid = currentUid();
  return uid !== undefined && st.uid !== uid ? { why: 'owner', uid: st.uid } : undefined;
}

/**
 * The one group rule: the `others` bit lets every user in; the `group` bit lets its group in,
 * unless that group is the user's own private group (isPrivateGroup).
 */
function openTo(st: Stats, others: number, group: number): OpenTo | undefined {
  if (st.mode & others) return { by: 'others' };
  if (st.mode & group && !isPrivateGroup(st.gid)) return { by: 'group', gid: st.gid };
  return undefined;
}

/** The trust rule applied to what fstat said of an open descriptor (the file actually read). */
export function distrustStat(st: Stats): Distrust | undefined {
  if (!POSIX) return undefined;
  const owner = foreignOwner(st);
  if (owner) return owner;
  const sticky = st.isDirectory() && st.mode & 0o1000;
  const open = sticky ? undefined : openTo(st, 0o002, 0o020);
  return open && { why: 'writable', mode: st.mode, ...open };
}

/**
 * The privacy rule of a file we append secrets to, from fstat of its open descriptor: owned by
 * the user, readable by no one else (the user's private group excepted, as for the config).
 * Making such a file 0600 afterwards would not stop a reader that opened it before.
 */
export function exposureStat(st: Stats): Exposure | undefined {
  if (!POSIX) return undefined;
  const owner = foreignOwner(st);
  if (owner) return owner;
  const open = openTo(st, 0o004, 0o040);
  return open && { why: 'readable', mode: st.mode, ...open };
}

/** "writable by others" / "writable by its group (gid 4), not your own private group". */
export function writableBy(d: OpenTo): string {
  return openedBy('writable', d);
}

/** "readable by others" / "readable by its group (gid 4), which is not your own private group". */
export function readableBy(d: OpenTo): string {
  return openedBy('readable', d);
}

function openedBy(how: 'writable' | 'readable', d: OpenTo): string {
  return d.by === 'others'
    ? `${how} by others`
    : `${how} by its group (gid ${d.gid}), which is not your own private group`;
}
