// `events replay` on the built CLI: a line longer than `webhooks listen --record` can write is
// refused naming it (exit 2, one line, nothing sent) without being held whole; and every line is
// checked completely — UTF-8, shape, every header value that would be sent — before the first
// request, so a bad line 2 never lets line 1 go out.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSched } from '../../helpers/run.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { MAX_RECORDING_LINE_BYTES } from '../../../src/commands/events/replay.js';
import { DEFAULT_MAX_DELIVERY_BYTES } from '../../../src/domain/webhooks/listen/receiver.js';

let dir: string;
let rx: Receiver;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sched-replay-bounds-'));
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await rm(dir, { recursive: true, force: true });
});

/** One recorded delivery, as `webhooks listen --record` writes it. */
function line(over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    kind: 'sched.webhook-delivery/1',
    receivedAt: '2026-01-01T00:00:00.000Z',
    method: 'POST',
    path: '/hook',
    headers: [
      ['content-type', 'application/json'],
      ['user-agent', 'SimplyMeet.me'],
    ],
    body: '{"event":"meetingScheduled","uuid":"u-1"}',
    bytes: 41,
    event: 'meetingScheduled',
    uuid: 'u-1',
    signature: 'unchecked',
    signatureReason: null,
    ...over,
  });
}

describe('events replay: bounded lines', () => {
  it('the bound holds the longest line the listener writes (every byte escaped as \\u0000)', () => {
    const worst = 6 * (DEFAULT_MAX_DELIVERY_BYTES + 16 * 1024) + 64 * 1024;
    expect(MAX_RECORDING_LINE_BYTES).toBeGreaterThanOrEqual(worst);
  });

  it('a line past the bound: exit 2 naming it, nothing sent, no stack trace', async () => {
    const file = path.join(dir, 'long.ndjson');
    // Line 2 is a JSON string just past the bound (40 MB): what a listener never writes.
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(file);
      out.on('error', reject);
      out.write(line() + '\n{"body":"');
      const chunk = 'x'.repeat(1024 * 1024);
      for (let i = 0; i < 40; i++) out.write(chunk);
      out.end('"}\n', resolve);
    });
    const r = await spawnSched(['events', 'replay', file, '--to', rx.url], { timeout: 60_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: "${file}" is not a recording of \`sched webhooks listen --record\`: line 2 is longer than ${MAX_RECORDING_LINE_BYTES / 1024 / 1024} MiB, more than \`webhooks listen\` records for one delivery`,
    );
    expect(r.stderr).not.toMatch(/RangeError|\n\s+at /);
    expect(rx.received).toEqual([]);
  });

  it('a line at the bound is read (and refused only for what it holds)', async () => {
    const file = path.join(dir, 'at-bound.ndjson');
    const head = '{"pad":"';
    const pad = 'x'.repeat(MAX_RECORDING_LINE_BYTES - head.length - 2);
    await writeFile(file, `${line()}\n${head}${pad}"}\n`);
    const r = await spawnSched(['events', 'replay', file, '--to', rx.url], { timeout: 60_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('line 2 has no "kind"');
    expect(rx.received).toEqual([]);
  });
});

describe('events replay: every line checked completely before the first request', () => {
  it.each([
    [
      'a header value that cannot be sent',
      Buffer.from(line({ headers: [['content-type', 'application/json\r\nx-evil: 1']] })),
      'line 2 has a content-type header that cannot be sent',
    ],
    [
      'a header value beyond Latin-1',
      Buffer.from(line({ headers: [['user-agent', 'Sched 面談']] })),
      'line 2 has a user-agent header that cannot be sent',
    ],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 'line 2 is not UTF-8 text'],
  ])('%s on line 2: exit 2 naming it, line 1 never sent', async (_what, second, why) => {
    const file = path.join(dir, `bad-${why.length}.ndjson`);
    await writeFile(file, Buffer.concat([Buffer.from(line() + '\n'), second, Buffer.from('\n')]));
    const r = await spawnSched(['events', 'replay', file, '--to', rx.url]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.split('\n')[0]).toContain(why);
    expect(r.stderr).not.toMatch(/unexpected failure|\n\s+at /);
    expect(rx.received).toEqual([]);
  });

  it('a good file is still sent, line by line, read again from where the check found it', async () => {
    const file = path.join(dir, 'good.ndjson');
    const lines = [1, 2, 3].map((i) => line({ uuid: `u-${i}`, body: `{"n":${i}}`, bytes: 7 }));
    await writeFile(file, lines.join('\r\n') + '\r\n');
    const r = await spawnSched(['events', 'replay', file, '--to', rx.url, '--last', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(rx.received.map((x) => x.body.toString())).toEqual(['{"n":2}', '{"n":3}']);
    rx.received.length = 0;
  });
});
