// The sandbox as a library, used the way a user's own test uses it: start it on a free port,
// subscribe a local receiver through its HTTP API, mint a link, book it, check the signature
// with node:crypto (not with our code), reschedule, cancel, and see refusals carry a `code`.
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxError, startSandbox, type Sandbox } from '../../src/sandbox/library.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { EVENT_NAMES } from '../../src/api/types.js';

const SECRET = 'whsec_library_test';
const open: Array<Sandbox | Receiver> = [];

afterEach(async () => {
  for (const x of open.splice(0).reverse()) await x.close();
});

async function start(opts: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const sb = await startSandbox({ port: 0, ...opts });
  open.push(sb);
  return sb;
}

async function receiver(opts: Parameters<typeof startReceiver>[0] = {}): Promise<Receiver> {
  const rx = await startReceiver(opts);
  open.push(rx);
  return rx;
}

/** A call to the sandbox's HTTP API, as the user's code under test would make it. */
async function api(sb: Sandbox, p: string, body?: unknown): Promise<unknown> {
  const r = await fetch(sb.baseUrl + p, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(r.ok).toBe(true);
  return r.json();
}

async function subscribe(sb: Sandbox, url: string, secret?: string): Promise<string> {
  const events = EVENT_NAMES;
  const w = (await api(sb, '/webhooks', { url, events, secret })) as { uuid: string };
  return w.uuid;
}

async function mintLink(sb: Sandbox): Promise<string> {
  const types = (await api(sb, '/users/me/meeting-types')) as {
    _embedded: { items: Array<{ uuid: string }> };
  };
  const link = (await api(sb, '/single-use-link', {
    meeting_type_uuid: types._embedded.items[0]!.uuid,
  })) as { url: string };
  return link.url;
}

function signatureOf(body: Buffer | string): string {
  return createHmac('sha256', SECRET).update(body).digest('base64');
}

async function refusal(p: Promise<unknown>): Promise<SandboxError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(SandboxError);
  return e as SandboxError;
}

