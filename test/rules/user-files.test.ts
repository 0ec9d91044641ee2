// One opener and reader for every file a user names (src/user-file.ts), and this table over
// every caller, on the built CLI: a FIFO nobody writes to ends on SIGTERM (143) and Ctrl-C
// (130) — or, where only a regular file makes sense (`--state`, `--record`), is refused at
// once (exit 2); a file that never ends (/dev/zero) stops at the caller's cap (exit 2).
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/run.js';
import { until } from '../helpers/until.js';
import { runsElsewhere } from '../helpers/skip.js';
import { refusedUrl } from '../helpers/fault-server.js';

let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sched-user-files-'));
  // Nothing listens there: no caller may get as far as a request.
  env = { SCHED_BASE_URL: await refusedUrl(), SCHED_API_KEY: 'k-user-files-1', NO_COLOR: '1' };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const TO = 'http://127.0.0.1:9/hook';

/** Every reader of a user file: its command line for a file F, and how it names F. */
const READERS: Array<[string, (f: string) => string[], string]> = [
  [
    'sig sign --payload-file',
    (f) => ['sig', 'sign', '--secret', 's-1234', '--payload-file', f],
    'the payload from',
  ],
  [
    'events send --payload-file',
    (f) => [
      'events',
      'send',
      'meetingScheduled',
      '--to',
      TO,
      '--secret',
      's-1',
      '--payload-file',
      f,
    ],
    'the payload from',
  ],
  ['api --input', (f) => ['api', '/webhooks', '-X', 'POST', '--input', f], '--input'],
  ['events replay', (f) => ['events', 'replay', f, '--to', TO], 'recording'],
  ['webhooks sync --file', (f) => ['webhooks', 'sync', '--file', f], 'sync file'],
  ['sandbox --faults', (f) => ['sandbox', '--port', '0', '--faults', f], '--faults'],
];

/** Where only a regular file makes sense: a FIFO is refused before anything waits on it. */
const REGULAR_ONLY: Array<[string, (f: string) => string[], RegExp]> = [
  ['sandbox --state', (f) => ['sandbox', '--port', '0', '--state', f], /not a regular file/],
  [
    'webhooks listen --record',
    (f) => ['webhooks', 'listen', '--port', '0', '--record', f],
    /not a regular file/,
  ],
];

let n = 0;
function fifo(): string {
  const p = path.join(dir, `fifo-${++n}`);
  execFileSync('mkfifo', [p]);
  return p;
}

function spawn(argv: string[]) {
  const child = execa(process.execPath, [BIN, ...argv], { env, reject: false, input: '' });
  let done = false;
  const finished = child.then((r) => {
    done = true;
    return r;
  });
  return { child, finished, ended: () => done };
}

describe.skipIf(runsElsewhere(process.platform === 'win32' && 'FIFOs are POSIX'))(
  'a FIFO nobody writes to',
  () => {
    it.each(
      READERS.flatMap(
        ([what, argv, label]) =>
          [
            [what, 'SIGTERM', 143, argv, label],
            [what, 'SIGINT', 130, argv, label],
          ] as const,
      ),
    )(
      '%s: %s ends it, exit %d',
      async (_what, signal, code, argv, label) => {
        const f = fifo();
        const p = spawn(argv(f));
        // Once sched has the FIFO open for reading, a writer can open it without waiting; it
        // then holds it open and writes nothing, so the read never ends by itself.
        let writer: number | undefined;
        await until(
          () => {
            try {
              writer = openSync(f, constants.O_WRONLY | constants.O_NONBLOCK);
              return true;
            } catch {
              return p.ended();
            }
          },
          'sched to open the FIFO',
          () => '',
        );
        await new Promise((r) => setTimeout(r, 300));
        expect(p.ended()).toBe(false);
        p.child.kill(signal);
        const r = await p.finished;
        if (writer !== undefined) closeSync(writer);
        expect(r.exitCode, String(r.stderr)).toBe(code);
        const lines = String(r.stderr).trimEnd().split('\n');
        expect(lines[0]).toContain(`error: interrupted while reading ${label}`);
        expect(String(r.stderr)).not.toMatch(/\n\s+at /);
      },
      20_000,
    );

    it.each(REGULAR_ONLY)(
      '%s: refused at once, exit 2',
      async (_what, argv, why) => {
        const f = fifo();
        const r = await spawn(argv(f)).finished;
        expect(r.exitCode, String(r.stderr)).toBe(2);
        expect(String(r.stderr)).toMatch(why);
        expect(String(r.stderr)).toMatch(/^error: /);
      },
      20_000,
    );
  },
);

describe.skipIf(runsElsewhere(!existsSync('/dev/zero') && 'no /dev/zero on this platform'))(
  'a file that never ends (/dev/zero)',
  () => {
    it.each([
      [
        'api --input',
        ['api', '/webhooks', '-X', 'POST', '--input', '/dev/zero'],
        /--input "\/dev\/zero" is larger than 5 MiB/,
      ],
      [
        'events replay',
        ['events', 'replay', '/dev/zero', '--to', TO],
        /line 1 is longer than 31 MiB/,
      ],
      ['webhooks sync --file', ['webhooks', 'sync', '--file', '/dev/zero'], /too large/],
      [
        'sandbox --faults',
        ['sandbox', '--port', '0', '--faults', '/dev/zero'],
        /larger than 1 MiB/,
      ],
    ])(
      '%s: exit 2 at the cap, one line',
      async (_what, argv, why) => {
        const r = await spawn(argv).finished;
        expect(r.exitCode, String(r.stderr)).toBe(2);
        expect(String(r.stderr).split('\n')[0]).toMatch(why);
        expect(String(r.stderr)).not.toMatch(/\n\s+at /);
      },
      60_000,
    );
  },
);
