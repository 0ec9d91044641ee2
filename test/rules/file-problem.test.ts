// One wording for a file that cannot be read, whichever flag named it: --input (api), --file
// (webhooks sync) and --payload-file (sig sign). A table over every caller.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileProblem } from '../../src/text/file-problem.js';
import { runSched } from '../helpers/run.js';
import { runsElsewhere } from '../helpers/skip.js';

const dir = mkdtempSync(path.join(tmpdir(), 'sched-file-problem-'));
const missing = path.join(dir, 'missing.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const callers: Array<[string, (file: string) => string[]]> = [
  ['api --input', (file) => ['api', 'webhooks', '--input', file]],
  ['webhooks sync --file', (file) => ['webhooks', 'sync', '--file', file]],
  [
    'sig sign --payload-file',
    (file) => ['sig', 'sign', '--secret', 's3cr3t', '--payload-file', file],
  ],
];
const env = {
  SCHED_BASE_URL: 'http://127.0.0.1:9/api',
  SCHED_API_KEY: 'k-file-problem',
  SCHED_CONFIG_DIR: dir,
};

describe('a file that cannot be read', () => {
  for (const [name, argv] of callers) {
    it(`${name}: no such file / a directory, exit 2, one line`, async () => {
      for (const [file, why] of [
        [missing, 'no such file'],
        [dir, 'it is a directory'],
      ] as const) {
        const r = await runSched(argv(file), { env });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr.split('\n')[0]).toMatch(new RegExp(`^error: cannot read .*: ${why}$`));
        expect(r.stdout).toBe('');
      }
    });
  }
});

describe.skipIf(runsElsewhere(process.platform !== 'linux' && 'not Linux: no /proc'))(
  'a file that opens but fails while read',
  () => {
    // /proc/self/mem is a file by stat, and reading it from the start fails with EIO.
    for (const [name, argv] of callers) {
      it(`${name}: the read error, exit 2, one line`, async () => {
        const r = await runSched(argv('/proc/self/mem'), { env });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr.split('\n')[0]).toMatch(
          /^error: cannot read .*\/proc\/self\/mem.*: EIO: i\/o error, read$/,
        );
        expect(r.stdout).toBe('');
      });
    }
  },
);

describe('fileProblem: the words for each way fs refuses', () => {
  const fsError = (code: string, message = `${code}: x, open 'f'`) =>
    Object.assign(new Error(message), { code });
  it.each([
    [fsError('ENOENT'), 'no such file'],
    [fsError('EISDIR'), 'it is a directory'],
    // Root reads anything, so these come from a table rather than from chmod.
    [fsError('EACCES'), 'permission denied'],
    [fsError('EPERM'), 'permission denied'],
    [fsError('EIO', 'EIO: i/o error, read'), 'EIO: i/o error, read'],
    [{ code: 'ELOOP' }, 'ELOOP'],
    ['something else', 'something else'],
  ])('%j -> %s', (e, words) => {
    expect(fileProblem(e)).toBe(words);
  });
});