describe('startSandbox (the sched/sandbox library)', () => {
  it('books, reschedules and cancels, each resolving with the signed delivery it caused', async () => {
    const sb = await start();
    expect(sb.baseUrl).toBe(`http://127.0.0.1:${sb.port}/api`);
    expect(sb.publicUrl).toBe(`http://127.0.0.1:${sb.port}`);
    expect(sb.port).toBeGreaterThan(0);
    const rx = await receiver();
    const webhook = await subscribe(sb, rx.url, SECRET);
    const link = await mintLink(sb);
    expect(link.startsWith(`${sb.publicUrl}/s/`)).toBe(true);

    const booked = await sb.book(link, { name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(booked.meeting.invitee.email).toBe('ada@example.com');
    expect(booked.deliveries).toHaveLength(1);
    const [d] = booked.deliveries;
    expect(d).toMatchObject({
      webhook: { uuid: webhook, url: rx.url },
      event: 'meetingScheduled',
      status: 'delivered',
      signed: true,
    });
    expect(d!.attempts).toEqual([
      expect.objectContaining({ attempt: 1, status: 200, error: null }),
    ]);
    // Resolved after the delivery: the receiver already has it, signed over the exact bytes.
    expect(rx.received).toHaveLength(1);
    const got = rx.received[0]!;
    expect(got.headers['webhook-signature']).toBe(signatureOf(got.body));
    expect(got.body.toString('utf8')).toBe(d!.body);
    const payload = JSON.parse(got.body.toString('utf8')) as { event: string; uuid: string };
    expect(payload).toMatchObject({ event: 'meetingScheduled', uuid: d!.notificationUuid });

    const moved = await sb.reschedule(booked.meeting.uuid, '2031-01-15T15:00:00Z');
    expect(new Date(moved.meeting.scheduled_at).toISOString()).toBe('2031-01-15T15:00:00.000Z');
    expect(moved.deliveries.map((x) => [x.event, x.status])).toEqual([
      ['meetingRescheduled', 'delivered'],
    ]);

    // Who moved it, as the library was told: the delivered meeting says so.
    const byHost = await sb.reschedule(booked.meeting.uuid, '2031-01-15T16:00:00Z', { by: 'host' });
    expect(byHost.meeting.rescheduling).toMatchObject({ rescheduled_by: 'host' });

    const cancelled = await sb.cancel(booked.meeting.uuid, { reason: 'test' });
    expect(cancelled.meeting.canceled_at).not.toBeNull();
    expect(cancelled.deliveries.map((x) => [x.event, x.status])).toEqual([
      ['meetingCancelled', 'delivered'],
    ]);
    expect(rx.received).toHaveLength(4);
    for (const r of rx.received) expect(r.headers['webhook-signature']).toBe(signatureOf(r.body));
    const cancelBody = JSON.parse(rx.received[3]!.body.toString('utf8')) as {
      event: string;
      data: { cancellation: { reason: string; canceled_by: string } };
    };
    expect(cancelBody.event).toBe('meetingCancelled');
    expect(cancelBody.data.cancellation).toMatchObject({ reason: 'test', canceled_by: 'invitee' });
  });

  it('refuses a used link, an unknown link and an unknown meeting with a code', async () => {
    const sb = await start();
    const link = await mintLink(sb);
    const code = link.slice(link.lastIndexOf('/') + 1);
    const { meeting } = await sb.book(code);

    const used = await refusal(sb.book(link));
    expect(used.code).toBe('link_used');
    expect(used.message).toContain('already been used');

    expect((await refusal(sb.book('no-such-code'))).code).toBe('link_not_found');
    const missing = await refusal(sb.cancel('00000000-0000-4000-8000-000000000000'));
    expect(missing.code).toBe('meeting_not_found');

    await sb.cancel(meeting.uuid);
    const again = await refusal(sb.cancel(meeting.uuid));
    expect(again.code).toBe('meeting_cancelled');
    expect(again.message).toContain('The meeting is already cancelled.');
    const moved = await refusal(sb.reschedule(meeting.uuid, '2031-01-15T15:00:00Z'));
    expect(moved.code).toBe('meeting_cancelled');
    expect(moved.message).toContain('A cancelled meeting cannot be rescheduled.');
  });

  it('reports invalid input with its fields, and books nothing', async () => {
    const sb = await start();
    const link = await mintLink(sb);
    const e = await refusal(sb.book(link, { email: 'not-an-email' }));
    expect(e.code).toBe('invalid_input');
    expect(Object.keys(e.details)).toEqual(['email']);
    const ok = await sb.book(link);
    expect(ok.meeting.uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports a delivery the receiver refused, with every attempt', async () => {
    const sb = await start({ retryDelaysMs: [10] });
    const rx = await receiver({ statuses: [500, 503] });
    await subscribe(sb, rx.url, SECRET);
    const { deliveries } = await sb.book(await mintLink(sb));
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.status).toBe('failed');
    expect(deliveries[0]!.attempts.map((a) => a.status)).toEqual([500, 503]);
  });

  it('with no options: a free port; Date times taken as the instants they are', async () => {
    const sb = await startSandbox();
    open.push(sb);
    expect(sb.port).toBeGreaterThan(0);
    expect(sb.baseUrl).toBe(`http://127.0.0.1:${sb.port}/api`);
    const { meeting } = await sb.book(await mintLink(sb), { at: new Date('2031-01-15T14:00:00Z') });
    expect(meeting.scheduled_at).toBe('2031-01-15T14:00:00+00:00');
    const moved = await sb.reschedule(meeting.uuid, new Date('2031-01-16T09:30:00+01:00'));
    expect(moved.meeting.scheduled_at).toBe('2031-01-16T08:30:00+00:00');
  });

  it('a link whose meeting type is gone from the state file: refused with a code', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sched-lib-'));
    try {
      const state = path.join(dir, 'state.json');
      const first = await startSandbox({ port: 0, state });
      const link = await mintLink(first);
      await first.close();
      const saved = JSON.parse(await readFile(state, 'utf8')) as { meeting_types: unknown[] };
      saved.meeting_types = [];
      await writeFile(state, JSON.stringify(saved));
      const sb = await startSandbox({ port: 0, state });
      const e = await refusal(sb.book(link.slice(link.lastIndexOf('/') + 1)));
      await sb.close();
      expect(e.code).toBe('meeting_type_not_found');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('serves the API with the given key and refuses calls after close', async () => {
    const sb = await startSandbox({ port: 0, apiKey: 'k_library' });
    expect(sb.apiKey).toBe('k_library');
    const denied = await fetch(`${sb.baseUrl}/webhooks`, { headers: { 'x-api-key': 'other' } });
    expect(denied.status).toBe(401);
    await sb.close();
    expect((await refusal(sb.book('abc'))).code).toBe('closed');
  });

  it('loads nothing of the CLI: only the sandbox, node built-ins and the leaf modules it shares', async () => {
    const entry = fileURLToPath(new URL('../../src/sandbox/library.ts', import.meta.url));
    const root = path.resolve(path.dirname(entry), '../..');
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs).map((f) =>
      path.relative(root, path.resolve(f)),
    );
    expect(inputs.filter((f) => f.includes('node_modules'))).toEqual([]);
    const outside = inputs.filter(
      (f) =>
        !f.startsWith('src/sandbox/') &&
        ![
          'src/api/types.ts',
          'src/http/body.ts',
          'src/domain/webhooks/signature.ts',
          'src/domain/webhooks/delivery.ts',
          'src/domain/webhooks/meeting.ts',
          // the event registry: what each event does to a meeting
          'src/domain/webhooks/events.ts',
          // import-free text rules: quoting and JSON error positions (state file, meetings)
          'src/text/quote.ts',
          'src/text/json-error.ts',
          // node:fs only: the trust rule the config and the --state file share, and the leaf
          // with ssh's private-group rule it applies (Node's builtins only)
          'src/config/ownership.ts',
          'src/platform-dirs.ts',
          // import-free: the default key, port and URL the CLI shares with the sandbox
          'src/defaults.ts',
          // import-free URL helpers (whether the console needs a key)
          'src/api/url.ts',
          // the one opener of user files (--state: opened once, judged by fstat) and its leaves
          'src/user-file.ts',
          'src/read-bytes.ts',
          'src/errors.ts',
          'src/text/file-problem.ts',
        ].includes(f),
    );
    expect(outside).toEqual([]);
  });
});
