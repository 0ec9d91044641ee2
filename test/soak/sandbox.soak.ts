// The sandbox (`sched sandbox`, the binary) serving many requests (1,000,000 at full scale)
// from 16 keep-alive clients: lists, pages, webhooks created and deleted again, a wrong key, an
// unknown path. Every answer is checked, and the sandbox's memory stays flat (the work leaves
// its state as it found it, so nothing may grow) — with the console open on the live log all
// along (its event stream read as a browser would, every change told, never cut off).
import { Agent, request } from 'undici';
import { expect, it } from 'vitest';
import {
  count,
  memoryVerdict,
  report,
  runConcurrently,
  sampleMemory,
  startSandboxBinary,
} from './soak.js';

const REQUESTS = count(20_000, 1_000_000);
const CLIENTS = 16;
const SEEDED_TYPES = 8;

interface Page {
  page: number;
  total: number;
  _embedded: { items: Array<{ uuid: string; url?: string; events?: string[] }> };
}

it(`sandbox: ${REQUESTS} requests from ${CLIENTS} clients, every answer right, flat memory`, async () => {
  const proc = await startSandboxBinary();
  const { baseUrl, apiKey } = proc;
  const agent = new Agent({ connections: CLIENTS, pipelining: 1 });
  let done = 0;
  const memory = sampleMemory(proc.pid, () => done / REQUESTS);
  const wrong: string[] = [];
  const started = Date.now();

  // The console, open on the live log: the page, then its event stream, read to the end.
  const origin = new URL(baseUrl).origin;
  expect((await fetch(`${origin}/`)).status).toBe(200);
  const stream = new AbortController();
  const live = { changed: 0, bytes: 0, ended: false };
  const events = await fetch(`${baseUrl}/_sandbox/events`, {
    headers: { 'x-api-key': apiKey },
    signal: stream.signal,
  });
  expect(events.status).toBe(200);
  const reading = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of events.body!) {
        const text = decoder.decode(chunk as Uint8Array, { stream: true });
        live.bytes += text.length;
        live.changed += text.split('event: changed\n').length - 1;
      }
      live.ended = true;
    } catch {
      // Aborted by us at the end.
    }
  })();

  const call = async (
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
    key = apiKey,
  ): Promise<{ status: number; json: unknown }> => {
    const res = await request(baseUrl + path, {
      method,
      headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher: agent,
    });
    const text = await res.body.text();
    done += 1;
    return { status: res.statusCode, json: text ? (JSON.parse(text) as unknown) : undefined };
  };
  const check = (what: string, ok: boolean, got: unknown) => {
    if (!ok && wrong.length < 10) wrong.push(`${what}: ${JSON.stringify(got).slice(0, 300)}`);
  };

  // Each client step is one of these (a create and its delete count as two requests).
  await runConcurrently(Math.ceil(REQUESTS / 1.2), CLIENTS, async (i) => {
    switch (i % 5) {
      case 0: {
        const r = await call('GET', '/users/me/meeting-types');
        const p = r.json as Page;
        check('types list', r.status === 200 && p.total === SEEDED_TYPES, r);
        break;
      }
      case 1: {
        const page = 1 + (i % 4);
        const r = await call('GET', `/users/me/meeting-types?limit=2&page=${page}`);
        const p = r.json as Page;
        check(
          'types page',
          r.status === 200 && p.page === page && p._embedded.items.length === 2,
          r,
        );
        break;
      }
      case 2: {
        const url = `https://hooks.example.com/soak/${i}`;
        const made = await call('POST', '/webhooks', { url, events: ['meetingScheduled'] });
        const w = made.json as { uuid: string; url: string };
        check('webhook create', made.status === 201 && w.url === url, made);
        const gone = await call('DELETE', `/webhooks/${w.uuid}`);
        check('webhook delete', gone.status === 204, gone);
        break;
      }
      case 3: {
        const r = await call('GET', '/webhooks?limit=100');
        const p = r.json as Page;
        // At most one webhook per client exists at any moment.
        check('webhooks list', r.status === 200 && p.total <= CLIENTS, r);
        break;
      }
      default: {
        const r =
          i % 2 === 0
            ? await call('GET', '/webhooks', undefined, 'not-the-key')
            : await call('GET', '/no/such/path');
        check(
          i % 2 === 0 ? 'wrong key' : 'unknown path',
          r.status === (i % 2 === 0 ? 401 : 404),
          r,
        );
      }
    }
  });
  const seconds = (Date.now() - started) / 1000;
  const mem = memoryVerdict(memory.stop());
  const after = await call('GET', '/webhooks');
  // The stream was open all along, told the changes (coalesced), and is still open now.
  const liveEnded = live.ended;
  stream.abort();
  await reading;
  proc.child.kill('SIGTERM');
  await proc.exited;
  await agent.close();

  expect(wrong).toEqual([]);
  expect(done).toBeGreaterThanOrEqual(REQUESTS);
  expect(liveEnded).toBe(false);
  expect(live.changed).toBeGreaterThan(0);
  // Every webhook created was deleted again: the state is as it started.
  expect((after.json as Page).total).toBe(0);
  report(
    'sandbox',
    {
      requests: done,
      clients: CLIENTS,
      seconds: Math.round(seconds),
      perSecond: Math.round(done / seconds),
      liveLogEvents: live.changed,
    },
    mem,
  );
  expect(mem.flat, JSON.stringify(mem)).toBe(true);
});
