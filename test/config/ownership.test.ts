// config/ownership.ts is the one home of the file rules: who owns a file, and the group rule
// (a group bit is harmless only for the user's own private group). Two rules use it — trust
// before reading the config or the sandbox's --state (distrustStat: writable by others) and
// privacy before appending to a `listen --record` recording (exposureStat: readable by others)
// — and one table runs every mode through both, so the group exception cannot drift apart.
import type fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { distrustStat, exposureStat, readableBy, writableBy } from '../../src/config/ownership.js';
import { isPrivateGroup } from '../../src/platform-dirs.js';
import { runsElsewhere } from '../helpers/skip.js';

const UID = process.getuid?.() ?? 0;
const GID = process.getgid?.() ?? 0;
/** A group shared by system users (daemon on Debian): never anyone's private group. */
const SHARED = 1;

const file = (mode: number, gid: number, uid = UID) =>
  ({ mode: 0o100000 | mode, uid, gid, isDirectory: () => false }) as unknown as fs.Stats;

describe.skipIf(
  runsElsewhere(
    (process.platform === 'win32' && 'Windows: no POSIX file modes') ||
      (!isPrivateGroup(GID) && 'this user has no private group'),
  ),
)('one group rule for the config (writable) and the recording (readable)', () => {
  it.each([
    // mode, group: [config trust, recording privacy]
    [0o600, SHARED, undefined, undefined],
    [0o644, SHARED, undefined, 'readable by others'],
    [0o604, GID, undefined, 'readable by others'],
    [0o602, GID, 'writable by others', undefined],
    [0o640, GID, undefined, undefined],
    [0o660, GID, undefined, undefined],
    [0o640, SHARED, undefined, 'readable by its group'],
    [0o620, SHARED, 'writable by its group', undefined],
    [0o660, SHARED, 'writable by its group', 'readable by its group'],
  ] as const)('mode %o, gid %i: config %s, recording %s', (mode, gid, config, recording) => {
    const st = file(mode, gid);
    const d = distrustStat(st);
    const x = exposureStat(st);
    expect(d && d.why === 'writable' ? writableBy(d) : undefined).toSatisfy(
      (w: string | undefined) => (config ? !!w?.startsWith(config) : w === undefined),
    );
    expect(x && x.why === 'readable' ? readableBy(x) : undefined).toSatisfy(
      (r: string | undefined) => (recording ? !!r?.startsWith(recording) : r === undefined),
    );
  });

  it("another user's file fails both, whatever its mode", () => {
    const st = file(0o600, GID, UID + 1);
    expect(distrustStat(st)).toEqual({ why: 'owner', uid: UID + 1 });
    expect(exposureStat(st)).toEqual({ why: 'owner', uid: UID + 1 });
  });
});
