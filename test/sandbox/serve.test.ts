// `sched sandbox` in-process: what it prints, what --quiet and --public-url change, and its
// log lines. The binary, stopped by real signals: test/e2e/sandbox.test.ts; an address it
// cannot listen on: test/rules/listen-failure.test.ts.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { sandboxLog } from '../../src/commands/sandbox/serve.js';
import { whenAborted } from '../../src/errors.js';
import { createBufferIO, type BufferIO } from '../helpers/buffer-io.js';
import { until } from '../helpers/until.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** Starts `sched sandbox --port 0 <args>`; stop() sends it a SIGTERM and gives the exit code. */
async function serve(args: string[]) {
  const ac = new AbortController();
  let io: BufferIO | undefined;
  const env = { SCHED_CONFIG_DIR: join(tmpdir(), 'sched-serve-no-config') };
  const done = runCli(['sandbox', '--port', '0', ...args], {
    io: (g) => (io ??= createBufferIO({ env, color: g.color, noInput: g.noInput })),
    env,
    signal: ac.signal,
  });
  await until(
    () => (io?.stdoutText() ?? '').endsWith('\n'),
    'the sandbox to print its address',
    () => io?.stderrText() ?? '',
    { unless: done },
  );
  return {
    io: io!,
    stop: async () => {
      ac.abort('SIGTERM');
      return done;
    },
  };
}

describe('sched sandbox', () => {
  it('--quiet prints the base URL alone and no request log; --public-url is where links point', async () => {
    const sb = await serve(['--quiet', '--public-url', 'https://tunnel.example/']);
    const baseUrl = sb.io.stdoutText().trim();
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    const types = (await (
      await fetch(`${baseUrl}/users/me/meeting-types`, {
        headers: { 'x-api-key': 'sandbox_test_key' },
      })
    ).json()) as { _embedded: { items: Array<{ uuid: string }> } };
    const link = (await (
      await fetch(`${baseUrl}/single-use-link`, {
        method: 'POST',
        headers: { 'x-api-key': 'sandbox_test_key', 'content-type': 'application/json' },
        body: JSON.stringify({ meeting_type_uuid: types._embedded.items[0]!.uuid }),
      })
    ).json()) as { url: string };
    expect(link.url).toMatch(/^https:\/\/tunnel\.example\/s\/[\w-]+$/);
    expect(await sb.stop()).toBe(0);
    expect(sb.io.stdoutText()).toBe(`${baseUrl}\n`);
    // No request lines, no "Try:" line: only the stop.
    expect(sb.io.stderrText()).toBe('Sandbox stopped.\n');
  });

  it('a state file that has meeting types already: --types is ignored, and said so', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sched-serve-'));
    dirs.push(dir);
    const file = join(dir, 'state.json');
    const first = await serve(['--state', file]);
    expect(await first.stop()).toBe(0);
    expect(first.io.stderrText()).toContain(`Sandbox stopped; state saved to ${file}.`);
    const again = await serve(['--state', file, '--types', '3']);
    expect(await again.stop()).toBe(0);
    expect(again.io.stderrText()).toContain(`Loaded ${file}: 0 webhooks, 0 links, 0 meetings.`);
    expect(again.io.stderrText()).toContain(
      'note: --types is ignored because the state file already has meeting types',
    );
  });
});

