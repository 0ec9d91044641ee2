// The message rules of src/text/, each with one table over its callers, in-process:
// - quote(): user text in a message, JSON-escaped, never obeyed by the terminal;
// - nearest()/didYouMean(): one nearness rule behind every "did you mean";
// - jsonErrorPlace(): the line and column of a JSON syntax error, for every JSON file read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { quote, quoteUrl, shellQuote, shellWord } from '../../src/text/quote.js';
import { execFileSync } from 'node:child_process';
import { didYouMean, didYouMeanInline, nearest } from '../../src/text/suggest.js';
import { jsonErrorPlace, locateJsonError } from '../../src/text/json-error.js';
import { runSched } from '../helpers/run.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'sched-text-rule-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Nothing is listening there: every caller below must stop before any request. */
const env = () => ({
  SCHED_BASE_URL: 'http://127.0.0.1:9/api',
  SCHED_API_KEY: 'test-key',
  SCHED_CONFIG_DIR: dir,
});

function file(name: string, text: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe('quote', () => {
  it('JSON-escapes what a terminal would act on and cuts long text', () => {
    const table: Array<[string, string]> = [
      ['plain', '"plain"'],
      ['say "hi"\\', '"say \\"hi\\"\\\\"'],
      ['a\nb\tc\r', '"a\\nb\\tc\\r"'],
      ['\u001b[2J\u001b]8;;evil\u0007', '"\\u001b[2J\\u001b]8;;evil\\u0007"'],
      ['\u009b31m\u007f', '"\\u009b31m\\u007f"'],
      ['abc\u202edef\u2066', '"abc\\u202edef\\u2066"'],
      ['line\u2028sep', '"line\\u2028sep"'],
      ['é🙂', '"é🙂"'],
      ['x'.repeat(100), `"${'x'.repeat(80)}…"`],
      ['\u0001'.repeat(20), `"${'\\u0001'.repeat(13)}…"`],
      [`${'x'.repeat(79)}🙂`, `"${'x'.repeat(79)}…"`],
    ];
    for (const [input, shown] of table) expect(quote(input), JSON.stringify(input)).toBe(shown);
    expect(quote('x'.repeat(300), 200)).toBe(`"${'x'.repeat(200)}…"`);
    expect(quoteUrl('https://user:secret@example.com/h')).toBe('"https://***@example.com/h"');
  });

  const HOSTILE = 'x\u001b[2J\u202e\ny';
  const callers: Array<[string, () => string[], string?]> = [
    ['types list --sort', () => ['types', 'list', '--sort', HOSTILE]],
    ['webhooks rm <uuid>', () => ['webhooks', 'rm', HOSTILE]],
    ['webhooks add --url', () => ['webhooks', 'add', '--url', HOSTILE]],
    ['events sample', () => ['events', 'sample', HOSTILE]],
    ['sandbox book', () => ['sandbox', 'book', HOSTILE]],
    ['sandbox cancel', () => ['sandbox', 'cancel', HOSTILE]],
    ['sandbox reschedule --at', () => ['sandbox', 'reschedule', HOSTILE, '--at', HOSTILE]],
    ['completion', () => ['completion', HOSTILE]],
    ['auth login --profile', () => ['--profile', HOSTILE, 'auth', 'login', '--with-key'], 'key'],
    [
      'webhooks sync (file key)',
      () => ['webhooks', 'sync', '--file', file('k.json', JSON.stringify({ [HOSTILE]: 1 }))],
    ],
  ];
  for (const [name, argv, stdin] of callers) {
    it(`${name}: quotes the hostile text the same way, on one line`, async () => {
      const r = await runSched(argv(), { env: env(), stdin });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(quote(HOSTILE));
      expect(r.stderr).not.toMatch(/[\u001b\u202e]/); // eslint-disable-line no-control-regex
      expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toHaveLength(1);
    });
  }

  it('SCHED_BASE_URL: quoted with any credentials masked', async () => {
    const bad = 'ftp://me:hunter2@example.com/\u001b[2J';
    const r = await runSched(['types', 'list'], { env: { ...env(), SCHED_BASE_URL: bad } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(quoteUrl(bad));
    expect(r.stderr).not.toMatch(/hunter2|\u001b/); // eslint-disable-line no-control-regex
  });
});

describe('shell words (completion scripts, the hint to run sync again)', () => {
  it.each([
    ['hooks.json', 'hooks.json'],
    ['./conf/a-b_c@1:2+3.yaml', './conf/a-b_c@1:2+3.yaml'],
    ['my hooks.json', "'my hooks.json'"],
    ["it's.json", "'it'\\''s.json'"],
    ['$HOME/`x`;rm', "'$HOME/`x`;rm'"],
    ['', "''"],
  ])('%j -> %s, which sh reads back as it was', (text, word) => {
    expect(shellWord(text)).toBe(word);
    expect(execFileSync('sh', ['-c', `printf %s ${shellWord(text)}`]).toString()).toBe(text);
    expect(execFileSync('sh', ['-c', `printf %s ${shellQuote(text)}`]).toString()).toBe(text);
  });
});

describe('did you mean', () => {
  it('one nearness rule: a swap is one edit, case and punctuation do not count', () => {
    const table: Array<[string, string[], string | undefined]> = [
      ['lsit', ['ls', 'list', 'listen'], 'list'],
      ['lss', ['ls', 'add'], 'ls'],
      ['webhoks', ['webhooks', 'events'], 'webhooks'],
      ['secret_env', ['url', 'events', 'secret', 'secretEnv'], 'secretEnv'],
      ['MEETING_SCHEDULED', ['meetingScheduled', 'meetingCancelled'], 'meetingScheduled'],
      ['meetingSchedule', ['meetingScheduled', 'meetingCancelled'], 'meetingScheduled'],
      ['meetingBooked', ['meetingScheduled', 'meetingCancelled'], undefined],
      ['hooks', ['webhooks'], undefined],
      ['zzz', ['ls', 'add'], undefined],
      ['x', ['ls'], undefined],
      ['--', ['ls'], undefined],
    ];
    for (const [word, candidates, best] of table) {
      expect(nearest(word, candidates), word).toBe(best);
      expect(didYouMean(word, candidates)).toBe(best ? `\n(Did you mean ${best}?)` : '');
      expect(didYouMeanInline(word, candidates)).toBe(best ? ` (did you mean "${best}"?)` : '');
    }
  });

  // Every caller turns the same kind of slip (one swapped pair of letters) into a suggestion.
  const callers: Array<[string, () => string[], string]> = [
    ['a subcommand', () => ['webhooks', 'sycn'], '(Did you mean sync?)'],
    ['a help topic', () => ['help', 'exit-cdoes'], '(Did you mean exit-codes?)'],
    [
      'a sync file key',
      () => [
        'webhooks',
        'sync',
        '--file',
        file('s.json', JSON.stringify({ webhoosk: [] })),
        '--dry-run',
      ],
      '(did you mean "webhooks"?)',
    ],
    [
      'an event name',
      () => ['events', 'sample', 'meetingSchedlued'],
      '(did you mean "meetingScheduled"?)',
    ],
  ];
  for (const [name, argv, shown] of callers) {
    it(`${name}: suggests the nearest word`, async () => {
      const r = await runSched(argv(), { env: env() });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(shown);
    });
  }
});

describe('locateJsonError: the first thing wrong, never the text', () => {
  it.each([
    ['{/* note */ "a": 1}', 1, 2, 'comments are not allowed in JSON (YAML allows them)'],
    ["['a']", 1, 2, 'strings must be in double quotes'],
    ['[] x', 1, 4, "unexpected 'x': expected the end of the file after the JSON value"],
    ['["a\\', 1, 2, 'unterminated string'],
    ['["\\u12"]', 1, 3, 'invalid \\u escape in a string (needs 4 hex digits)'],
    ['\ufeff{,}', 1, 3, "unexpected ',': expected a property name in double quotes"],
    ['{"a":\u0001}', 1, 6, 'unexpected control character U+0001: expected a value'],
  ])('%j -> line %d, column %d: %s', (text, line, column, message) => {
    expect(locateJsonError(text)).toEqual({ line, column, message });
  });

  it('says nothing when it finds nothing wrong, or when nesting is deeper than it can follow', () => {
    expect(locateJsonError('{"a": [1, 2]}')).toBeUndefined();
    expect(jsonErrorPlace('{"a": [1, 2]}')).toBe('');
    // 200,000 unclosed brackets: JSON.parse refuses them; the scanner gives no place, not a crash.
    expect(locateJsonError('['.repeat(200_000))).toBeUndefined();
  });

  it('a sync file nested that deep: exit 2, refused for its depth before parsing, no crash', async () => {
    const r = await runSched(
      ['webhooks', 'sync', '--file', file('deep.json', '['.repeat(200_000))],
      {
        env: env(),
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(
      /^error: .*deep\.json:1:65: nested more than 64 levels deep; a sync file is a list of webhooks/,
    );
  });
});

describe('JSON error positions', () => {
  // The same broken text in every JSON file sched reads: each names the same line and column,
  // and none quotes the text (it may hold a key or a secret).
  const BROKEN = '{\n  "a": 1,\n  "b": "SECRET-1234",\n}\n';
  const where = locateJsonError(BROKEN)!;

  it('finds the place without quoting the text', () => {
    expect(where).toEqual({
      line: 4,
      column: 1,
      message: 'trailing commas are not allowed in JSON',
    });
  });

  const callers: Array<[string, () => { argv: string[]; env: Record<string, string> }, string]> = [
    [
      'webhooks sync --file',
      () => ({ argv: ['webhooks', 'sync', '--file', file('b.json', BROKEN)], env: env() }),
      `:${where.line}:${where.column}: not valid JSON: ${where.message}`,
    ],
    [
      'the config file',
      () => {
        const cfg = mkdtempSync(path.join(dir, 'cfg-'));
        writeFileSync(path.join(cfg, 'config.json'), BROKEN);
        return {
          argv: ['auth', 'status'],
          env: { SCHED_CONFIG_DIR: cfg, SCHED_BASE_URL: 'http://127.0.0.1:9/api' },
        };
      },
      `(line ${where.line}, column ${where.column}: ${where.message})`,
    ],
    [
      'sandbox --state',
      () => ({ argv: ['sandbox', '--port', '0', '--state', file('st.json', BROKEN)], env: env() }),
      `(line ${where.line}, column ${where.column}: ${where.message})`,
    ],
  ];
  for (const [name, setup, shown] of callers) {
    it(`${name}: names line ${where.line}, column ${where.column}`, async () => {
      const { argv, env: e } = setup();
      const r = await runSched(argv, { env: e });
      expect(r.code, r.stderr).not.toBe(0);
      expect(r.stderr).toContain(shown);
      expect(r.stderr).not.toContain('SECRET-1234');
    });
  }
});
