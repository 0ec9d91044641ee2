// The replay journal's parts (src/domain/webhooks/listen/journal.ts): which file it appends to,
// what an outcome line must hold, and a write that fails.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Journal,
  OUTCOME_KIND,
  outcomeOk,
  outcomeProblem,
} from '../../../../src/domain/webhooks/listen/journal.js';
import { openUserFile } from '../../../../src/user-file.js';
import { OutputFailed } from '../../../../src/errors.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function file(name: string, text: string): Promise<string> {
  dir ??= await mkdtemp(join(tmpdir(), 'sched-journal-unit-'));
  const p = join(dir, name);
  await writeFile(p, text, { mode: 0o600 });
  return p;
}

const OUTCOME = { at: '2026-11-27T10:00:00Z', line: 1, uuid: 'u', to: 'http://a/', status: 200 };

describe('Journal', () => {
  it('appends only to the very file read: one put in its place is refused', async () => {
    const read = await file('read.ndjson', 'x\n');
    const other = await file('other.ndjson', 'y\n');
    const f = await openUserFile(read);
    try {
      expect(await Journal.open(other, f)).toEqual({
        refused: 'another file took its place while it was read',
      });
      expect(await readFile(other, 'utf8')).toBe('y\n');
    } finally {
      await f.close();
    }
  });

  it('appends one line per outcome, after a line break the file lacked', async () => {
    const p = await file('rec.ndjson', 'x');
    const f = await openUserFile(p);
    const j = await Journal.open(p, f);
    if (!(j instanceof Journal)) throw new Error(j.refused);
    await j.append(OUTCOME);
    await j.append({ ...OUTCOME, status: null, error: 'no answer' });
    await j.close();
    await f.close();
    const lines = (await readFile(p, 'utf8')).split('\n');
    expect(lines[0]).toBe('x');
    expect(JSON.parse(lines[1]!)).toEqual({ kind: OUTCOME_KIND, ...OUTCOME });
    expect(JSON.parse(lines[2]!)).toMatchObject({ status: null, error: 'no answer' });
    expect(lines[3]).toBe('');
    expect(j.written).toBe(2);
  });

  it('a write that fails is an OutputFailed naming the recording', async () => {
    const p = await file('rec.ndjson', 'x\n');
    const f = await openUserFile(p);
    const j = await Journal.open(p, f);
    if (!(j instanceof Journal)) throw new Error(j.refused);
    await j.close();
    const e = await j.append(OUTCOME).catch((x: unknown) => x);
    await f.close();
    expect(e).toBeInstanceOf(OutputFailed);
    expect((e as OutputFailed).target).toEqual({ kind: 'file', flag: 'recording', path: p });
    expect((e as OutputFailed).message).toMatch(/^could not write to recording "/);
    expect(await readFile(p, 'utf8')).toBe('x\n');
  });
});

describe('outcome lines', () => {
  it.each([
    [{ ...OUTCOME, line: 0 }, 'has no delivery line'],
    [{ ...OUTCOME, line: 1.5 }, 'has no delivery line'],
    [{ ...OUTCOME, uuid: 7 }, 'has a uuid that is not a string'],
    [{ ...OUTCOME, status: '200' }, 'has no status'],
    [{ ...OUTCOME, at: undefined }, 'has no time or target'],
    [{ ...OUTCOME, to: null }, 'has no time or target'],
    [{ ...OUTCOME, uuid: null, status: null }, undefined],
    [OUTCOME, undefined],
  ])('%j: %s', (v, problem) => {
    expect(outcomeProblem(v as Record<string, unknown>)).toBe(problem);
  });

  it.each([
    [200, true],
    [299, true],
    [300, false],
    [199, false],
    [null, false],
  ])('status %s is a success: %s', (status, ok) => {
    expect(outcomeOk({ status })).toBe(ok);
  });
});
