// A recording another process appends to while a replay runs (`listen --record` still going):
// an outcome that cannot be written must cut off only its own bytes, never the other writer's.
import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureOf } from '../../../src/domain/webhooks/listen/capture.js';
import { unavailable } from '../../helpers/skip.js';
import { PRLIMIT, schedWithFileLimit } from '../../helpers/file-size-limit.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

function recorded(uuid: string, pad = 0): string {
  const body = JSON.stringify({ event: 'meetingScheduled', uuid, pad: 'x'.repeat(pad) });
  const c = captureOf(
    {
      method: 'POST',
      path: '/hook',
      rawHeaders: ['Content-Type', 'application/json'],
      body: Buffer.from(body),
    },
    {
      receivedAt: new Date('2026-11-27T10:00:00Z'),
      event: 'meetingScheduled',
      uuid,
      signature: 'unchecked',
      signatureReason: null,
    },
  );
  return JSON.stringify(c) + '\n';
}

describe.skipIf(unavailable(!PRLIMIT && 'prlimit (util-linux) is not installed'))(
  'events replay: a recording another process appends to',
  () => {
    it('a failed outcome write leaves the lines another writer appended meanwhile', async () => {
      dir = await mkdtemp(join(tmpdir(), 'sched-journal-shared-'));
      const file = join(dir, 'rec.ndjson');
      const original = recorded('a');
      await writeFile(file, original, { mode: 0o600 });
      // The listener, still recording, appends a delivery while the replay waits for its answer.
      const other = recorded('b', 400);
      const server = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          appendFileSync(file, other);
          res.writeHead(500).end('no');
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/app`;
      try {
        // Room for the other writer's line, not for an outcome after it: the write fails.
        const cap = Buffer.byteLength(original) + Buffer.byteLength(other) + 20;
        const run = await schedWithFileLimit(cap, ['events', 'replay', file, '--to', url]);
        expect(run.code, run.stderr).toBe(1);
        expect(run.stderr).toContain('EFBIG');
        const text = await readFile(file, 'utf8');
        expect(text.startsWith(original + other), "the other writer's line was cut off").toBe(true);
      } finally {
        await new Promise((r) => server.close(r));
      }
    });
  },
);
