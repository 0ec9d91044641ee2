// `sched webhooks listen` as a real process against hostile senders: nothing a request holds can
// end it, diagnosing a signature is bounded, only verified deliveries count, suggested command
// lines quote what came from outside, and the recording and stderr stay bounded.
// Run on the built bundle (`npm run build` first).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { BIN, spawnSched } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { until } from '../helpers/until.js';

const SECRET = 'hostile-secret-7d1';
const sign = (body: string | Buffer) => createHmac('sha256', SECRET).update(body).digest('base64');
/** `[[[…]]]`, 100,000 deep: 200 KB. */
const DEEP = '['.repeat(100_000) + ']'.repeat(100_000);
/** About 4 MB: 2 M zeros inside 1,000 nested arrays (the probe's body). */
const WIDE_DEEP = '['.repeat(1000) + '0,'.repeat(2_000_000 - 1) + '0' + ']'.repeat(1000);
const delivery = (uuid: string, event = 'meetingScheduled') =>
  JSON.stringify({ event, uuid, data: { uuid: `m-${uuid}` } });

let sb: TestSandbox;
let dir: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  dir = await mkdtemp(join(tmpdir(), 'sched-listen-hostile-'));
});
afterAll(async () => {
  await sb.close();
  await rm(dir, { recursive: true, force: true });
});

interface Spawned {
  child: ResultPromise;
  url: string;
  stdout(): string;
  stderr(): string;
}
const children: Spawned[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) c.child.kill('SIGKILL');
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function spawnListen(argv: string[], env: Record<string, string> = {}): Promise<Spawned> {
  const child = execa(process.execPath, [BIN, 'webhooks', 'listen', '--port', '0', ...argv], {
    env: { NO_COLOR: '1', ...env },
    reject: false,
    cwd: dir,
  }) as ResultPromise;
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  let ended = false;
  void child.finally(() => (ended = true));
  await until(
    () => /^ready/m.test(err) || ended,
    'the listener',
    () => err,
  );
  if (ended) throw new Error(`listen ended early: ${err}`);
  const s = {
    child,
    url: /listening on (\S+)/.exec(err)![1]!,
    stdout: () => out,
    stderr: () => err,
  };
  children.push(s);
  return s;
}

async function post(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
  await res.text();
  return res.status;
}

async function webhookUrls(): Promise<string[]> {
  const res = await sb.api('/webhooks?limit=100');
  const body = (await res.json()) as { _embedded: { items: Array<{ url: string }> } };
  return body._embedded.items.map((w) => w.url);
}

async function stop(l: Spawned, signal: 'SIGINT' | 'SIGTERM' = 'SIGTERM') {
  l.child.kill(signal);
  const r = await l.child;
  return r.exitCode;
}

describe('nothing a sender puts in a request ends the listener', () => {
  it('a wrong signature on a 100,000-deep body: answered, still listening, webhook deleted on stop', async () => {
    const hook = 'https://tunnel.example/deep';
    const l = await spawnListen(['--secret', SECRET, '--register', hook], sb.env);
    expect(await webhookUrls()).toContain(hook);
    expect(await post(l.url, DEEP, { 'webhook-signature': 'AAAA' })).toBe(200);
    // Still alive: a real delivery after it is shown.
    const real = delivery('after-deep');
    expect(await post(l.url, real, { 'webhook-signature': sign(real) })).toBe(200);
    await until(() => /m-after-deep .*signature valid/.test(l.stdout()), 'the real one', l.stdout);
    // The deep one's line names what was not checked.
    expect(l.stdout()).toMatch(
      /signature INVALID: .*not checked for a re-serialised JSON body \(the body nests over 32 levels deep\)/,
    );
    expect(await stop(l)).toBe(0);
    expect(l.stderr()).not.toMatch(/RangeError|Maximum call stack| {4}at /);
    expect(l.stderr()).toMatch(/deleted webhook [0-9a-f-]{36}\n$/);
    expect(await webhookUrls()).not.toContain(hook);
  });

  it('sig verify on the same body gives its verdict, not "unexpected failure"', async () => {
    const file = join(dir, 'deep.json');
    await writeFile(file, DEEP);
    const r = await spawnSched([
      'sig',
      'verify',
      '--secret',
      SECRET,
      '--signature',
      'AAAA',
      '--payload-file',
      file,
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      valid: false,
      reason:
        'no common mistake explains it: the payload bytes or the secret differ from what was signed; not checked for a re-serialised JSON body (the body nests over 32 levels deep)',
    });
    expect(r.stderr).not.toMatch(/unexpected failure/);
  });
});

