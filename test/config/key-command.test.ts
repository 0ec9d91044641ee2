// The key command (src/config/key-command.ts): the command line split as a POSIX shell splits
// it (and refused where a shell would do something else), run without a shell and without
// stdin, bounded in time and output, every failure worded with its `problem`; and the key's
// precedence (chooseKey, src/config/sources.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  CommandLineError,
  KeyCommandError,
  runKeyCommand,
  splitCommandLine,
  type KeyCommandProblem,
} from '../../src/config/key-command.js';
import { chooseKey } from '../../src/config/sources.js';
import { Interrupted } from '../../src/errors.js';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sched-keycmd-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('splitCommandLine: words as a POSIX shell makes them', () => {
  const cases: Array<[string, string[]]> = [
    ['secret-tool lookup service sched', ['secret-tool', 'lookup', 'service', 'sched']],
    ['  op   read\t"op://vault/My item/key"  ', ['op', 'read', 'op://vault/My item/key']],
    ["pass show 'sched/api key'", ['pass', 'show', 'sched/api key']],
    [
      'security find-generic-password -s sched -w',
      ['security', 'find-generic-password', '-s', 'sched', '-w'],
    ],
    ['a\\ b c', ['a b', 'c']],
    ["it''s", ['its']],
    ["a '' b", ['a', '', 'b']],
    ['a "" b', ['a', '', 'b']],
    ['"a"\'b\'c', ['abc']],
    ['"x \\" \\\\ \\$ \\` y"', ['x " \\ $ ` y']],
    ['"a\\b"', ['a\\b']],
    ['\'a\\b "c"\'', ['a\\b "c"']],
    ["'$HOME | * ~ #'", ['$HOME | * ~ #']],
    ['a\\\nb', ['ab']],
    ['a\nb', ['a', 'b']],
    ['"a\\\nb"', ['ab']],
    ['\\|', ['|']],
    ['key=value a#b a~b {x,y}', ['key=value', 'a#b', 'a~b', '{x,y}']],
    [
      '/usr/bin/secret-tool lookup service "sched cli"',
      ['/usr/bin/secret-tool', 'lookup', 'service', 'sched cli'],
    ],
  ];
  // The commands SECURITY.md and docs/configuration.md suggest.
  cases.push(
    [
      'powershell -NoProfile -Command "(Get-StoredCredential -Target sched).GetNetworkCredential().Password"',
      [
        'powershell',
        '-NoProfile',
        '-Command',
        '(Get-StoredCredential -Target sched).GetNetworkCredential().Password',
      ],
    ],
    ['op read "op://Private/sched/credential"', ['op', 'read', 'op://Private/sched/credential']],
    ['pass show sched/api-key', ['pass', 'show', 'sched/api-key']],
  );
  it.each(cases)('%j', (line, words) => {
    expect(splitCommandLine(line)).toEqual(words);
  });

  const refused: Array<[string, RegExp]> = [
    ['', /holds no command/],
    ['   ', /holds no command/],
    ["op read 'x", /' at character 9 is never closed/],
    ['op read "x', /" at character 9 is never closed/],
    ['a\\', /ends with a backslash/],
    ['pass show x | head -1', /"\|" at character 13 would be a pipe/],
    ['a; b', /";" .* pipe, list or redirection/],
    ['a && b', /"&"/],
    ['a > f', /">"/],
    ['a < f', /"<"/],
    ['(a)', /"\("/],
    ['echo $KEY', /"\$" at character 6 would expand/],
    ['echo `id`', /"`" .*would expand/],
    ['echo "$KEY"', /"\$" inside double quotes/],
    ['echo "`id`"', /"`" inside double quotes/],
    ['cat *.key', /"\*" .*file name pattern/],
    ['cat ?', /"\?"/],
    ['cat [ab]', /"\["/],
    ['cat ~/key', /"~" .*home directory/],
    ['a #comment', /"#" .*comment/],
  ];
  it.each(refused)('refuses %j', (line, why) => {
    let err: unknown;
    try {
      splitCommandLine(line);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CommandLineError);
    expect((err as Error).message).toMatch(why);
  });
});

/** A script run by `sh` (a program, no shell in between): what it prints is the key. */
function script(name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, body);
  return `sh ${file}`;
}

const run = (line: string, extra: Partial<Parameters<typeof runKeyCommand>[1]> = {}) =>
  runKeyCommand(line, { env: { PATH: process.env.PATH }, profile: 'work', ...extra });

async function failure(line: string, extra: Partial<Parameters<typeof runKeyCommand>[1]> = {}) {
  try {
    await run(line, extra);
  } catch (e) {
    return e as KeyCommandError;
  }
  throw new Error('the key command did not fail');
}

describe('runKeyCommand', () => {
  it('returns the output trimmed, words passed as they are (no shell: $HOME stays text)', async () => {
    const line = script('args.sh', 'printf "  %s|%s|%s  \\r\\n" "$#" "$1" "$2"\n');
    expect(await run(`${line} 'a"b' '$HOME'`)).toBe('2|a"b|$HOME');
  });

  it('gives the command the environment it is given', async () => {
    const line = script('env.sh', 'printf %s "$SECRET_SOURCE"\n');
    expect(await run(line, { env: { PATH: process.env.PATH, SECRET_SOURCE: 'k_from_env' } })).toBe(
      'k_from_env',
    );
  });

  it('an unset variable (undefined) is not passed on as a word', async () => {
    const line = script('unset.sh', 'printf %s "${GONE-unset}"\n');
    expect(await run(line, { env: { PATH: process.env.PATH, GONE: undefined } })).toBe('unset');
  });

  it('keeps only the first 4 KiB of a chatty stderr, and its first line', async () => {
    const line = script(
      'chatty.sh',
      'echo "first"  >&2; head -c 100000 /dev/zero | tr "\\0" x >&2; exit 2\n',
    );
    const e = await failure(line);
    expect(e.message).toMatch(/failed \(exit 2\): "first"$/);
  });

  it('a signal already aborted: the command is not waited for', async () => {
    const ac = new AbortController();
    ac.abort('SIGTERM');
    const e = await run(script('never.sh', 'exec sleep 30\n'), { signal: ac.signal }).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(Interrupted);
    expect((e as Interrupted).exitCode).toBe(143);
  });

  it('never passes stdin on: the command reads an empty stdin', async () => {
    const seen = path.join(dir, 'stdin-seen');
    const line = script('stdin.sh', `cat > ${seen}\nprintf %s key_123\n`);
    expect(await run(line)).toBe('key_123');
    expect(fs.readFileSync(seen, 'utf8')).toBe('');
  });

  const failures: Array<[string, () => string, KeyCommandProblem, RegExp, RegExp]> = [
    [
      'not found',
      () => 'no-such-program-sched lookup',
      'not_found',
      /^the key command of profile "work" was not found: "no-such-program-sched" is not a program on PATH$/,
      /install it or give its full path, then `sched auth login --profile work --key-command '<command>'`/,
    ],
    [
      'not runnable',
      () => {
        const f = path.join(dir, 'not-exec');
        fs.writeFileSync(f, '#!/bin/sh\n', { mode: 0o600 });
        return f;
      },
      'not_runnable',
      /cannot be run: ".*not-exec" \(EACCES\)$/,
      /give its full path/,
    ],
    [
      'non-zero exit, with the first line of its stderr',
      () =>
        script(
          'fails.sh',
          'echo >&2; printf "No such secret \\033]0;x\\007 here\\nsecond line\\n" >&2; exit 3\n',
        ),
      'exit',
      /failed \(exit 3\): "No such secret \\u001b]0;x\\u0007 here"$/,
      /^run `sh .*fails\.sh` yourself to see why$/,
    ],
    [
      'non-zero exit, nothing on stderr',
      () => script('quiet.sh', 'exit 1\n'),
      'exit',
      /failed \(exit 1\)$/,
      /yourself to see why/,
    ],
    [
      'ended by a signal',
      () => script('killed.sh', 'kill -9 $$\n'),
      'signal',
      /was ended by SIGKILL$/,
      /yourself to see why/,
    ],
    [
      'empty output',
      () => script('empty.sh', 'printf "  \\n"\n'),
      'empty',
      /printed nothing$/,
      /is the secret stored\?/,
    ],
    [
      'more than a key',
      () => script('lines.sh', 'printf "key\\nnotes: x\\n"\n'),
      'not_a_key',
      /printed more than a key/,
      /must print only the key/,
    ],
    [
      'too long',
      () => script('long.sh', 'head -c 5000 /dev/zero | tr "\\0" k\n'),
      'too_long',
      /printed more than 4096 bytes/,
      /must print only the key/,
    ],
    [
      'a line that cannot be split',
      () => 'op read "x',
      'syntax',
      /cannot be run: the " at character 9 is never closed/,
      /store a corrected one/,
    ],
  ];
  it.each(failures)(
    '%s: worded, exit 4, problem field',
    async (_, make, problem, message, hint) => {
      const e = await failure(make());
      expect(e).toBeInstanceOf(KeyCommandError);
      expect(e.problem).toBe(problem);
      expect(e.exitCode).toBe(4);
      expect(e.code).toBe('auth');
      expect(e.message).toMatch(message);
      expect(e.hint).toMatch(hint);
    },
  );

  it('4096 bytes is the bound: exactly that much is a key', async () => {
    const line = script('max.sh', 'head -c 4096 /dev/zero | tr "\\0" k\n');
    expect(await run(line)).toHaveLength(4096);
  });

  it('stops a command that takes too long (at the timeout, not when it ends)', async () => {
    const pidFile = path.join(dir, 'slow.pid');
    const line = script('slow.sh', `echo $$ > ${pidFile}\nexec sleep 30\n`);
    const started = Date.now();
    const e = await failure(line, { timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(e.problem).toBe('timeout');
    expect(e.message).toMatch(/printed no key within 0.3 s and was stopped/);
    expect(e.hint).toMatch(/unlock it/);
    // It was ended, not left running.
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    await expect.poll(() => alive(pid), { timeout: 3_000 }).toBe(false);
  });

  it('a descendant holding stdout open does not hold the key back', async () => {
    const pidFile = path.join(dir, 'daemon.pid');
    const line = script('daemon.sh', `sleep 30 & echo $! > ${pidFile}\nprintf %s key_daemon\n`);
    const started = Date.now();
    expect(await run(line)).toBe('key_daemon');
    expect(Date.now() - started).toBeLessThan(5_000);
    process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGTERM');
  });

  it('Ctrl-C while it runs: interrupted (130), the command ended', async () => {
    const ac = new AbortController();
    const line = script('wait.sh', 'exec sleep 30\n');
    const p = run(line, { signal: ac.signal });
    setTimeout(() => ac.abort('SIGINT'), 100);
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Interrupted);
    expect((e as Interrupted).exitCode).toBe(130);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('chooseKey: SCHED_API_KEY > the profile (its key, or its key command, never run here)', () => {
  const cmd = 'secret-tool lookup service sched';
  const cases: Array<
    [string, string | undefined, { apiKey?: string; keyCommand?: string } | undefined, object]
  > = [
    [
      'nothing',
      undefined,
      undefined,
      { apiKey: undefined, keySource: undefined, envOverridesProfileKey: false },
    ],
    [
      'a stored key',
      undefined,
      { apiKey: 'k1' },
      { apiKey: 'k1', keySource: 'profile', envOverridesProfileKey: false },
    ],
    [
      'a key command',
      undefined,
      { keyCommand: cmd },
      { apiKey: undefined, keySource: 'command', keyCommand: cmd, envOverridesProfileKey: false },
    ],
    [
      'env over a key command',
      'k2',
      { keyCommand: cmd },
      { apiKey: 'k2', keySource: 'env', keyCommand: cmd, envOverridesProfileKey: true },
    ],
    [
      'env over another key',
      'k2',
      { apiKey: 'k1' },
      { apiKey: 'k2', keySource: 'env', envOverridesProfileKey: true },
    ],
    [
      'env, the same key',
      'k1',
      { apiKey: 'k1' },
      { apiKey: 'k1', keySource: 'env', envOverridesProfileKey: false },
    ],
    [
      'env alone',
      'k2',
      undefined,
      { apiKey: 'k2', keySource: 'env', envOverridesProfileKey: false },
    ],
  ];
  it.each(cases)('%s', (_, env, profile, expected) => {
    expect(chooseKey(env, profile)).toMatchObject(expected);
  });
});
