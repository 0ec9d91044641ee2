// A write to a file the user named that fails (issue 40), for real: the built CLI under a file
// size limit (RLIMIT_FSIZE), so the write fails with EFBIG after writing what fits. The command
// ends with one line naming the file, exit 1, and says what it had already done.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { PRLIMIT, schedWithFileLimit, spawnWithFileLimit } from '../helpers/file-size-limit.js';
import { unavailable } from '../helpers/skip.js';
import { until } from '../helpers/until.js';
import { runSched } from '../helpers/run.js';
import { startReceiver } from '../helpers/receiver.js';

let sb: TestSandbox;
let dir: string;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb?.close();
});
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const HOOK = 'https://hooks.example.com/secret-out';
const hooksAt = (url: string) => [...sb.state.webhooks.values()].filter((w) => w.url === url);

describe.skipIf(unavailable(!PRLIMIT && 'prlimit (util-linux) is not installed'))(
  'a file the user named cannot be written (EFBIG)',
  () => {
    it('webhooks add --secret-out: the new webhook is deleted and that is said; the secret is on no stream', async () => {
      dir = await mkdtemp(join(tmpdir(), 'sched-secret-out-'));
      const file = join(dir, 'secret.txt');
      sb.requests.length = 0;
      // No file may grow past 8 bytes: the secret (43 characters and a newline) cannot be written.
      const r = await schedWithFileLimit(
        8,
        ['webhooks', 'add', '--url', HOOK, '--secret-out', file],
        { ...sb.env, SCHED_CONFIG_DIR: join(dir, 'config') },
      );
      const created = sb.requests.find((q) => q.method === 'POST');
      const secret = (created?.body as { secret?: string } | undefined)?.secret;
      expect(secret, r.stderr).toMatch(/^\S{32,}$/);
      expect(r.code, r.stderr).toBe(1);
      const uuid = /webhook (\S+) was deleted/.exec(r.stderr)?.[1];
      expect(r.stderr).toBe(
        `error: could not write to --secret-out "${file}" (the file is too large, EFBIG): the new webhook ${uuid} was deleted, since its signing secret could not be kept\n`,
      );
      // Deleted: the webhook nobody has the secret of does not stay.
      expect(sb.requests.filter((q) => q.method === 'DELETE').map((q) => q.pathname)).toEqual([
        expect.stringContaining(uuid!),
      ]);
      expect(hooksAt(HOOK)).toEqual([]);
      // The secret went to no stream, and the file (made by this run) is gone.
      expect(r.stderr + r.stdout).not.toContain(secret!);
      expect(r.stdout).toBe('');
      expect(existsSync(file)).toBe(false);
    });

    it('webhooks listen --record: it stops at the write that failed, one error line naming the file, exit 1', async () => {
      dir = await mkdtemp(join(tmpdir(), 'sched-record-fault-'));
      const file = join(dir, 'rec.ndjson');
      const p = spawnWithFileLimit(200, [
        ...['webhooks', 'listen', '--port', '0', '--record', file],
        ...['--count', '2', '--max-time', '20'],
      ]);
      let stderr = '';
      p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      await until(
        () => /^ready/m.test(stderr),
        'ready',
        () => stderr,
      );
      const url = /listening on (\S+)/.exec(stderr)![1]!;
      const body = JSON.stringify({ event: 'meetingScheduled', uuid: 'd-1', data: {} });
      const res = await fetch(url, { method: 'POST', body });
      expect(res.status).toBe(200);
      await res.text();
      // Data the user asked for is being lost: the listener stops (before --count, --max-time).
      const r = await p;
      expect(r.exitCode, stderr).toBe(1);
      expect(stderr).toMatch(/^stopped listening on \S+ after 1 delivery$/m);
      const errors = stderr.split('\n').filter((l) => l.startsWith('error:'));
      expect(errors).toEqual([
        `error: could not write to --record "${file}" (the file is too large, EFBIG)`,
      ]);
      expect(stderr).not.toMatch(/\n\s+at .+:\d+:\d+|node:internal/);
      // The delivery was still answered and shown; the line that did not fit left no part of
      // itself behind (200 bytes would have been written): the recording still reads.
      expect(r.stdout.match(/meetingScheduled/g)).toHaveLength(1);
      expect(await readFile(file, 'utf8')).toBe('');
      const rx = await startReceiver();
      try {
        const replay = await runSched(['events', 'replay', file, '--to', rx.url]);
        expect(replay.stderr).toMatch(/holds no recorded delivery/);
      } finally {
        await rx.close();
      }
    });
  },
);
