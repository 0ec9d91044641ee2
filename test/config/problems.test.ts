// What can be wrong with the config file, and whose profile a message names: the words of
// src/config/problems.ts and src/config/sources.ts for each case, without the file's text.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ShapeError, shapeProblem, unreadable } from '../../src/config/problems.js';
import { unknownProfileError } from '../../src/config/sources.js';

describe('shapeProblem', () => {
  it.each([
    [{}, undefined],
    [{ profiles: { a: { baseUrl: 'https://x', apiKey: 'k' } } }, undefined],
    [[], 'the top level is not a JSON object'],
    [null, 'the top level is not a JSON object'],
    [{ profiles: [] }, '"profiles" is not an object'],
    [{ profiles: { a: 'k' } }, 'profile "a" is not an object'],
    [{ profiles: { a: null } }, 'profile "a" is not an object'],
    [{ profiles: { a: [] } }, 'profile "a" is not an object'],
    [{ profiles: { a: { apiKey: 42 } } }, '"apiKey" of profile "a" is not a string'],
    [{ profiles: { a: { keyCommand: 'secret-tool lookup service sched' } } }, undefined],
    [
      { profiles: { a: { keyCommand: ['op', 'read'] } } },
      '"keyCommand" of profile "a" is not a string',
    ],
    [
      { profiles: { a: { apiKey: 'k', keyCommand: 'pass show sched' } } },
      'profile "a" has both "apiKey" and "keyCommand"',
    ],
  ])('%j -> %s', (store, problem) => {
    expect(shapeProblem(store)).toBe(problem);
  });
});

describe('unreadable', () => {
  const F = '/home/u/.config/sched/config.json';
  const fsError = (code: string, message: string) => Object.assign(new Error(message), { code });
  it.each([
    [
      new ShapeError('"profiles" is not an object'),
      `the config file ${F} has unexpected content: "profiles" is not an object`,
      'HINT',
    ],
    [
      fsError('EACCES', 'EACCES: permission denied'),
      `cannot read the config file ${F}: permission denied`,
      `check its owner and mode (chmod 600 ${F})`,
    ],
    [
      fsError('EPERM', 'EPERM: operation not permitted'),
      `cannot read the config file ${F}: permission denied`,
      `check its owner and mode (chmod 600 ${F})`,
    ],
    [
      fsError('EIO', 'EIO: i/o error, read'),
      `cannot read the config file ${F}: EIO: i/o error, read`,
      'HINT',
    ],
  ])('%s', (e, message, hint) => {
    const f = unreadable(F, e, 'HINT');
    expect(f.message).toBe(message);
    expect(f.hint).toBe(hint);
  });

  it('a syntax error names the place, never the text (which holds keys)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sched-problems-'));
    try {
      const file = path.join(dir, 'config.json');
      const text = '{"profiles":{"a":{"apiKey":KEY-1234}}}';
      fs.writeFileSync(file, text);
      const err = (() => {
        try {
          JSON.parse(text);
        } catch (e) {
          return e;
        }
      })();
      const f = unreadable(file, err, 'HINT');
      expect(f.message).toBe(
        `cannot read the config file ${file}: it is not valid JSON (line 1, column 28: unexpected 'K': expected a value)`,
      );
      // Gone by the time it is described: no place, still no text.
      fs.rmSync(file);
      expect(unreadable(file, err, 'HINT').message).toBe(
        `cannot read the config file ${file}: it is not valid JSON`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('unknownProfileError', () => {
  it.each([
    [
      'stagin',
      'flag',
      ['staging'],
      'unknown profile "stagin" (from --profile) (did you mean "staging"?); profiles: staging',
    ],
    [
      'zzz',
      'env',
      ['staging', 'prod'],
      'unknown profile "zzz" (from SCHED_PROFILE); profiles: staging, prod',
    ],
    ['x', undefined, [], 'unknown profile "x"; no profile is stored yet'],
  ] as const)('%s from %s among %j', (name, source, known, message) => {
    expect(unknownProfileError(name, source, known).message).toBe(message);
  });
});
