// `sched webhooks listen --json` receiving many deliveries (20,000 at full scale) from 16
// senders: signed ones, ones signed with another secret, ones changed after signing, unsigned
// ones, and re-sent copies. Every delivery is printed exactly once, with the right verdict and
// duplicate flag, and the listener's memory stays flat.
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { expect, it } from 'vitest';
import { signPayload } from '../../src/domain/webhooks/signature.js';
import { until } from '../helpers/until.js';
import { count, memoryVerdict, report, runConcurrently, sampleMemory, spawnLong } from './soak.js';

const SECRET = 'whsec_soak_listen_secret';
const DELIVERIES = count(5_000, 20_000);
const SENDERS = 16;

type Kind = 'valid' | 'other-secret' | 'changed' | 'unsigned';
const KINDS: Kind[] = ['valid', 'valid', 'other-secret', 'changed', 'unsigned'];
const VERDICT: Record<Kind, string> = {
  valid: 'valid',
  'other-secret': 'invalid',
  changed: 'invalid',
  unsigned: 'missing',
};

interface Seen {
  verdict: string;
  duplicate: boolean;
}

it(`webhooks listen: ${DELIVERIES} deliveries, none lost or counted twice, flat memory`, async () => {
  const printed = new Map<string, Seen[]>();
  let lines = 0;
  const bad: string[] = [];
  const proc = spawnLong(
    ['webhooks', 'listen', '--port', '0', '--json'],
    { SCHED_WEBHOOK_SECRET: SECRET },
    (line) => {
      // The first line says where it listens ({"listening": …}); one line per delivery follows.
      if (line.startsWith('{"listening"')) return;
      lines += 1;
      const r = JSON.parse(line) as { uuid: string | null; signature: string; duplicate: boolean };
      if (r.uuid === null) return void bad.push(line);
      const list = printed.get(r.uuid) ?? [];
      list.push({ verdict: r.signature, duplicate: r.duplicate });
      printed.set(r.uuid, list);
    },
  );
  await until(() => /listening on http:\/\/\S+:\d+/.test(proc.stderr()), 'listening', proc.stderr, {
    timeoutMs: 20_000,
    unless: proc.exited,
  });
  const url = /listening on (http:\/\/\S+:\d+)/.exec(proc.stderr())![1]!;
  const agent = new Agent({ connections: SENDERS });
  let sent = 0;
  let posted = 0;
  const memory = sampleMemory(proc.pid, () => sent / DELIVERIES);
  const expected = new Map<string, { verdict: string; copies: number }>();
  const started = Date.now();

  const post = async (body: Buffer, headers: Record<string, string>) => {
    posted += 1;
    const res = await request(url + '/hooks/soak', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'user-agent': 'SimplyMeet.me', ...headers },
      dispatcher: agent,
    });
    await res.body.text();
    expect(res.statusCode).toBe(200);
  };

  await runConcurrently(DELIVERIES, SENDERS, async (i) => {
    const kind = KINDS[i % KINDS.length]!;
    const uuid = randomUUID();
    const body = Buffer.from(
      JSON.stringify({
        event: 'meetingScheduled',
        uuid,
        data: { uuid: randomUUID(), invitee: { name: `Invitee ${i}`, email: `i${i}@example.com` } },
      }),
    );
    const headers: Record<string, string> = {};
    if (kind === 'valid') headers['webhook-signature'] = signPayload(SECRET, body);
    if (kind === 'other-secret') headers['webhook-signature'] = signPayload('another', body);
    if (kind === 'changed') headers['webhook-signature'] = signPayload(SECRET, body);
    const sentBody = kind === 'changed' ? Buffer.from(body.toString().replace('}', ' }')) : body;
    // One in 7 is re-sent once its first copy was answered, as the service retries.
    const copies = i % 7 === 3 ? 2 : 1;
    expected.set(uuid, { verdict: VERDICT[kind], copies });
    for (let c = 0; c < copies; c++) await post(sentBody, headers);
    sent += 1;
  });

  await until(
    () => lines >= posted,
    `${posted} NDJSON lines`,
    () => `${lines} so far`,
    {
      timeoutMs: 60_000,
    },
  );
  const seconds = (Date.now() - started) / 1000;
  const mem = memoryVerdict(memory.stop());
  proc.child.kill('SIGTERM');
  const end = await proc.exited;
  await agent.close();

  expect(bad).toEqual([]);
  expect(lines).toBe(posted);
  expect(printed.size).toBe(DELIVERIES);
  const wrong: string[] = [];
  for (const [uuid, want] of expected) {
    const got = printed.get(uuid) ?? [];
    const ok =
      got.length === want.copies &&
      got.every((g) => g.verdict === want.verdict) &&
      got.map((g) => g.duplicate).join() === [false, true].slice(0, want.copies).join();
    if (!ok) wrong.push(`${uuid}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
  }
  expect(wrong.slice(0, 5)).toEqual([]);
  expect(proc.stderr()).toMatch(new RegExp(`after ${posted} deliveries\\n$`));
  // SIGTERM is its normal end.
  expect(end.code, proc.stderr()).toBe(0);
  report('listen', { deliveries: DELIVERIES, posts: posted, seconds: Math.round(seconds) }, mem);
  expect(mem.flat, JSON.stringify(mem)).toBe(true);
});
