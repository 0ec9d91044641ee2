// `sched events replay`: recorded deliveries sent again byte-exact with their recorded headers
// (or re-signed), chosen by uuid or the last n, every line checked before anything is sent.
import { afterEach, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli.js';
import { createBufferIO } from '../../helpers/buffer-io.js';
import { runSched } from '../../helpers/run.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { until } from '../../helpers/until.js';

const SECRET = 'replay-secret-77';
const sign = (body: string | Buffer, secret = SECRET) =>
  createHmac('sha256', secret).update(body).digest('base64');
const delivery = (event: string, uuid: string) =>
  JSON.stringify({ event, uuid, data: { uuid: `m-${uuid}`, note: 'é ✓' } });

let dir: string;
let receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function app(statuses?: number[]) {
  const r = await startReceiver({ statuses });
  receivers.push(r);
  return r;
}

/** A recording as `webhooks listen --record` writes it, made by the real listener. */
async function record(
  deliveries: Array<{ body: string | Buffer; headers?: Record<string, string> }>,
) {
  dir = await mkdtemp(join(tmpdir(), 'sched-replay-'));
  const file = join(dir, 'deliveries.ndjson');
  const ac = new AbortController();
  const io = createBufferIO();
  const done = runCli(['webhooks', 'listen', '--port', '0', '--json', '--record', file], {
    io,
    env: {},
    signal: ac.signal,
  });
  await until(() => io.stdoutText().includes('listening'), 'the listener', io.stderrText);
  const url = (JSON.parse(io.stdoutText().split('\n')[0]!) as { listening: string }).listening;
  for (const d of deliveries) {
    const res = await fetch(url + 'hook', {
      method: 'POST',
      body: d.body,
      headers: { 'content-type': 'application/json', 'user-agent': 'SimplyMeet.me', ...d.headers },
    });
    expect(res.status).toBe(200);
  }
  ac.abort('SIGINT');
  expect(await done).toBe(0);
  return file;
}

describe('sched events replay', () => {
  it('re-sends each recorded delivery byte-exact with its recorded signature, and only the delivery headers', async () => {
    const a = delivery('meetingScheduled', 'u-1');
    const b = Buffer.from([0x7b, 0xff, 0x00, 0x7d]);
    const file = await record([
      { body: a, headers: { 'webhook-signature': sign(a), authorization: 'Bearer x' } },
      { body: b },
    ]);
    const target = await app();
    const r = await runSched(['events', 'replay', file, '--to', target.url]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `replaying 2 deliveries to ${target.url} with their recorded signatures\n`,
    );
    expect(r.stdout).toMatch(
      /^line 1 {2}meetingScheduled u-1 {2}200 OK in \d+ ms\nline 2 {2}\(no event\) \(no uuid\) {2}200 OK in \d+ ms\n$/,
    );
    expect(target.received.map((x) => x.body)).toEqual([Buffer.from(a), b]);
    const first = target.received[0]!;
    expect(first.headers['webhook-signature']).toBe(sign(a));
    expect(first.headers['user-agent']).toBe('SimplyMeet.me');
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.headers.authorization).toBeUndefined();
    expect(first.url).toBe('/hook');
  });

  it('one delivery is said in the singular, with its recorded signature', async () => {
    const a = delivery('meetingScheduled', 'u-1');
    const file = await record([{ body: a, headers: { 'webhook-signature': sign(a) } }]);
    const target = await app();
    const r = await runSched(['events', 'replay', file, '--to', target.url]);
    expect(r.stderr).toBe(`replaying 1 delivery to ${target.url} with its recorded signature\n`);
  });

  it('--secret re-signs each body; --uuid and --last choose which', async () => {
    const bodies = ['u-1', 'u-2', 'u-3'].map((u) => delivery('meetingCancelled', u));
    const file = await record(
      bodies.map((body) => ({ body, headers: { 'webhook-signature': 'old' } })),
    );
    const target = await app();
    const r = await runSched([
      'events',
      'replay',
      file,
      '--to',
      target.url,
      '--secret',
      'new-secret-1',
      '--last',
      '2',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('re-signed with --secret');
    expect(target.received.map((x) => x.body.toString())).toEqual([bodies[1], bodies[2]]);
    expect(target.received[0]!.headers['webhook-signature']).toBe(sign(bodies[1]!, 'new-secret-1'));

    const picked = await runSched([
      'events',
      'replay',
      file,
      '--to',
      target.url,
      '--uuid',
      'u-3',
      '--uuid',
      'u-1',
      '--json',
    ]);
    expect(picked.code).toBe(0);
    const out = picked.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    // In the recording's order.
    expect(out).toEqual([
      expect.objectContaining({
        line: 1,
        uuid: 'u-1',
        event: 'meetingCancelled',
        status: 200,
        signed: true,
        resigned: false,
      }),
      expect.objectContaining({ line: 3, uuid: 'u-3', status: 200, url: target.url }),
    ]);
    expect(target.received[3]!.headers['webhook-signature']).toBe('old');
  });

  it('exit 1 when any answer is not 2xx, the others still sent', async () => {
    const file = await record([
      { body: delivery('meetingScheduled', 'x-1') },
      { body: delivery('meetingScheduled', 'x-2') },
    ]);
    const target = await app([500]);
    const r = await runSched(['events', 'replay', file, '--to', target.url]);
    expect(r.code).toBe(1);
    expect(target.received).toHaveLength(2);
    expect(r.stdout).toMatch(/line 1 .* 500 Internal Server Error in \d+ ms\nline 2 .* 200 OK/);
    expect(r.stderr).toMatch(/error: 1 of 2 replayed deliveries did not get a 2xx answer from /);
  });

  it('refuses a file that is not a recording, naming the line, before sending anything (exit 2)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sched-replay-'));
    const good = await record([{ body: delivery('meetingScheduled', 'g-1') }]);
    const { readFile } = await import('node:fs/promises');
    const line = (await readFile(good, 'utf8')).trimEnd();
    const target = await app();
    const cases: Array<[string, string]> = [
      [
        `${line}\n{"event":"meetingScheduled"}\n`,
        'line 2 has no "kind":"sched.webhook-delivery/1"',
      ],
      [`${line}\n\nnot json\n`, 'line 3 is not JSON'],
      [`[1,2]\n`, 'line 1 is not a JSON object'],
      [
        line.replace('"headers":[', '"headers":[["x"],') + '\n',
        'line 1 has headers that are not [name, value] pairs',
      ],
    ];
    for (const [text, why] of cases) {
      const f = join(dir, 'bad.ndjson');
      await writeFile(f, text);
      const r = await runSched(['events', 'replay', f, '--to', target.url]);
      expect(r.code, why).toBe(2);
      expect(r.stderr).toContain(
        `error: "${f}" is not a recording of \`sched webhooks listen --record\`: ${why}`,
      );
    }
    await writeFile(join(dir, 'empty.ndjson'), '');
    const empty = await runSched([
      'events',
      'replay',
      join(dir, 'empty.ndjson'),
      '--to',
      target.url,
    ]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('holds no recorded delivery');
    const missing = await runSched([
      'events',
      'replay',
      good,
      '--to',
      target.url,
      '--uuid',
      'nope',
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no delivery in');
    const absent = await runSched(['events', 'replay', join(dir, 'none'), '--to', target.url]);
    expect(absent.code).toBe(2);
    expect(absent.stderr).toContain('no such file');
    expect(target.received).toEqual([]);
  });
});