describe('sched sandbox --seed', () => {
  it('the same seed mints the same link code in two runs; the console URL is printed', async () => {
    const codes: string[] = [];
    for (let run = 0; run < 2; run++) {
      const sb = await serve(['--seed', '5']);
      const out = sb.io.stdoutText();
      const baseUrl = /^Base URL: +(\S+)$/m.exec(out)![1]!;
      expect(out).toContain(`Console:    ${new URL(baseUrl).origin}/\n`);
      const link = (await (
        await fetch(`${baseUrl}/single-use-link`, {
          method: 'POST',
          headers: { 'x-api-key': 'sandbox_test_key', 'content-type': 'application/json' },
          body: JSON.stringify({ meeting_type_uuid: '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c' }),
        })
      ).json()) as { code: string };
      codes.push(link.code);
      expect(await sb.stop()).toBe(0);
    }
    expect(codes[1]).toBe(codes[0]);
  });

  it.each([['x'], ['-1'], ['1.5'], ['9007199254740992']])(
    '--seed %s is a usage error',
    async (v) => {
      const io = createBufferIO();
      const code = await runCli(['sandbox', '--port', '0', '--seed', v], {
        io: () => io,
        env: { SCHED_CONFIG_DIR: join(tmpdir(), 'sched-serve-no-config') },
      });
      expect(code).toBe(2);
      expect(io.stderrText()).toContain('--seed must be a whole number from 0 to 9007199254740991');
    },
  );
});

describe('sched sandbox --state: the config trust rule', () => {
  it('a world-writable state file: one error line naming it and the fix, exit 2, nothing served', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sched-serve-'));
    dirs.push(dir);
    const file = join(dir, 'state.json');
    await writeFile(file, '{}');
    await chmod(file, 0o666);
    const io = createBufferIO();
    const code = await runCli(['sandbox', '--port', '0', '--state', file], {
      io: () => io,
      env: { SCHED_CONFIG_DIR: join(tmpdir(), 'sched-serve-no-config') },
    });
    expect(code).toBe(2);
    expect(io.stdoutText()).toBe('');
    expect(io.stderrText()).toContain(
      `the state file ${file} is writable by others (mode 0666); anyone could have changed its webhooks and secrets`,
    );
    expect(io.stderrText()).toContain(`chmod 600 ${file}`);
  });
});

describe('the sandbox log', () => {
  const delivery = {
    type: 'delivery' as const,
    event: 'meetingScheduled',
    url: 'https://rx.example/hook',
    webhookUuid: 'w',
    notificationUuid: 'n',
  };
  const TIME = /^\d\d:\d\d:\d\d /;

  it('a line per request (none with --quiet), per delivery attempt and per warning', () => {
    const io = createBufferIO();
    const quietIo = createBufferIO();
    for (const [out, quiet] of [
      [io, false],
      [quietIo, true],
    ] as const) {
      const log = sandboxLog(out, quiet);
      log({ type: 'request', method: 'GET', path: '/api/webhooks', status: 200, ms: 3 });
      log({ ...delivery, attempt: 1, status: 500, error: undefined, outcome: 'retrying' });
      log({ ...delivery, attempt: 4, status: undefined, error: 'ECONNREFUSED', outcome: 'failed' });
      log({ ...delivery, attempt: 1, status: 204, error: undefined, outcome: 'delivered' });
      log({ type: 'state-error', message: 'cannot write /x/state.json: EACCES' });
    }
    const lines = io.stderrText().split('\n').slice(0, -1);
    const untimed = (text: string) => text.replace(new RegExp(TIME.source, 'gm'), '');
    expect(untimed(io.stderrText()).split('\n').slice(0, -1)).toEqual([
      'GET /api/webhooks 200 3ms',
      'delivery meetingScheduled -> https://rx.example/hook attempt 1: HTTP 500, will retry',
      'delivery meetingScheduled -> https://rx.example/hook attempt 4: no answer (ECONNREFUSED), giving up',
      'delivery meetingScheduled -> https://rx.example/hook attempt 1: HTTP 204',
      'warning: cannot write /x/state.json: EACCES',
    ]);
    expect(lines.every((l) => l.startsWith('warning:') || TIME.test(l))).toBe(true);
    expect(untimed(quietIo.stderrText())).toBe(
      untimed(io.stderrText()).split('\n').slice(1).join('\n'),
    );
  });
});

describe('whenAborted', () => {
  it('resolves at once for a signal already aborted, else on its abort', async () => {
    await whenAborted(AbortSignal.abort());
    const ac = new AbortController();
    let resolved = false;
    const p = whenAborted(ac.signal).then(() => (resolved = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(resolved).toBe(false);
    ac.abort();
    await p;
    expect(resolved).toBe(true);
  });
});
