import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/client.js';
import {
  createSingleUseLink,
  createWebhook,
  deleteWebhook,
  listMeetingTypes,
  listWebhooks,
  meetingTypes,
  webhooks,
} from '../../src/api/endpoints.js';
import { ApiError, NotFoundError, UsageError } from '../../src/errors.js';
import { envelope, f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';

let srv: FaultServer;
let client: ApiClient;

beforeEach(async () => {
  srv = await startFaultServer();
  client = createApiClient({
    baseUrl: srv.baseUrl,
    apiKey: 'test-key-123456789',
    timeoutMs: 5000,
    userAgent: 'sched/test',
    retry: { baseDelayMs: 2 },
  });
});
afterEach(async () => {
  await client.close();
  await srv.close();
});

const mt = (i: number) => ({
  name: `Type ${i}`,
  description: '',
  duration: 30,
  slug: `t${i}`,
  uuid: `uuid-${i}`,
  color: 'x',
});

describe('meeting types', () => {
  it('sends page, limit and sorting[field]=dir in order; keeps unknown fields', async () => {
    const path = '/api/users/me/meeting-types';
    srv.on('GET', path, f.json(200, envelope([mt(1)], { path, pages: 3, total: 21 })));
    const page = await listMeetingTypes(client, {
      page: 2,
      limit: 10,
      sorting: [
        ['name', 'asc'],
        ['created_at', 'desc'],
      ],
    });
    expect(srv.requests[0]!.url).toBe(
      `${path}?page=2&limit=10&sorting[name]=asc&sorting[created_at]=desc`,
    );
    expect(page.items).toEqual([mt(1)]);
    expect(page.pages).toBe(3);
  });

  it('reads every page with --all semantics (limit 50) following page/pages', async () => {
    const path = '/api/users/me/meeting-types';
    srv.on('GET', path, (req) => {
      const p = Number(req.query.get('page'));
      const items = p < 3 ? [mt(p * 2 - 1), mt(p * 2)] : [mt(5)];
      return f.json(200, envelope(items, { path, page: p, pages: 3, total: 5, limit: 2 }));
    });
    const it = meetingTypes(client, { all: true });
    const names: string[] = [];
    for await (const m of it) names.push(m.name);
    expect(names).toEqual(['Type 1', 'Type 2', 'Type 3', 'Type 4', 'Type 5']);
    expect(srv.count()).toBe(3);
    expect(srv.requests.every((r) => r.query.get('limit') === '50')).toBe(true);
  });

  it('a wrong shape is one clear error', async () => {
    srv.on('GET', '/api/users/me/meeting-types', f.json(200, { items: [] }));
    await expect(listMeetingTypes(client)).rejects.toThrow(
      'unexpected response shape from GET /users/me/meeting-types: `_embedded.items` is missing or not a list',
    );
  });
});

describe('single-use links', () => {
  it('POSTs meeting_type_uuid and returns the link as given (200)', async () => {
    srv.on(
      'POST',
      '/api/single-use-link',
      f.json(200, { code: 'abc', url: 'https://secure.simplymeet.me/s/abc', x: 1 }),
    );
    const link = await createSingleUseLink(client, 'uuid-1');
    expect(link).toEqual({ code: 'abc', url: 'https://secure.simplymeet.me/s/abc', x: 1 });
    expect(JSON.parse(srv.requests[0]!.body)).toEqual({ meeting_type_uuid: 'uuid-1' });
  });

  it('422 for an unknown meeting type -> exit 2 with the field message', async () => {
    srv.on(
      'POST',
      '/api/single-use-link',
      f.json(422, {
        message: 'Invalid arguments',
        errors: { meetingTypeUuid: ['Meeting Type with uuid nope was not found.'] },
      }),
    );
    const e = await createSingleUseLink(client, 'nope').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).details).toEqual([
      'meetingTypeUuid: Meeting Type with uuid nope was not found.',
    ]);
  });

  it('a 200 without url is an error, not a crash later', async () => {
    srv.on('POST', '/api/single-use-link', f.json(200, { code: 'abc' }));
    await expect(createSingleUseLink(client, 'u')).rejects.toBeInstanceOf(ApiError);
  });
});

describe('webhooks', () => {
  it('creates with url, events and secret', async () => {
    srv.on('POST', '/api/webhooks', (req) =>
      f.json(201, { ...JSON.parse(req.body), uuid: 'w1', created_at: 'now' }),
    );
    const w = await createWebhook(client, {
      url: 'https://h/x',
      events: ['meetingScheduled'],
      secret: 's3cr3t',
    });
    expect(w.uuid).toBe('w1');
    expect(JSON.parse(srv.requests[0]!.body)).toEqual({
      url: 'https://h/x',
      events: ['meetingScheduled'],
      secret: 's3cr3t',
    });
  });

  it('a server error that echoes the webhook secret never shows it', async () => {
    const secret = 'whsec_DISTINCTIVE_0042';
    srv.on(
      'POST',
      '/api/webhooks',
      f.json(422, {
        message: `secret ${secret} rejected`,
        errors: { secret: [`"${secret}" is too weak`] },
      }),
    );
    const e = (await createWebhook(client, {
      url: 'https://h/x',
      events: ['meetingScheduled'],
      secret,
    }).catch((x: unknown) => x)) as UsageError;
    expect(e).toBeInstanceOf(UsageError);
    expect([e.message, ...e.details].join('\n')).not.toContain(secret);
    expect(e.details).toEqual(['secret: "****" is too weak']);
  });

  it('leaves secret out of the body when there is none (--no-secret)', async () => {
    srv.on('POST', '/api/webhooks', f.json(201, { uuid: 'w2', secret: null }));
    await createWebhook(client, { url: 'https://h/x', events: ['meetingCancelled'] });
    expect(JSON.parse(srv.requests[0]!.body)).toEqual({
      url: 'https://h/x',
      events: ['meetingCancelled'],
    });
  });

  it('lists one page and every page', async () => {
    srv.on('GET', '/api/webhooks', (req) => {
      const p = Number(req.query.get('page') ?? '1');
      return f.json(
        200,
        envelope([{ uuid: `w${p}`, secret: null }], { page: p, pages: 2, limit: 1 }),
      );
    });
    const first = await listWebhooks(client, { limit: 1 });
    expect(first.items).toEqual([{ uuid: 'w1', secret: null }]);
    expect(srv.requests[0]!.url).toBe('/api/webhooks?limit=1');
    const all: string[] = [];
    for await (const w of webhooks(client, { all: true })) all.push(w.uuid);
    expect(all).toEqual(['w1', 'w2']);
  });

  it('deletes by uuid (encoded), 404 -> NotFoundError', async () => {
    srv.on('DELETE', '/api/webhooks/w1', f.status(204));
    expect(await deleteWebhook(client, 'w1')).toEqual({ uuid: 'w1', alreadyGone: false });
    await expect(deleteWebhook(client, 'a/b')).rejects.toBeInstanceOf(NotFoundError);
    expect(srv.requests[1]!.url).toBe('/api/webhooks/a%2Fb');
  });
});
