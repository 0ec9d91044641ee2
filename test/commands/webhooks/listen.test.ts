import { afterEach, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { runCli } from '../../../src/cli.js';
import { createBufferIO } from '../../helpers/buffer-io.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { until } from '../../helpers/until.js';
import { startProxy } from '../../helpers/fault-server.js';

const FIXTURE = readFileSync(new URL('../../fixtures/real-delivery.json', import.meta.url));
const SECRET = 'listen-secret-91c2';
const sign = (body: Buffer | string, secret = SECRET) =>
  createHmac('sha256', secret).update(body).digest('base64');

interface Listener {
  url: string;
  stdout(): string;
  stderr(): string;
  /** Ctrl-C (or SIGTERM) and the exit code. */
  stop(reason?: 'SIGINT' | 'SIGTERM'): Promise<number>;
  done: Promise<number>;
}

/** Starts `sched webhooks listen` in-process and waits for its URL on stderr. */
async function listen(argv: string[], env: Record<string, string> = {}): Promise<Listener> {
  const ac = new AbortController();
  const io = createBufferIO({ env });
  const done = runCli(['webhooks', 'listen', '--port', '0', ...argv], {
    io,
    env,
    signal: ac.signal,
  });
  let exited: number | undefined;
  void done.then((c) => (exited = c));
  await until(
    () => /^ready/m.test(io.stderrText()) || exited !== undefined,
    'listen to start',
    io.stderrText,
  );
  if (exited !== undefined) throw new Error(`listen exited ${exited}: ${io.stderrText()}`);
  const url = /listening on (http:\/\/\S+)/.exec(io.stderrText())![1]!;
  // With --json the first line says where it listens; the deliveries follow it.
  const json = argv.includes('--json');
  if (json) expect(io.stdoutText()).toBe(JSON.stringify({ listening: url }) + '\n');
  return {
    url,
    stdout: json ? () => io.stdoutText().split('\n').slice(1).join('\n') : io.stdoutText,
    stderr: io.stderrText,
    done,
    stop: (reason = 'SIGINT') => {
      ac.abort(reason);
      return done;
    },
  };
}

async function post(url: string, body: Buffer | string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'user-agent': 'SimplyMeet.me', ...headers },
  });
  return { status: res.status, text: await res.text() };
}

const lines = (s: string) => s.split('\n').filter(Boolean);

let running: Listener | undefined;
let receivers: Receiver[] = [];
afterEach(async () => {
  await running?.stop();
  running = undefined;
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
});

