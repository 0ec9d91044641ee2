// Issue 20 (smaller): a payload file that never ends (/dev/zero) or never opens (a FIFO nobody
// writes) is bounded and honours SIGTERM: events send stops past the most a delivery may hold,
// and sig sign, blocked opening a FIFO, still ends on SIGTERM with exit 143.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, writeSync } from 'node:fs';
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAYLOAD_BYTES } from '../../src/domain/webhooks/input.js';
import { spawnServer } from '../helpers/hostile.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { spawnSched } from '../helpers/run.js';
import { until } from '../helpers/until.js';
import { runsElsewhere } from '../helpers/skip.js';

/**
 * Opens the FIFO for writing once sched has it open for reading (a non-blocking open fails
 * until then); undefined when sched ended first.
 */
async function openWriter(
  fifo: string,
  p: { ended(): boolean; stderr(): string },
): Promise<number | undefined> {
  let writer: number | undefined;
  await until(
    () => {
      try {
        writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
        return true;
      } catch {
        return p.ended();
      }
    },
    'sched to open the FIFO',
    p.stderr,
  );
  return writer;
}

let dir: string;
let rx: Receiver;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sched-sec-payload-'));
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(runsElsewhere(!existsSync('/dev/zero') && 'no /dev/zero here (Windows)'))(
  'a payload file that never ends',
  () => {
    it('events send --payload-file /dev/zero: exit 2 past the limit, nothing sent', async () => {
      const r = await spawnSched(
        ['events', 'send', 'meetingScheduled', '--to', rx.url, '--payload-file', '/dev/zero'],
        { env: { SCHED_WEBHOOK_SECRET: 'a-secret-1234' }, timeout: 60_000 },
      );
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          `^error: the payload from "/dev/zero" is larger than ${MAX_PAYLOAD_BYTES / 1024 / 1024} MiB`,
        ),
      );
      expect(rx.received.length).toBe(0);
    });
  },
);

describe.skipIf(runsElsewhere(process.platform === 'win32' && 'Windows: no FIFOs'))(
  'a FIFO nobody writes to',
  () => {
    it.each([
      ['sig sign', ['sig', 'sign', '--secret', 'a-secret-1234']],
      [
        'events send',
        ['events', 'send', 'meetingScheduled', '--to', 'URL', '--secret', 'a-secret-1234'],
      ],
    ])(
      '%s --payload-file <fifo>: SIGTERM ends it, exit 143',
      async (_what, argv) => {
        const fifo = path.join(dir, `fifo-${argv[0]}`);
        execFileSync('mkfifo', [fifo]);
        const p = spawnServer(
          [...argv.map((a) => (a === 'URL' ? rx.url : a)), '--payload-file', fifo],
          {},
        );
        // Once sched has the FIFO open for reading, a writer can open it too (non-blocking): it
        // then holds it open and writes nothing, so the read never ends.
        const writer = await openWriter(fifo, p);
        await new Promise((r) => setTimeout(r, 200));
        expect(p.ended()).toBe(false);
        expect(await p.stop()).toBe(143);
        expect(p.stderr()).toMatch(/^error: interrupted while reading the payload/m);
        if (writer !== undefined) closeSync(writer);
      },
      30_000,
    );
  },
);

describe.skipIf(runsElsewhere(process.platform === 'win32' && 'Windows: no FIFOs'))(
  'a FIFO that is written to',
  () => {
    it('sig sign waits for the writer and signs what it wrote', async () => {
      const fifo = path.join(dir, 'fifo-written');
      execFileSync('mkfifo', [fifo]);
      const p = spawnServer(
        ['sig', 'sign', '--secret', 'a-secret-1234', '--payload-file', fifo],
        {},
      );
      const writer = await openWriter(fifo, p);
      writeSync(writer!, '{"event":"x"}');
      closeSync(writer!);
      await until(() => p.ended(), 'sig sign to end', p.stderr);
      const expected = createHmac('sha256', 'a-secret-1234')
        .update('{"event":"x"}')
        .digest('base64');
      expect(p.stdout()).toBe(`${expected}\n`);
    }, 30_000);
  },
);
