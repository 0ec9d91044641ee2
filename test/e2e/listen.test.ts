// `sched webhooks listen` as a real process: real SIGINT/SIGTERM through src/main.ts, and the
// registered webhook is gone afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { execa, type ResultPromise } from 'execa';
import { BIN } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

function spawnListen(argv: string[], env: Record<string, string>) {
  const child = execa(process.execPath, [BIN, 'webhooks', 'listen', '--port', '0', ...argv], {
    env: { NO_COLOR: '1', ...env },
    reject: false,
    buffer: true,
  }) as ResultPromise;
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  return { child, stderr: () => stderr, stdout: () => stdout };
}

describe('sched webhooks listen (built binary)', () => {
  it('prints deliveries on stdout, its URL on stderr, and exits 0 on SIGTERM (its normal end)', async () => {
    const l = spawnListen(['--secret', 's'], {});
    await until(() => /ready/.test(l.stderr()), 'ready', l.stderr);
    const url = /listening on (\S+)/.exec(l.stderr())![1]!;
    const body = '{"event":"meetingScheduled","uuid":"n1","data":{"uuid":"m1"}}';
    const res = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'webhook-signature': createHmac('sha256', 's').update(body).digest('base64') },
    });
    expect(res.status).toBe(200);
    await until(() => /signature valid/.test(l.stdout()), 'the delivery', l.stdout);
    l.child.kill('SIGTERM');
    const r = await l.child;
    expect(r.exitCode).toBe(0); // 143 before: a server stopped by a signal ended normally
    expect(l.stdout()).toMatch(/^\d\d:\d\d:\d\d {2}meetingScheduled {2}m1 .*signature valid\n$/);
    expect(l.stderr()).toMatch(/stopped listening on .* after 1 delivery\n$/);
  });

  it('deletes the webhook it registered when stopped with Ctrl-C', async () => {
    const l = spawnListen(['--register', 'https://tunnel.example/hook'], { ...sb.env });
    await until(() => /ready/.test(l.stderr()), 'ready', l.stderr);
    const list = async () =>
      (
        (await (await sb.api('/webhooks')).json()) as {
          _embedded: { items: Array<{ url: string }> };
        }
      )._embedded.items;
    expect((await list()).map((w) => w.url)).toEqual(['https://tunnel.example/hook']);
    l.child.kill('SIGINT');
    const r = await l.child;
    expect(r.exitCode).toBe(0); // 130 before
    expect(l.stderr()).toMatch(/deleted webhook [0-9a-f-]{36}\n$/);
    expect(await list()).toEqual([]);
  });
});