describe('sched webhooks listen', () => {
  it('prints each delivery with the right verdict: valid, tampered, unsigned, non-JSON', async () => {
    running = await listen(['--secret', SECRET]);
    const l = running;
    expect(l.stderr()).toMatch(
      /listening on http:\/\/127\.0\.0\.1:\d+\/ \(any path\); verifying signatures with the secret from --secret/,
    );

    expect(await post(l.url + 'hook', FIXTURE, { 'webhook-signature': sign(FIXTURE) })).toEqual({
      status: 200,
      text: '{"received":true}',
    });
    await until(() => lines(l.stdout()).length === 1, 'the first line');
    const first = lines(l.stdout())[0]!;
    expect(first).toMatch(
      /^\d\d:\d\d:\d\d {2}meetingScheduled {2}12345678-1234-1234-1234-12345678 {2}Aarno Aukia <aarno\.aukia@vshn\.ch> {2}starts 2022-02-18T07:00:00\+00:00 {2}signature valid$/,
    );

    const tampered = Buffer.from(FIXTURE.toString().replace('"30 min"', '"31 min"'));
    const other = JSON.stringify({ event: 'meetingCancelled', uuid: 'n-2', data: {} });
    expect((await post(l.url, tampered, { 'webhook-signature': sign(FIXTURE) })).status).toBe(200);
    await until(() => lines(l.stdout()).length === 2, 'the tampered line');
    expect((await post(l.url, other)).status).toBe(200);
    await until(() => lines(l.stdout()).length === 3, 'the unsigned line');
    expect((await post(l.url, 'hello there', { 'content-type': 'text/plain' })).status).toBe(200);
    await until(() => lines(l.stdout()).length === 4, 'the non-JSON line');

    const out = lines(l.stdout());
    // The likely cause is on the line itself.
    expect(out[1]).toMatch(
      /meetingScheduled .*signature INVALID: no common mistake explains it: the payload bytes or the secret differ/,
    );
    // The usual reason behind it, and how to check, on the same line.
    expect(out[1]).toContain(
      'the webhook may have been created with another secret: check one with `sched sig verify --secret <it>`, or re-create the webhook with `sched webhooks add` while SCHED_WEBHOOK_SECRET is set',
    );
    expect(out[1]).toMatch(/DUPLICATE of notification 0b6a6a53-6f5e-4c1e-9d2a-3f0e8f7c2b11/);
    expect(out[2]).toMatch(
      /meetingCancelled {2}\(no meeting uuid\) {2}\(no invitee\) {2}\(no start\) {2}signature missing$/,
    );
    expect(out[3]).toMatch(/not JSON: 11 bytes, text\/plain {2}signature missing$/);

    // Ctrl-C is how a server ends: exit 0 after a clean stop (130 before).
    expect(await l.stop()).toBe(0);
    expect(l.stderr()).toMatch(
      /stopped listening on http:\/\/127\.0\.0\.1:\d+\/ after 4 deliveries\n$/,
    );
    expect(l.stderr()).not.toMatch(/error:/);
    running = undefined;
  });

  it('--json prints one NDJSON object per delivery, with duplicates flagged', async () => {
    running = await listen(['--json'], { SCHED_WEBHOOK_SECRET: SECRET });
    const l = running;
    await post(l.url, FIXTURE, { 'webhook-signature': sign(FIXTURE) });
    await until(() => lines(l.stdout()).length === 1, 'one object');
    await post(l.url, FIXTURE, { 'webhook-signature': sign(FIXTURE) });
    await until(() => lines(l.stdout()).length === 2, 'two objects');
    await post(l.url, '<xml/>', { 'content-type': 'application/xml' });
    await until(() => lines(l.stdout()).length === 3, 'three objects');
    const [a, b, c] = lines(l.stdout()).map((s) => JSON.parse(s) as Record<string, unknown>);
    expect(a).toMatchObject({
      event: 'meetingScheduled',
      uuid: '0b6a6a53-6f5e-4c1e-9d2a-3f0e8f7c2b11',
      meeting: '12345678-1234-1234-1234-12345678',
      invitee: { name: 'Aarno Aukia', email: 'aarno.aukia@vshn.ch' },
      start: '2022-02-18T07:00:00+00:00',
      signature: 'valid',
      duplicate: false,
      userAgent: 'SimplyMeet.me',
      json: true,
      bytes: FIXTURE.length,
      payload: JSON.parse(FIXTURE.toString()) as unknown,
    });
    expect(new Date(a!.receivedAt as string).toISOString()).toBe(a!.receivedAt);
    expect(a).toMatchObject({ signatureReason: null });
    expect(b).toMatchObject({ signature: 'valid', duplicate: true });
    expect(c).toMatchObject({
      json: false,
      payload: null,
      body: '<xml/>',
      signature: 'missing',
      event: null,
    });
    // SIGTERM too ends it cleanly: exit 0 (143 before).
    expect(await l.stop('SIGTERM')).toBe(0);
    running = undefined;
  });

  it('says unchecked without a secret, and notes that deliveries are signed', async () => {
    running = await listen(['--json']);
    const l = running;
    expect(l.stderr()).toMatch(/not checking signatures/);
    await post(l.url, FIXTURE, { 'webhook-signature': sign(FIXTURE) });
    await until(() => lines(l.stdout()).length === 1, 'one object');
    expect(JSON.parse(lines(l.stdout())[0]!)).toMatchObject({ signature: 'unchecked' });
    expect(l.stderr()).toMatch(/deliveries are signed; give --secret/);
  });

  it('names the likely cause of an invalid signature on its line, and in --json', async () => {
    running = await listen(['--secret', SECRET]);
    const l = running;
    const hex = createHmac('sha256', SECRET).update(FIXTURE).digest('hex');
    await post(l.url, FIXTURE, { 'webhook-signature': hex });
    await until(() => lines(l.stdout()).length === 1, 'the line');
    expect(l.stdout()).toMatch(
      /signature INVALID: the signature is hex, but the service sends base64/,
    );
    expect(await l.stop()).toBe(0);

    running = await listen(['--json', '--secret', SECRET]);
    const j = running;
    await post(j.url, FIXTURE, { 'webhook-signature': hex });
    await until(() => lines(j.stdout()).length === 1, 'the object');
    expect(JSON.parse(lines(j.stdout())[0]!)).toMatchObject({
      signature: 'invalid',
      signatureReason: expect.stringMatching(/^the signature is hex, but the service sends base64/),
    });
  });

  it('any other lead than the likely cause goes to stderr, under the line', async () => {
    // Two mistakes at once: a secret with spaces around it, and a hex signature.
    running = await listen(['--secret', ` ${SECRET} `]);
    const l = running;
    const hex = createHmac('sha256', SECRET).update(FIXTURE).digest('hex');
    await post(l.url, FIXTURE, { 'webhook-signature': hex });
    await until(() => lines(l.stdout()).length === 1, 'the line');
    expect(l.stdout()).toMatch(/signature INVALID: the signature is hex/);
    await until(() => /check: the secret has/.test(l.stderr()), 'the other lead', l.stderr);
    expect(l.stderr()).toContain(
      '  check: the secret has leading or trailing whitespace (a copied newline?)',
    );
    expect(l.stderr()).not.toMatch(/ {2}check: the signature is hex/);
  });

  it('--forward-to a remote app goes through HTTP_PROXY, as events send does', async () => {
    const down = await startReceiver({ path: '/app/hook' });
    receivers.push(down);
    const proxy = await startProxy({ host: '127.0.0.1', port: Number(new URL(down.url).port) });
    try {
      // A host that does not resolve: only the proxy can deliver it.
      const app = 'http://app.sched-test.invalid/app/hook';
      running = await listen(['--secret', SECRET, '--forward-to', app], {
        HTTP_PROXY: proxy.url,
        NO_PROXY: '',
      });
      await post(running.url, FIXTURE, { 'webhook-signature': sign(FIXTURE) });
      const got = (await down.waitFor(1))[0]!;
      expect(got.body.equals(FIXTURE)).toBe(true);
      expect(proxy.connects).toEqual(['app.sched-test.invalid:80']);
    } finally {
      await running?.stop();
      running = undefined;
      await proxy.close();
    }
  });

  it('--forward-to re-sends the raw body with only the delivery headers, and shows the downstream status', async () => {
    const down = await startReceiver({ path: '/app/hook' });
    receivers.push(down);
    down.respond = { status: 202, body: 'queued' };
    running = await listen(['--secret', SECRET, '--forward-to', down.url]);
    const l = running;
    expect(l.stderr()).toContain('forwarding only deliveries whose signature is valid');
    const sig = sign(FIXTURE);
    // What a sender adds must not reach the app as if the service had sent it.
    const chosen = {
      authorization: 'Bearer stolen',
      cookie: 'session=abc',
      'x-real-ip': '10.0.0.1',
      'true-client-ip': '10.0.0.2',
      'x-http-method-override': 'DELETE',
      'x-original-url': '/admin',
      'x-forwarded-for': '10.0.0.3',
      forwarded: 'for=10.0.0.4',
      'x-extra': 'dropped',
    };
    await post(l.url + 'incoming?x=1', FIXTURE, { 'webhook-signature': sig, ...chosen });
    await until(() => /forwarded to/.test(l.stdout()), 'the forward line');
    const got = (await down.waitFor(1))[0]!;
    expect(got.body.equals(FIXTURE)).toBe(true);
    expect(got.url).toBe('/app/hook');
    expect(got.headers['webhook-signature']).toBe(sig);
    expect(got.headers['user-agent']).toBe('SimplyMeet.me');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['content-length']).toBe(String(FIXTURE.length));
    for (const name of Object.keys(chosen)) expect(got.headers[name], name).toBeUndefined();
    expect(Object.keys(got.headers).sort()).toEqual([
      'connection',
      'content-length',
      'content-type',
      'host',
      'user-agent',
      'webhook-signature',
    ]);
    expect(lines(l.stdout())[1]).toMatch(
      /↳ forwarded to http:\/\/127\.0\.0\.1:\d+\/app\/hook: 202 in \d+ ms$/,
    );

    // A downstream that is down: the sender still gets 200; the forward is tried again, a
    // bounded number of times, and the failure is shown with how to send it once fixed.
    await down.close();
    receivers = [];
    await post(l.url, FIXTURE, { 'webhook-signature': sig });
    await until(() => /forward to .* failed/.test(l.stdout()), 'the failure');
    expect(l.stdout()).toMatch(/forward to .* failed after 3 attempts: connection refused/);
    expect(l.stderr()).toContain(
      '  not delivered to the app (record deliveries with --record <file> to replay them later)',
    );
    expect(await l.stop()).toBe(0);
    running = undefined;
    expect(l.stderr()).toMatch(/1 delivery was not delivered to the app\n/);
  });

  it('with a secret, forwards only verified deliveries, saying so on the line; --forward-unverified opts in', async () => {
    const down = await startReceiver();
    receivers.push(down);
    running = await listen(['--secret', SECRET, '--forward-to', down.url]);
    const l = running;
    const forged = '{"event":"meetingCancelled","uuid":"f-1","data":{}}';
    await post(l.url, forged);
    await post(l.url, forged, { 'webhook-signature': sign(forged, 'wrong') });
    await post(l.url, FIXTURE, { 'webhook-signature': sign(FIXTURE) });
    await down.waitFor(1);
    await until(() => lines(l.stdout()).length === 6, 'three deliveries, three lines under');
    const out = lines(l.stdout());
    expect(out[0]).toMatch(/signature missing$/);
    expect(out[1]).toBe(
      '  ↳ not forwarded: signature missing (--forward-unverified forwards it anyway)',
    );
    expect(out[3]).toBe(
      '  ↳ not forwarded: signature invalid (--forward-unverified forwards it anyway)',
    );
    expect(out[5]).toMatch(/↳ forwarded to .*: 200/);
    expect(down.received.map((r) => r.body.equals(FIXTURE))).toEqual([true]);
    await l.stop();

    running = await listen(['--json', '--secret', SECRET, '--forward-to', down.url]);
    await post(running.url, forged);
    await until(() => lines(running!.stdout()).length === 1, 'the object');
    expect(JSON.parse(lines(running.stdout())[0]!)).toMatchObject({
      signature: 'missing',
      notForwarded: 'signature missing',
    });
    await running.stop();

    running = await listen(['--secret', SECRET, '--forward-to', down.url, '--forward-unverified']);
    expect(running.stderr()).toContain(
      'forwarding unverified deliveries too (--forward-unverified)',
    );
    await post(running.url, forged);
    await down.waitFor(2);
    expect(down.received[1]!.body.toString()).toBe(forged);
  });

  it('forwards in --json mode with the downstream status in the object', async () => {
    const down = await startReceiver();
    receivers.push(down);
    running = await listen(['--json', '--forward-to', down.url]);
    const l = running;
    await post(l.url, '{"event":"meetingScheduled","uuid":"u-1","data":{}}');
    await until(() => lines(l.stdout()).length === 1, 'one object');
    expect(JSON.parse(lines(l.stdout())[0]!)).toMatchObject({
      forward: { url: down.url, status: 200 },
      forwards: [{ url: down.url, status: 200 }],
    });
  });

  it('answers GET with a short text and does not count it', async () => {
    running = await listen([]);
    const res = await fetch(running.url);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/POST deliveries here/);
    expect(running.stdout()).toBe('');
  });

  it('answers HEAD without a body; another method gets 405 and a note; neither is counted', async () => {
    running = await listen([]);
    const head = await fetch(running.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const put = await fetch(new URL('/x?y=1', running.url), { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('POST, GET, HEAD');
    await until(() => /answered 405/.test(running!.stderr()), 'the note', running.stderr);
    expect(running.stderr()).toContain('note: PUT /x?y=1 answered 405\n');
    expect(running.stdout()).toBe('');
  });

  it('refuses a body over 5 MiB with 413, saying its declared size or that it was streamed', async () => {
    running = await listen([]);
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 0x20);
    const declared = await fetch(running.url, { method: 'POST', body: big });
    expect(declared.status).toBe(413);
    const streamed = await fetch(running.url, {
      method: 'POST',
      body: new ReadableStream({
        start(c) {
          c.enqueue(big);
          c.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    await until(
      () => (running!.stderr().match(/with 413/g) ?? []).length === 2,
      'two notes',
      running.stderr,
    );
    expect(running.stderr()).toContain(
      `note: refused a ${big.length}-byte body (over ${5 * 1024 * 1024} bytes) with 413\n`,
    );
    expect(running.stderr()).toContain(
      `note: refused a body over ${5 * 1024 * 1024} bytes with 413\n`,
    );
    expect(running.stdout()).toBe('');
  });

  it('answers 503 beyond its connection bound and says so once on stderr', async () => {
    running = await listen([]);
    const port = Number(new URL(running.url).port);
    const sockets: Socket[] = [];
    for (let i = 0; i < 131; i++) {
      sockets.push(
        await new Promise<Socket>((resolve) => {
          const s = connect(port, '127.0.0.1', () => resolve(s));
          s.on('error', () => undefined);
        }),
      );
    }
    const answers: string[] = sockets.map(() => '');
    sockets.forEach((s, i) => s.on('data', (c: Buffer) => (answers[i] += c.toString())));
    await until(() => answers.filter((a) => a.includes(' 503 ')).length === 3, 'three 503s');
    expect(running.stderr().match(/note: over 128 connections at once/g)).toEqual([
      'note: over 128 connections at once',
    ]);
    for (const s of sockets) s.destroy();
    // The bound is on connections at once: once they are gone, deliveries get in again.
    await new Promise((r) => setTimeout(r, 100));
    expect((await post(running.url, '{"event":"meetingScheduled"}')).status).toBe(200);
    await until(() => lines(running!.stdout()).length === 1, 'the delivery');
  });

  it('a blank --host listens on the default one', async () => {
    running = await listen(['--host', '  ']);
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('checks its flags before opening a port (exit 2)', async () => {
    for (const argv of [
      ['--forward-to', 'not a url'],
      ['--register', 'ftp://x.example'],
      ['--event', 'meetingSchedule'],
      ['--register', 'https://x.example/hook', '--event', 'meetingBooked'],
      ['--forward-to', 'meetingBooked=http://localhost:3000/x'],
      ['--event', 'meetingCancelled', '--forward-to', 'meetingScheduled=http://localhost:3000/x'],
      ['--forward-to', 'meetingCancelled=ftp://localhost/x'],
    ]) {
      const io = createBufferIO();
      const code = await runCli(['webhooks', 'listen', '--port', '0', ...argv], { io, env: {} });
      expect(code, argv.join(' ')).toBe(2);
      expect(io.stderrText()).not.toMatch(/listening/);
    }
  });

  it('exits 1 naming the port when it is taken', async () => {
    const srv = createServer();
    await new Promise<void>((res) => srv.listen(0, '127.0.0.1', res));
    const port = (srv.address() as AddressInfo).port;
    try {
      const io = createBufferIO();
      const code = await runCli(['webhooks', 'listen', '--port', String(port)], { io, env: {} });
      expect(code).toBe(1);
      expect(io.stderrText()).toMatch(
        new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`),
      );
      expect(io.stderrText()).toMatch(/--port 0/);
    } finally {
      srv.close();
    }
  });
});

describe('sched webhooks listen --event and routed --forward-to', () => {
  const delivery = (event: string, uuid: string) =>
    JSON.stringify({ event, uuid, data: { uuid: `m-${uuid}` } });

  it('keeps only the --event names: others answered 200, neither shown nor forwarded, counted on stop', async () => {
    const down = await startReceiver();
    receivers.push(down);
    running = await listen([
      '--json',
      '--event',
      'meetingCancelled',
      '--event',
      'meetingrescheduled',
      '--forward-to',
      down.url,
    ]);
    const l = running;
    expect(l.stderr()).toMatch(
      /keeping only meetingCancelled, meetingRescheduled; other events are answered 200 and skipped/,
    );
    const answers = [];
    for (const [event, uuid] of [
      ['meetingScheduled', 'n1'],
      ['meetingCancelled', 'n2'],
      ['meetingScheduled', 'n3'],
      ['meetingRescheduled', 'n4'],
    ] as const) {
      answers.push((await post(l.url, delivery(event, uuid))).status);
    }
    expect(answers).toEqual([200, 200, 200, 200]);
    await until(() => lines(l.stdout()).length === 2, 'two kept deliveries');
    await down.waitFor(2);
    expect(lines(l.stdout()).map((x) => (JSON.parse(x) as { uuid: string }).uuid)).toEqual([
      'n2',
      'n4',
    ]);
    expect(
      down.received.map((r) => (JSON.parse(r.body.toString()) as { uuid: string }).uuid),
    ).toEqual(['n2', 'n4']);
    await l.stop();
    expect(l.stderr()).toMatch(
      /skipped 2 deliveries of other events than meetingCancelled, meetingRescheduled\n/,
    );
    expect(l.stderr()).toMatch(/after 2 deliveries\n$/);

    // One skipped: said in the singular.
    running = await listen(['--json', '--event', 'meetingCancelled']);
    const one = running;
    await post(one.url, delivery('meetingScheduled', 'n5'));
    await one.stop();
    expect(one.stderr()).toMatch(/skipped 1 delivery of other events than meetingCancelled\n/);
  });

  it('routes event=url targets to their event only, a plain URL gets every delivery, a failing target does not stop the others', async () => {
    const cancel = await startReceiver({ path: '/cancel' });
    const all = await startReceiver({ path: '/all' });
    const dead = await startReceiver({ path: '/gone' });
    receivers.push(cancel, all);
    await dead.close();
    running = await listen([
      '--secret',
      SECRET,
      '--forward-to',
      `meetingCancelled=${cancel.url}`,
      '--forward-to',
      all.url,
      '--forward-to',
      `meetingScheduled=${dead.url}`,
    ]);
    const l = running;
    expect(l.stderr()).toContain(`forwarding meetingCancelled to ${cancel.url}`);
    expect(l.stderr()).toContain(`forwarding each delivery to ${all.url}`);
    const bodies = {
      scheduled: delivery('meetingScheduled', 'r1'),
      cancelled: delivery('meetingCancelled', 'r2'),
      rescheduled: delivery('meetingRescheduled', 'r3'),
    };
    for (const body of Object.values(bodies)) {
      await post(l.url + 'in', body, { 'webhook-signature': sign(body), 'x-trace': 't-1' });
    }
    await all.waitFor(3);
    await cancel.waitFor(1);
    await until(() => /forward to .*\/gone failed/.test(l.stdout()), 'the failed forward line');
    // Exactly their events, exact bytes and headers.
    expect(cancel.received.map((r) => r.body.toString())).toEqual([bodies.cancelled]);
    expect(all.received.map((r) => r.body.toString()).sort()).toEqual(Object.values(bodies).sort());
    const got = cancel.received[0]!;
    expect(got.headers['webhook-signature']).toBe(sign(bodies.cancelled));
    expect(got.headers['x-trace']).toBeUndefined();
    expect(got.url).toBe('/cancel');
    // The dead target is reported (after its retries); the scheduled delivery still reached `all`.
    expect(l.stdout()).toMatch(
      /forward to http:\/\/127\.0\.0\.1:\d+\/gone failed after 3 attempts: connection refused/,
    );
    expect(all.received.some((r) => r.body.toString() === bodies.scheduled)).toBe(true);
  });
});
