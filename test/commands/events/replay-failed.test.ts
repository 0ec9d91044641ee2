// `events replay --failed`: only the deliveries no forward of `webhooks listen --forward-to`
// took, as the recording says (each forwarded delivery's line carries its forwards' outcome).
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli.js';
import { createBufferIO } from '../../helpers/buffer-io.js';
import { receiversClosedAfterEach } from '../../helpers/receiver.js';
import { runSched } from '../../helpers/run.js';
import { until } from '../../helpers/until.js';

const delivery = (uuid: string) =>
  JSON.stringify({ event: 'meetingScheduled', uuid, data: { uuid: `m-${uuid}` } });

let dir: string | undefined;
const startReceiver = receiversClosedAfterEach();
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('events replay --failed', () => {
  it('replays only what no forward took, and says so when nothing failed', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sched-replay-failed-'));
    const file = join(dir, 'rec.ndjson');
    // The app fails the first delivery's three tries, then takes the second.
    const app = await startReceiver({ statuses: [500, 500, 500] });
    const io = createBufferIO();
    const done = runCli(
      [
        'webhooks',
        'listen',
        '--port',
        '0',
        '--record',
        file,
        '--forward-to',
        app.url,
        '--count',
        '2',
      ],
      { io, env: {} },
    );
    await until(() => /^ready/m.test(io.stderrText()), 'ready', io.stderrText);
    const url = /listening on (\S+)/.exec(io.stderrText())![1]!;
    await fetch(url, { method: 'POST', body: delivery('lost') }).then((r) => r.text());
    await until(() => /failed|: 500/.test(io.stdoutText()), 'the failed forward', io.stdoutText);
    await fetch(url, { method: 'POST', body: delivery('took') }).then((r) => r.text());
    expect(await done).toBe(0);

    const lines = (await readFile(file, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((x) => JSON.parse(x) as { uuid: string; forwards: Array<{ status: number }> });
    expect(lines.map((l) => [l.uuid, l.forwards.map((f) => f.status)])).toEqual([
      ['lost', [500]],
      ['took', [200]],
    ]);

    const fixed = await startReceiver();
    const r = await runSched(['events', 'replay', file, '--failed', '--to', fixed.url]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^line 1 {2}meetingScheduled lost {2}200 OK in \d+ ms\n$/);
    expect(fixed.received.map((x) => x.body.toString())).toEqual([delivery('lost')]);

    // A recording whose forwards all went through: nothing to do, exit 0.
    const ok = join(dir, 'ok.ndjson');
    await import('node:fs/promises').then((fs) =>
      fs.writeFile(ok, JSON.stringify(lines[1]) + '\n'),
    );
    const none = await runSched(['events', 'replay', ok, '--failed', '--to', fixed.url]);
    expect(none.code).toBe(0);
    expect(none.stderr).toBe(`nothing to replay: no delivery in "${ok}" has a failed forward\n`);
    expect(fixed.received).toHaveLength(1);
  });
});
