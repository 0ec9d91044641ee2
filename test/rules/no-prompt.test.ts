// One rule for "an answer is needed and nothing can be asked" (src/text/no-prompt.ts: cannotAsk), one
// table over every command that would prompt: exit 2, the same `<what was needed>: <why no
// prompt>` line whichever the reason, a hint naming what to give instead, no prompt drawn and
// nothing sent.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prompter } from '../../src/prompt.js';
import { f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runSched, type RunOptions } from '../helpers/run.js';
import { useConfigDir } from '../helpers/config-dir.js';

const PAYLOAD_FILE = fileURLToPath(new URL('../fixtures/real-delivery.json', import.meta.url));
let srv: FaultServer;
const config = useConfigDir('sched-no-prompt-rule-');
beforeAll(async () => {
  srv = await startFaultServer();
  srv.fallback(f.status(500));
});
afterAll(() => srv.close());

const callers: Array<[name: string, argv: () => string[], needed: string, hint: RegExp]> = [
  ['auth login', () => ['auth', 'login'], 'cannot ask for the API key', /--with-key/],
  [
    'link create',
    () => ['link', 'create'],
    'no meeting type given, and no pick list to choose one from',
    /give a meeting-type slug, name or UUID/,
  ],
  [
    'webhooks rm --all',
    () => ['webhooks', 'rm', '--all'],
    '--all deletes without asking only with --yes',
    /add --yes to confirm; nothing was deleted/,
  ],
  [
    'webhooks rm --url',
    () => ['webhooks', 'rm', '--url', `${srv.url}/hook`],
    '--url deletes without asking only with --yes',
    /add --yes to confirm; nothing was deleted/,
  ],
  [
    'events send --edit',
    () => ['events', 'send', 'meetingScheduled', '--to', `${srv.url}/hook`, '--edit'],
    '--edit opens an editor, which needs a terminal',
    /--override <path>=<value>/,
  ],
  [
    'sig sign',
    () => ['sig', 'sign', '--payload-file', PAYLOAD_FILE],
    'a webhook secret is needed to sign, and cannot be asked',
    /SCHED_WEBHOOK_SECRET/,
  ],
  [
    'sig verify',
    () => ['sig', 'verify', '--signature', 'v1,x', '--payload-file', PAYLOAD_FILE],
    'a webhook secret is needed to verify, and cannot be asked',
    /SCHED_WEBHOOK_SECRET/,
  ],
];

// Prompts read stdin and draw on stderr: those two decide, with --no-input and CI (issue 40).
const reasons: Array<[why: string, extra: string[], io: RunOptions]> = [
  ['--no-input was given', ['--no-input'], { tty: true }],
  ['CI is set (CI=true), and nothing is asked in CI', [], { tty: true, env: { CI: 'true' } }],
  ['CI is set (CI=1), and nothing is asked in CI', [], { tty: true, env: { CI: '1' } }],
  ['stdin is not a terminal', [], { tty: true, stdinIsTTY: false }],
  ['stderr is not a terminal (it goes to a file or a pipe)', [], { tty: true, stderrIsTTY: false }],
];

const refusing: Prompter = new Proxy({} as Prompter, {
  // Not a thenable: the context resolves the prompter as a promise's value.
  get: (_t, name) =>
    name === 'then' ? undefined : () => Promise.reject(new Error(`prompted (${String(name)})`)),
});

describe.each(callers)('%s', (_name, argv, needed, hint) => {
  it.each(reasons)('%s: exit 2, says why, asks nothing, sends nothing', async (why, extra, io) => {
    const before = srv.requests.length;
    const r = await runSched([...argv(), ...extra], {
      ...io,
      prompter: refusing,
      stdin: '{"event":"meetingScheduled"}',
      env: {
        SCHED_BASE_URL: srv.baseUrl,
        SCHED_API_KEY: 'k',
        SCHED_CONFIG_DIR: config.path,
        NO_COLOR: '1',
        ...io.env,
      },
    });
    expect(r.code).toBe(2);
    const [first, second] = r.stderr.split('\n');
    expect(first).toBe(`error: ${needed}: ${why}`);
    expect(second).toMatch(/^hint: /);
    expect(second).toMatch(hint);
    expect(r.stdout).toBe('');
    expect(srv.requests.length).toBe(before);
  });
});

describe('stdout is not part of the rule: `X=$(sched ...)` at a terminal still asks', () => {
  const env = (extra: Record<string, string> = {}) => ({
    SCHED_BASE_URL: srv.baseUrl,
    SCHED_API_KEY: 'k',
    SCHED_CONFIG_DIR: config.path,
    NO_COLOR: '1',
    ...extra,
  });
  const asking = (asked: string[]): Prompter =>
    new Proxy({} as Prompter, {
      // Not a thenable: the context resolves the prompter as a promise's value.
      get: (_t, name) =>
        name === 'then'
          ? undefined
          : () => {
              asked.push(String(name));
              return Promise.reject(new Error('answered nothing'));
            },
    });

  it.each(callers.filter(([name]) => name !== 'events send --edit'))(
    '%s: stdout a pipe, stdin and stderr terminals: not refused for it (asks, or asks the API first)',
    async (_name, argv) => {
      const asked: string[] = [];
      const before = srv.requests.length;
      const r = await runSched(argv(), {
        tty: true,
        stdoutIsTTY: false,
        prompter: asking(asked),
        env: env(),
      });
      expect(r.stderr).not.toMatch(/is not a terminal/);
      expect(asked.length > 0 || srv.requests.length > before, r.stderr).toBe(true);
    },
  );

  it('CI=0 and CI=false are not CI: the prompt is asked', async () => {
    for (const CI of ['0', 'false', '']) {
      const asked: string[] = [];
      await runSched(['sig', 'sign', '--payload-file', PAYLOAD_FILE], {
        tty: true,
        prompter: asking(asked),
        env: env({ CI }),
      });
      expect(asked, `CI=${CI}`).toEqual(['password']);
    }
  });

  it('events send --edit: the editor takes the terminal itself, so stdout must be one too', async () => {
    const before = srv.requests.length;
    const r = await runSched(
      ['events', 'send', 'meetingScheduled', '--to', `${srv.url}/hook`, '--edit'],
      { tty: true, stdoutIsTTY: false, prompter: refusing, env: env() },
    );
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'error: --edit opens an editor, which needs a terminal: stdout is not a terminal (it goes to a file or a pipe)',
    );
    expect(srv.requests.length).toBe(before);
  });
});