describe('diagnosing a signature is bounded by the body', () => {
  it('a 4 MB deep-array body with a bad signature is answered and diagnosed without the costly checks', async () => {
    const l = await spawnListen(['--secret', SECRET, '--json']);
    expect(await post(l.url, WIDE_DEEP, { 'webhook-signature': 'AAAA' })).toBe(200);
    await until(
      () => /"signature":"invalid"/.test(l.stdout()) && l.stdout().endsWith('\n'),
      'the line',
      () => l.stdout().slice(0, 200),
    );
    const rec = JSON.parse(l.stdout().trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(rec.bytes).toBe(WIDE_DEEP.length);
    expect(rec.signatureReason).toMatch(
      /not checked for a re-serialised JSON body \(the body is over 256 KiB\)$/,
    );
    // And the next one still gets through.
    const real = delivery('after-wide');
    expect(await post(l.url, real, { 'webhook-signature': sign(real) })).toBe(200);
    await until(() => /after-wide/.test(l.stdout()), 'the real one', l.stdout);
    expect(await stop(l)).toBe(0);
    expect(l.stderr()).not.toMatch(/heap|RangeError| {4}at /);
  });
});

describe('with a secret, only verified deliveries count toward --count', () => {
  it('a forged unsigned POST does not end --count 1; the signed one after it is forwarded', async () => {
    const app = await startReceiver();
    receivers.push(app);
    const l = await spawnListen(['--secret', SECRET, '--count', '1', '--forward-to', app.url]);
    expect(await post(l.url, delivery('forged'))).toBe(200);
    expect(await post(l.url, delivery('forged2'), { 'webhook-signature': 'AAAA' })).toBe(200);
    const real = delivery('real');
    expect(await post(l.url, real, { 'webhook-signature': sign(real) })).toBe(200);
    const r = await l.child;
    expect(r.exitCode).toBe(0);
    expect(app.received.map((x) => x.body.toString())).toEqual([real]);
    expect(l.stdout()).toMatch(/m-real .*signature valid/);
  });
});

/** Runs a suggested command line with `sched` replaced by a function printing each word. */
async function wordsOf(commandLine: string): Promise<string[]> {
  const r = await execa('sh', ['-c', `sched() { printf '%s\\0' "$@"; }; ${commandLine}`], {
    cwd: dir,
  });
  return r.stdout.split('\0').slice(0, -1);
}

describe('suggested command lines quote what came from outside', () => {
  it('the replay suggestion after a failed forward keeps a hostile uuid one word', async () => {
    const app = await startReceiver({ statuses: [500, 500, 500] });
    receivers.push(app);
    const file = join(dir, "rec 'q'.ndjson");
    const uuid = "x $(touch PWNED)'`touch PWNED2`";
    const l = await spawnListen(['--record', file, '--forward-to', app.url, '--count', '1']);
    await post(l.url, delivery(uuid));
    const r = await l.child;
    expect(r.exitCode).toBe(0);
    const line = /once fixed: (.*)$/m.exec(l.stderr())![1]!;
    expect(await wordsOf(line)).toEqual([
      'events',
      'replay',
      file,
      '--uuid',
      uuid,
      '--to',
      app.url,
    ]);
    const summary = /replay with `(.*)`$/m.exec(l.stderr())![1]!;
    // The real --to URL, as the per-delivery hint names it (issue 40).
    expect(await wordsOf(summary)).toEqual([
      'events',
      'replay',
      file,
      '--uuid',
      uuid,
      '--to',
      app.url,
    ]);
    expect(existsSync(join(dir, 'PWNED'))).toBe(false);
    expect(existsSync(join(dir, 'PWNED2'))).toBe(false);
  });
});

describe('unverified senders cannot grow the recording or stderr without bound', () => {
  it('with a secret, unverified deliveries leave headers and verdict, not their body', async () => {
    const file = join(dir, 'unverified.ndjson');
    const l = await spawnListen(['--secret', SECRET, '--record', file]);
    const big = JSON.stringify({
      event: 'meetingScheduled',
      uuid: 'big',
      pad: 'x'.repeat(500_000),
    });
    for (let i = 0; i < 5; i++) expect(await post(l.url, big)).toBe(200);
    const real = delivery('kept');
    await post(l.url, real, { 'webhook-signature': sign(real) });
    await until(() => /m-kept/.test(l.stdout()), 'the real one', l.stdout);
    expect(await stop(l)).toBe(0);
    const text = await readFile(file, 'utf8');
    // Five 500 KB bodies would be 2.5 MB: only headers and verdicts are kept.
    expect(text.length).toBeLessThan(10_000);
    const recs = text
      .trimEnd()
      .split('\n')
      .map((x) => JSON.parse(x) as Record<string, unknown>);
    expect(recs.map((r) => r.signature)).toEqual([
      'missing',
      'missing',
      'missing',
      'missing',
      'missing',
      'valid',
    ]);
    expect(recs[0]).toMatchObject({ bodyOmitted: 'signature missing', bytes: big.length });
    expect(recs[5]).toMatchObject({ body: real });
  });

  it('--record-unverified keeps their bodies', async () => {
    const file = join(dir, 'opt-in.ndjson');
    const l = await spawnListen(['--secret', SECRET, '--record', file, '--record-unverified']);
    await post(l.url, delivery('u1'));
    await until(() => /m-u1/.test(l.stdout()), 'the line', l.stdout);
    expect(await stop(l)).toBe(0);
    const rec = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(rec).toMatchObject({ body: delivery('u1'), signature: 'missing' });
  });

  it('the file as a whole is capped: past 256 MiB recording stops, said once', async () => {
    const file = join(dir, 'full.ndjson');
    await writeFile(file, '', { mode: 0o600 });
    // A sparse file just under the cap: nothing real is written to disk.
    await truncate(file, 256 * 1024 * 1024 - 100);
    const l = await spawnListen(['--record', file]);
    for (let i = 0; i < 3; i++) await post(l.url, delivery(`f${i}`));
    await until(() => (l.stdout().match(/m-f/g) ?? []).length === 3, 'three lines', l.stdout);
    expect(await stop(l)).toBe(0);
    const notes = l.stderr().match(/stopped recording to .*/g) ?? [];
    expect(notes).toEqual([
      `stopped recording to ${file}: it reached 256 MiB, the most a recording holds; no longer recording`,
    ]);
    expect((await readFile(file)).length).toBe(256 * 1024 * 1024 - 100);
  });

  it('refuses a recording file that has another hard link', async () => {
    const target = join(dir, 'planted.ndjson');
    await writeFile(target, '');
    const planted = join(dir, 'hardlink.ndjson');
    await link(target, planted);
    const r = await spawnSched(['webhooks', 'listen', '--port', '0', '--record', planted]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: cannot record to "${planted}": it has other hard links (another name for the same file); record to a new file\n`,
    );
    expect(await readFile(target, 'utf8')).toBe('');
  });

  it('per-request notes are throttled: 300 PUTs write a handful of lines, then a count', async () => {
    const l = await spawnListen([]);
    for (let i = 0; i < 300; i++) {
      const res = await fetch(l.url + `p${i}`, { method: 'PUT', body: 'x' });
      expect(res.status).toBe(405);
    }
    expect(await stop(l)).toBe(0);
    const lines = l.stderr().split('\n');
    expect(lines.filter((x) => /^note: PUT \/p\d+ answered 405$/.test(x))).toHaveLength(5);
    expect(lines).toContain(
      'note: further requests answered 405 are counted, not shown one by one',
    );
    expect(lines).toContain('note: 295 more requests answered 405');
    expect(l.stderr().length).toBeLessThan(2000);
  });
});
