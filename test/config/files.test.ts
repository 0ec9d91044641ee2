// The config store's file care (src/config/files.ts): the lock around read-modify-write, and
// how a file-system error is worded.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Failure } from '../../src/errors.js';
import { describeFsError, withLock } from '../../src/config/files.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sched-files-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('withLock', () => {
  it('holds the lock while fn runs and removes it after, also when fn throws', () => {
    const file = path.join(dir, 'a.json');
    expect(withLock(file, () => fs.existsSync(`${file}.lock`))).toBe(true);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
    expect(() =>
      withLock(file, () => {
        throw new Error('write failed');
      }),
    ).toThrow('write failed');
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it('a lock another process holds: waits, then says who to ask', () => {
    const file = path.join(dir, 'b.json');
    fs.writeFileSync(`${file}.lock`, '');
    let ran = false;
    const e = (() => {
      try {
        withLock(file, () => (ran = true), 100);
      } catch (err) {
        return err;
      }
    })();
    expect(ran).toBe(false);
    expect(e).toBeInstanceOf(Failure);
    expect((e as Failure).message).toBe(
      `the config file ${file} is locked by another sched process`,
    );
    expect((e as Failure).hint).toBe(`if no other sched is running, delete "${file}.lock"`);
    // Left for its owner.
    expect(fs.existsSync(`${file}.lock`)).toBe(true);
  });

  it('a lock older than 10 s belongs to a process that died: taken over', () => {
    const file = path.join(dir, 'c.json');
    fs.writeFileSync(`${file}.lock`, '');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(`${file}.lock`, old, old);
    expect(withLock(file, () => 'ran', 1_000)).toBe('ran');
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it('a lock that cannot be made at all: a Failure naming the file and the cause', () => {
    const file = path.join(dir, 'no-such-dir', 'd.json');
    expect(() => withLock(file, () => 'ran')).toThrow(
      new Failure(
        `cannot lock the config file ${file}: ENOENT: no such file or directory, open '${file}.lock'`,
      ),
    );
  });
});

describe('describeFsError', () => {
  it.each([
    [
      Object.assign(new Error("EACCES: permission denied, open '/x'"), { code: 'EACCES' }),
      "EACCES: permission denied, open '/x'",
    ],
    [Object.assign(new Error('disk on fire'), { code: 'EIO' }), 'EIO: disk on fire'],
    [new Error('no code'), 'Error: no code'],
    ['a string', 'a string'],
  ])('%s -> %s', (e, words) => {
    expect(describeFsError(e)).toBe(words);
  });
});
