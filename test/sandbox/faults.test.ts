// Synthetic faults: the next N requests to an API route answer 429 with Retry-After, a 5xx, a
// reset or come late; the next N deliveries to a webhook fail with a status, time out or are
// slow. Set through the control endpoint, the library, `sched sandbox --faults <file>`; the CLI
// meets a 429 and waits as the service asks.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, SandboxError, type Sandbox } from '../../src/sandbox/library.js';
import { parseFaults } from '../../src/sandbox/faults.js';
import { runSched } from '../helpers/run.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const TYPES = '/users/me/meeting-types';
let sb: TestSandbox;
let dir: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  dir = await mkdtemp(join(tmpdir(), 'sched-faults-'));
});
afterAll(async () => {
  await sb.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => sb.faults.clear());

const post = (path: string, body: unknown) =>
  sb.api(path, { method: 'POST', body: JSON.stringify(body) });

describe('API faults through the control endpoint', () => {
  it('429 twice with Retry-After, then the route answers again; other routes never faulted', async () => {
    const set = await post('/_sandbox/faults', {
      api: [{ route: `GET ${TYPES}`, times: 2, type: 'status', status: 429, retryAfter: 3 }],
    });
    expect(set.status).toBe(201);
    const [fault] = ((await set.json()) as { items: Array<{ id: number }> }).items;
    expect(fault).toMatchObject({ target: 'api', route: `GET /api${TYPES}`, remaining: 2 });

    expect((await sb.api('/webhooks')).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const r = await sb.api(TYPES);
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBe('3');
      expect(await r.json()).toEqual({
        code: 429,
        message: 'Too many requests (a synthetic fault set in the sandbox).',
      });
    }
    expect((await sb.api(TYPES)).status).toBe(200);
    const left = (await (await sb.api('/_sandbox/faults')).json()) as { items: unknown[] };
    expect(left.items).toEqual([]);
  });

  it('a 5xx, a reset connection and a delay, on any method of a path with a parameter', async () => {
    await post('/_sandbox/faults', {
      api: [
        { route: '/webhooks/:id', type: 'status', status: 503 },
        { route: 'POST /single-use-link', type: 'reset' },
        { route: 'GET /webhooks', type: 'delay', ms: 300 },
      ],
    });
    const gone = await sb.api('/webhooks/nope', { method: 'DELETE' });
    expect(gone.status).toBe(503);
    expect(gone.headers.get('retry-after')).toBeNull();
    await expect(post('/single-use-link', { meeting_type_uuid: 'x' })).rejects.toThrow();
    const t0 = Date.now();
    expect((await sb.api('/webhooks')).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
  });

  it('a route with parameters never matches the control endpoints (/api/_sandbox/*)', async () => {
    const set = await post('/_sandbox/faults', {
      api: [
        { route: '/:a/:b', type: 'status', status: 503, times: 50 },
        { route: 'GET /:x/faults', type: 'status', status: 500, times: 50 },
        { route: '/:a/:b/:c', type: 'reset', times: 50 },
        { route: '*', type: 'status', status: 502, times: 50 },
      ],
    });
    expect(set.status).toBe(201);
    // The control API still answers: listing, booking lists, clearing.
    const listed = await sb.api('/_sandbox/faults');
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { items: unknown[] }).items).toHaveLength(4);
    expect((await sb.api('/_sandbox/meetings')).status).toBe(200);
    expect((await sb.api('/_sandbox/links/nope')).status).toBe(404);
    // ... while the API routes the patterns name are faulted.
    expect((await sb.api('/webhooks/x', { method: 'DELETE' })).status).toBe(503);
    expect((await sb.api('/_sandbox/faults', { method: 'DELETE' })).status).toBeLessThan(300);
    expect((await sb.api('/webhooks/x', { method: 'DELETE' })).status).toBe(404);
  });

  it('a fault is listed with what is left, removed by id, and all cleared', async () => {
    const r = await post('/_sandbox/faults', {
      api: [{ type: 'status', status: 500, times: 5 }],
      deliveries: [{ type: 'timeout' }],
    });
    const { items } = (await r.json()) as { items: Array<{ id: number }> };
    expect((await sb.api(`/_sandbox/faults/${items[0]!.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await sb.api(`/_sandbox/faults/${items[0]!.id}`, { method: 'DELETE' })).status).toBe(
      404,
    );
    const list = (await (await sb.api('/_sandbox/faults')).json()) as { items: unknown[] };
    expect(list.items).toEqual([expect.objectContaining({ target: 'delivery', webhook: '*' })]);
    expect((await sb.api('/_sandbox/faults', { method: 'DELETE' })).status).toBe(204);
    expect(sb.faults.list()).toEqual([]);
  });

  it.each([
    [{ api: [{ type: 'status', status: 404 }] }, 'api[0].status', 'must be 429 or a 5xx status'],
    [{ api: [{ type: 'explode' }] }, 'api[0].type', 'must be "status", "reset" or "delay"'],
    [{ api: [{ type: 'reset', route: 'FETCH /x' }] }, 'api[0].route', 'is not a route'],
    [{ api: [{ type: 'reset', route: '/_sandbox/faults' }] }, 'api[0].route', 'control endpoints'],
    [{ api: [{ type: 'delay', ms: -1 }] }, 'api[0].ms', 'whole number from 1'],
    [{ deliveries: [{ type: 'slow' }] }, 'deliveries[0].ms', 'whole number from 1'],
    [{ deliveries: [{ type: 'status', status: 200, x: 1 }] }, 'deliveries[0]', 'unknown field "x"'],
    [{ apis: [] }, 'faults', 'unknown field "apis"'],
  ])('%j is refused with 422 naming %s, and nothing is set', async (body, field, message) => {
    const r = await post('/_sandbox/faults', body);
    expect(r.status).toBe(422);
    const errors = ((await r.json()) as { errors: Record<string, string[]> }).errors;
    expect(errors[field]![0]).toContain(message);
    expect(sb.faults.list()).toEqual([]);
  });

  it('sched types list meets a 429, waits as Retry-After says, and succeeds', async () => {
    sb.faults.add({ api: [{ route: `GET ${TYPES}`, type: 'status', status: 429, retryAfter: 1 }] });
    const r = await runSched(['types', 'list', '--json'], { env: sb.env });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBe(8);
    const asked = sb.requests.filter((q) => q.pathname === `/api${TYPES}`).slice(-2);
    expect(asked.map((q) => q.status)).toEqual([429, 200]);
  });
});

describe('delivery faults and resend (the library)', () => {
  let lib: Sandbox;
  let rx: Receiver;
  beforeAll(async () => {
    rx = await startReceiver();
    lib = await startSandbox({ retryDelaysMs: [10], deliveryTimeoutMs: 200 });
    await fetch(`${lib.baseUrl}/webhooks`, {
      method: 'POST',
      headers: { 'x-api-key': lib.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ url: rx.url, events: ['meetingScheduled'], secret: 's' }),
    });
  });
  afterAll(async () => {
    await lib.close();
    await rx.close();
  });

  async function book() {
    const r = await fetch(`${lib.baseUrl}/single-use-link`, {
      method: 'POST',
      headers: { 'x-api-key': lib.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ meeting_type_uuid: '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c' }),
    });
    return lib.book(((await r.json()) as { url: string }).url);
  }

  it('a status fault: the attempt fails with it (nothing sent), the retry is delivered', async () => {
    const before = rx.received.length;
    const f = lib.faults.delivery({ type: 'status', status: 503 });
    expect(f).toMatchObject({ target: 'delivery', webhook: '*', remaining: 1 });
    const { deliveries } = await book();
    expect(deliveries[0]!.status).toBe('delivered');
    expect(deliveries[0]!.attempts.map((a) => a.status)).toEqual([503, 200]);
    expect(rx.received.length).toBe(before + 1);
    const [first, second] = lib.deliveries({ meeting: (await lib.meetings()).at(-1)!.uuid })[0]!
      .attempts;
    expect(first).toMatchObject({ fault: '503 (synthetic fault)', response_body: null });
    expect(second).toMatchObject({ fault: null, response_body: 'ok', resend: false });
  });

  it('a timeout fault for this webhook only: no answer within the timeout, then delivered', async () => {
    const webhook = lib.deliveries()[0]!.webhook_uuid;
    lib.faults.delivery({ webhook: 'someone-else', type: 'status', status: 500 });
    lib.faults.delivery({ webhook, type: 'timeout' });
    const { deliveries } = await book();
    expect(deliveries[0]!.attempts.map((a) => a.error)).toEqual(['no answer within 200 ms', null]);
    expect(lib.faults.list()).toEqual([expect.objectContaining({ webhook: 'someone-else' })]);
    lib.faults.clear();
  });

  it('resend: one more attempt of the same record, same body and signature', async () => {
    const { meeting } = await book();
    const [d] = lib.deliveries({ meeting: meeting.uuid, event: 'meetingScheduled' });
    const n = rx.received.length;
    const again = await lib.resend(d!.id);
    expect(again.attempts.map((a) => a.resend)).toEqual([false, true]);
    expect(again.state).toBe('delivered');
    expect(rx.received[n]!.body.toString()).toBe(d!.body);
    expect(rx.received[n]!.headers['webhook-signature']).toBe(d!.headers['webhook-signature']);
    await expect(lib.resend(999_999)).rejects.toMatchObject({ code: 'delivery_not_found' });
  });

  it('a wrong fault is an invalid_input SandboxError naming the field', () => {
    expect(() => lib.faults.api({ type: 'delay', ms: 0 })).toThrow(SandboxError);
    try {
      lib.faults.api({ type: 'delay', ms: 0 });
    } catch (e) {
      expect((e as SandboxError).code).toBe('invalid_input');
      expect((e as SandboxError).details).toEqual({
        'api[0].ms': ['must be a whole number from 1 to 600000'],
      });
    }
  });

  it('a wrong fault given to startSandbox: the same invalid_input SandboxError, nothing started', async () => {
    const e: unknown = await startSandbox({ faults: { api: [{ type: 'delay', ms: 0 }] } }).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(SandboxError);
    expect((e as SandboxError).code).toBe('invalid_input');
    expect((e as SandboxError).message).toBe(
      'invalid fault: api[0].ms: must be a whole number from 1 to 600000',
    );
    expect((e as SandboxError).details).toEqual({
      'api[0].ms': ['must be a whole number from 1 to 600000'],
    });
  });
});

describe('sched sandbox --faults <file>', () => {
  it('a wrong file: exit 2 naming the file and the field, nothing started', async () => {
    const file = join(dir, 'bad.json');
    await writeFile(file, JSON.stringify({ api: [{ type: 'status', status: 200 }] }));
    const r = await runSched(['sandbox', '--port', '0', '--faults', file]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`--faults "${file}": api[0].status: must be 429 or a 5xx status`);
    await writeFile(file, '{"api": [');
    const broken = await runSched(['sandbox', '--port', '0', '--faults', file]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`--faults "${file}" is not valid JSON`);
    const missing = await runSched(['sandbox', '--port', '0', '--faults', join(dir, 'nope')]);
    expect(missing.stderr).toContain('no such file');
  });

  it('parseFaults gives every fault its defaults: 1 time, every route or webhook, Retry-After 1', () => {
    expect(
      parseFaults({ api: [{ type: 'status', status: 429 }], deliveries: [{ type: 'timeout' }] }),
    ).toEqual({
      api: [{ type: 'status', route: '*', times: 1, status: 429, retryAfter: 1 }],
      deliveries: [{ type: 'timeout', webhook: '*', times: 1 }],
    });
  });
});
