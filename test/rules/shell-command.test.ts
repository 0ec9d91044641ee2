// One rule: every command line `sched` prints for the user to paste quotes each value that came
// from outside (a sender's uuid, an API's uuid or URL, a file or profile name) as one POSIX
// shell word, through shellCommand (src/text/quote.ts). Two halves: a table over every place
// that prints such a line, each given hostile values and run through a real `sh` (with the
// commands replaced by functions that print their words), and a scan of src/ for a command
// line built without shellCommand.
import { describe, expect, it, afterAll } from 'vitest';
import { execa } from 'execa';
import fs from 'node:fs';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { shellCommand } from '../../src/text/quote.js';
import { accountCommand } from '../../src/text/hints.js';
import {
  removeWebhookHint,
  replayAllHint,
  replayOneHint,
} from '../../src/domain/webhooks/listen/hints.js';
import { ListenerWebhook } from '../../src/domain/webhooks/listen/register.js';
import { unknownProfileError } from '../../src/config/sources.js';
import { runSched } from '../helpers/run.js';

const HOSTILE = ['x $(touch PWNED)\'`touch PWNED2`"', "'", '-n', 'a b', '$HOME', 'ä;|&<>*?'];
const scratch = mkdtempSync(join(tmpdir(), 'sched-shell-command-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const COMMANDS = ['sched', 'chmod', 'chown', 'rm', 'mv', 'jq', 'id', 'grep'];

/** The words a pasted command line gives each command, as a shell splits it; nothing runs. */
async function wordsOf(line: string): Promise<string[][]> {
  const stubs = COMMANDS.map((c) => `${c}() { printf '%s\\0' ${c} "$@"; printf '\\n'; }`).join(
    '; ',
  );
  const r = await execa('sh', ['-c', `${stubs}; ${line}`], { cwd: scratch });
  expect(fs.existsSync(join(scratch, 'PWNED'))).toBe(false);
  expect(fs.existsSync(join(scratch, 'PWNED2'))).toBe(false);
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((x) => x.split('\0').slice(0, -1));
}

/** The text between the first pair of backticks, or after `after`. */
const between = (text: string, re: RegExp) => {
  const m = re.exec(text);
  if (!m) throw new Error(`no command line in ${JSON.stringify(text)}`);
  return m[1]!;
};

type Row = [string, (v: string) => Promise<{ line: string; words: string[][] }>];

const ROWS: Row[] = [
  [
    'listen: replay one delivery after a failed forward',
    async (v) => ({
      line: replayOneHint(`/r/${v}.ndjson`, v, `http://h/${v}`),
      words: [
        ['sched', 'events', 'replay', `/r/${v}.ndjson`, '--uuid', v, '--to', `http://h/${v}`],
      ],
    }),
  ],
  [
    'listen: the stop summary',
    async (v) => ({
      line: replayAllHint(v, [v, 'u2'], ['http://a/', 'http://b/']).replace('<url>', 'U'),
      words: [['sched', 'events', 'replay', v, '--uuid', v, '--uuid', 'u2', '--to', 'U']],
    }),
  ],
  [
    'listen: the stop summary, every delivery for one app',
    async (v) => ({
      line: replayAllHint(v, ['u1'], [`http://h/${v}`]),
      words: [['sched', 'events', 'replay', v, '--uuid', 'u1', '--to', `http://h/${v}`]],
    }),
  ],
  [
    'listen --register: the webhook left behind',
    async (v) => ({ line: removeWebhookHint(v), words: [['sched', 'webhooks', 'rm', v]] }),
  ],
  [
    'listen --register: an older webhook at the same URL',
    async (v) => {
      const notes: string[] = [];
      const hook = { uuid: v, url: 'https://t.example/h', events: [] };
      const w = new ListenerWebhook(
        async () => ({
          list: async function* () {
            yield hook as never;
          },
          create: async () => ({ ...hook, uuid: 'new' }) as never,
          remove: async () => 'deleted' as const,
        }),
        (line) => notes.push(line),
      );
      const stop = new AbortController();
      await w.register({
        url: hook.url,
        events: [],
        secret: 's',
        stop: stop.signal,
        interrupt: stop.signal,
      });
      return {
        line: between(notes[0]!, /remove it with `(.*)`/),
        words: [['sched', 'webhooks', 'rm', v]],
      };
    },
  ],
  [
    'a profile that does not exist: the login command',
    async (v) => ({
      line: between(unknownProfileError(v, 'flag', []).hint!, /only `(.*?)` creates/),
      words: [['sched', 'auth', 'login', '--profile', v]],
    }),
  ],
  [
    'a config directory writable by others: the chmod',
    async (v) => {
      const dir = join(scratch, `cfg ${v.replace(/\//g, '_')}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.chmodSync(dir, 0o777);
      const r = await runSched(['types', 'list'], { env: { SCHED_CONFIG_DIR: dir } });
      fs.chmodSync(dir, 0o700);
      return {
        line: between(r.stderr, /hint: check the base URLs in it \((.*)\), then (?:.*); or point/),
        words: [['grep', 'baseUrl', join(dir, 'config.json')]],
      };
    },
  ],
  [
    'a config directory writable by others: the chmod after the check',
    async (v) => {
      const dir = join(scratch, `cfgc ${v.replace(/\//g, '_')}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.chmodSync(dir, 0o777);
      const r = await runSched(['types', 'list'], { env: { SCHED_CONFIG_DIR: dir } });
      fs.chmodSync(dir, 0o700);
      return {
        line: between(r.stderr, /\), then (chmod .*); or point/),
        words: [['chmod', '700', dir]],
      };
    },
  ],
  [
    'a config file writable by others: the chmod',
    async (v) => {
      const dir = join(scratch, `cfgf ${v.replace(/\//g, '_')}`);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.chmodSync(dir, 0o700);
      const file = join(dir, 'config.json');
      fs.writeFileSync(file, '{}', { mode: 0o666 });
      fs.chmodSync(file, 0o666);
      const r = await runSched(['types', 'list'], { env: { SCHED_CONFIG_DIR: dir } });
      return {
        line: between(r.stderr, /then (chmod .*)$/m),
        words: [['chmod', '600', file]],
      };
    },
  ],
  [
    'a corrupt config file: moving it away',
    async (v) => {
      const dir = join(scratch, `cfgc ${v.replace(/\//g, '_')}`);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.chmodSync(dir, 0o700);
      const file = join(dir, 'config.json');
      fs.writeFileSync(file, '{', { mode: 0o600 });
      const r = await runSched(['auth', 'status'], { env: { SCHED_CONFIG_DIR: dir } });
      return {
        line: between(r.stderr, /move it away \((mv .*)\) and run/),
        words: [['mv', file, `${file}.bak`]],
      };
    },
  ],
  [
    'events replay: listing the uuids of a recording',
    async (v) => {
      const file = join(scratch, `rec ${v.replace(/\//g, '_')}.ndjson`);
      const rec = {
        kind: 'sched.webhook-delivery/1',
        receivedAt: '2024-01-01T00:00:00.000Z',
        method: 'POST',
        path: '/',
        headers: [],
        body: '{}',
        bytes: 2,
        event: null,
        uuid: 'u1',
        signature: 'unchecked',
        signatureReason: null,
      };
      fs.writeFileSync(file, JSON.stringify(rec) + '\n');
      const r = await runSched([
        'events',
        'replay',
        file,
        '--uuid',
        'nope',
        '--to',
        'http://127.0.0.1:9/',
      ]);
      return {
        line: between(r.stderr, /list them with: (.*)$/m),
        words: [['jq', '-r', 'select(.kind == "sched.webhook-delivery/1") | .uuid', file]],
      };
    },
  ],
  [
    'a command of the account (accountCommand), the flags kept one word each',
    async (v) => ({
      line: accountCommand({ profile: v, baseUrlFlag: v })`sched webhooks rm ${v}`,
      words: [['sched', 'webhooks', 'rm', v, '--profile', v, '--base-url', v]],
    }),
  ],
  [
    'the helper itself, every value one word',
    async (v) => ({
      line: shellCommand`sched x ${v} ${''} ${v + v}`,
      words: [['sched', 'x', v, '', v + v]],
    }),
  ],
];

describe.each(ROWS)('%s', (_name, make) => {
  it.each(HOSTILE)('keeps %j one word, runs nothing', async (v) => {
    const { line, words } = await make(v);
    expect(await wordsOf(line)).toEqual(words);
  });
});

/** Every .ts file under src/. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [join(dir, e.name)]
        : [],
  );
}

const SRC = new URL('../../src/', import.meta.url).pathname;
/** A command line with a value put in: a command name, then `${` before the template ends. */
const COMMAND_WITH_VALUE =
  /\b(?:sched (?:api|auth|completion|config|events|link|profiles|sandbox|sig|types|webhooks)|chmod|chown|rm|mv|jq -r)\b[^`]*?\$\{/;

describe('every suggested command line in src/ is built by shellCommand', () => {
  it('finds none built by hand', () => {
    const offenders: string[] = [];
    for (const file of sources(SRC)) {
      const rel = relative(SRC, file);
      // The reference generators print `sched <command>` from the command tree, not values.
      if (rel.startsWith('docs/') || rel === 'cli.ts') continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const code = line.trim();
          if (code.startsWith('//') || code.startsWith('*')) return;
          const m = COMMAND_WITH_VALUE.exec(line);
          if (!m) return;
          const before = line.slice(0, m.index);
          const after = line.slice(m.index + m[0].length);
          // Inside a shellCommand template (or accountCommand's, which is one with the
          // invocation's flags after it), or the value put in is one.
          if (/(?:shellCommand|accountCommand\([^)]*\))`[^`]*$/.test(before)) return;
          if (after.startsWith('shellCommand`')) return;
          offenders.push(`src/${rel}:${i + 1}: ${code}`);
        });
    }
    expect(offenders).toEqual([]);
  });

  it('the scan sees a hand-built one', () => {
    expect(COMMAND_WITH_VALUE.test('`remove it with sched webhooks rm ${uuid}`')).toBe(true);
  });
});
