// The sandbox against the service spec, statement by statement (sections 2, 4, 5, 7, 8), over
// plain HTTP with fetch — never through the CLI's own client, so a bug there cannot hide one here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { LIST_FIELDS } from '../../src/sandbox/state.js';
import { EVENT_NAMES } from '../../src/api/types.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const UUID_ANY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;

interface Envelope {
  page: number;
  limit: number;
  pages: number;
  total: number;
  _embedded: { items: Array<Record<string, unknown>> };
  _links: Record<string, { href: string }>;
}

async function json<T = Record<string, unknown>>(r: Response): Promise<T> {
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  return (await r.json()) as T;
}

const post = (sb: TestSandbox, path: string, body: unknown) =>
  sb.api(path, { method: 'POST', body: JSON.stringify(body) });

describe('sandbox API (spec sections 2, 4, 5, 7, 8)', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(async () => {
    await sb.close();
  });

  describe('2.1 meeting type', () => {
    it('has name, description (strings), duration (integer minutes), URL-safe slug, uuid', async () => {
      const env = await json<Envelope>(await sb.api('/users/me/meeting-types?limit=100'));
      expect(env.total).toBe(8);
      for (const t of env._embedded.items) {
        expect(typeof t.name).toBe('string');
        expect(typeof t.description).toBe('string');
        expect(Number.isInteger(t.duration)).toBe(true);
        expect(t.duration as number).toBeGreaterThan(0);
        expect(t.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(t.uuid).toMatch(UUID_ANY);
      }
    });

    it('includes realistic non-ASCII names and descriptions, served as UTF-8', async () => {
      const env = await json<Envelope>(await sb.api('/users/me/meeting-types?limit=100'));
      const names = env._embedded.items.map((t) => t.name);
      expect(names).toContain('Café-Gespräch — 30 min');
      expect(names.some((n) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(String(n)))).toBe(true);
    });
  });

  describe('2.2 single-use link', () => {
    it('has a random URL-safe code and an absolute url {public_url}/s/<code>', async () => {
      const [uuid] = await typeUuids(sb);
      const a = await json(await post(sb, '/single-use-link', { meeting_type_uuid: uuid }));
      const b = await json(await post(sb, '/single-use-link', { meeting_type_uuid: uuid }));
      expect(Object.keys(a).sort()).toEqual(['code', 'url']);
      expect(a.code).toMatch(/^[A-Za-z0-9_-]{8,}$/);
      expect(a.url).toBe(`${sb.publicUrl}/s/${a.code}`);
      expect(new URL(a.url as string).protocol).toBe('http:');
      expect(b.code).not.toBe(a.code);
    });
  });

  describe('2.3 webhook', () => {
    it('has url, secret, events, ISO 8601 created_at with offset, and a UUID v4', async () => {
      const w = await json(
        await post(sb, '/webhooks', {
          url: 'https://example.com/hooks/a',
          events: EVENT_NAMES,
          secret: 'shh',
        }),
      );
      expect(w.url).toBe('https://example.com/hooks/a');
      expect(w.secret).toBe('shh');
      expect(w.events).toEqual(EVENT_NAMES);
      expect(w.created_at).toMatch(ISO_WITH_OFFSET);
      expect(Number.isNaN(Date.parse(w.created_at as string))).toBe(false);
      expect(w.uuid).toMatch(UUID_V4);
      await sb.api(`/webhooks/${w.uuid}`, { method: 'DELETE' });
    });

    it('returns the secret as null when listing, so the stored value stays hidden', async () => {
      const w = await json(
        await post(sb, '/webhooks', {
          url: 'https://example.com/hooks/b',
          events: ['meetingScheduled'],
          secret: 'top-secret',
        }),
      );
      const text = await (await sb.api('/webhooks?limit=100')).text();
      expect(text).not.toContain('top-secret');
      const env = JSON.parse(text) as Envelope;
      const listed = env._embedded.items.find((i) => i.uuid === w.uuid);
      expect(listed).toMatchObject({ url: w.url, events: w.events, created_at: w.created_at });
      expect(listed).toHaveProperty('secret', null);
      await sb.api(`/webhooks/${w.uuid}`, { method: 'DELETE' });
    });

    it('accepts only the service events', async () => {
      const r = await post(sb, '/webhooks', {
        url: 'https://example.com/h',
        events: ['meetingScheduled', 'meetingDeleted'],
        secret: 's',
      });
      expect(r.status).toBe(422);
      const body = await json<{ message: string; errors: Record<string, string[]> }>(r);
      expect(body.message).toBe('Invalid arguments');
      expect(Object.keys(body.errors)).toEqual(['events']);
      expect(body.errors.events![0]).toContain('meetingDeleted');
    });
  });

  describe('2.4 paged list envelope', () => {
    it('has page, limit, pages, total, _embedded.items and self/first/last links', async () => {
      const env = await json<Envelope>(await sb.api('/users/me/meeting-types?page=2&limit=3'));
      expect(env.page).toBe(2);
      expect(env.limit).toBe(3);
      expect(env.pages).toBe(3);
      expect(env.total).toBe(8);
      expect(env._embedded.items).toHaveLength(3);
      expect(env._links).toEqual({
        self: { href: '/api/users/me/meeting-types?page=2&limit=3' },
        first: { href: '/api/users/me/meeting-types?page=1&limit=3' },
        last: { href: '/api/users/me/meeting-types?page=3&limit=3' },
      });
    });

    it('has integer page, limit, pages and total, and the last page holds the rest', async () => {
      const env = await json<Envelope>(await sb.api('/users/me/meeting-types?page=3&limit=3'));
      for (const k of ['page', 'limit', 'pages', 'total'] as const) {
        expect(Number.isInteger(env[k])).toBe(true);
      }
      expect(env._embedded.items).toHaveLength(2);
    });

    it('following page 1..pages visits every item exactly once', async () => {
      const first = await json<Envelope>(await sb.api('/users/me/meeting-types?limit=3'));
      const seen: unknown[] = [];
      for (let p = 1; p <= first.pages; p++) {
        const env = await json<Envelope>(await sb.api(`/users/me/meeting-types?limit=3&page=${p}`));
        seen.push(...env._embedded.items.map((i) => i.uuid));
      }
      expect(seen).toHaveLength(first.total);
      expect(new Set(seen).size).toBe(first.total);
    });
  });

  describe('4.1 list the user meeting types', () => {
    it('GET /users/me/meeting-types answers 200 with the envelope of meeting types', async () => {
      const r = await sb.api('/users/me/meeting-types');
      expect(r.status).toBe(200);
      const env = await json<Envelope>(r);
      expect(env._embedded.items[0]).toHaveProperty('uuid');
    });

    it('puts the most recent meeting types first by default', async () => {
      const env = await json<Envelope>(await sb.api('/users/me/meeting-types?limit=100'));
      const created = env._embedded.items.map((i) => Date.parse(i.created_at as string));
      expect(created).toEqual([...created].sort((a, b) => b - a));
    });

    it('sorts with sorting[created_at]=asc and =desc', async () => {
      const asc = await json<Envelope>(
        await sb.api('/users/me/meeting-types?limit=100&sorting[created_at]=asc'),
      );
      const desc = await json<Envelope>(
        await sb.api('/users/me/meeting-types?limit=100&sorting%5Bcreated_at%5D=desc'),
      );
      const a = asc._embedded.items.map((i) => i.uuid);
      expect(desc._embedded.items.map((i) => i.uuid)).toEqual([...a].reverse());
    });

    it.each(['name', 'description', 'duration', 'slug', 'uuid', 'position'])(
      'sorts by %s in both directions',
      async (field) => {
        for (const dir of ['asc', 'desc'] as const) {
          const env = await json<Envelope>(
            await sb.api(`/users/me/meeting-types?limit=100&sorting[${field}]=${dir}`),
          );
          const values = env._embedded.items.map((i) => i[field] as string | number);
          const sorted = [...values].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
          expect(values).toEqual(dir === 'asc' ? sorted : sorted.reverse());
        }
      },
    );

    it('keeps at most 32 sort orders cached, however many are asked for, the default among them', async () => {
      const own = await startTestSandbox({ seedTypes: 200 });
      try {
        const fields = LIST_FIELDS;
        const specs = fields.flatMap((a) =>
          fields.filter((b) => b !== a).map((b) => `sorting[${a}]=asc&sorting[${b}]=desc`),
        );
        expect(specs.length).toBeGreaterThan(40);
        for (const q of specs) {
          expect((await own.api(`/users/me/meeting-types?limit=1&${q}`)).status).toBe(200);
          expect(own.state.cachedOrders).toBeLessThanOrEqual(32);
        }
        // The default order was never evicted, and still answers right.
        const env = await json<Envelope>(await own.api('/users/me/meeting-types?limit=100'));
        const created = env._embedded.items.map((i) => Date.parse(i.created_at as string));
        expect(created).toEqual([...created].sort((a, b) => b - a));
        expect(own.state.cachedOrders).toBe(32);
      } finally {
        await own.close();
      }
    });

    it('applies repeated sorting parameters in order (duration, then name)', async () => {
      const env = await json<Envelope>(
        await sb.api('/users/me/meeting-types?limit=100&sorting[duration]=asc&sorting[name]=desc'),
      );
      const rows = env._embedded.items.map((i) => [i.duration as number, i.name as string]);
      const expected = [...rows].sort((x, y) =>
        x[0] !== y[0] ? (x[0] as number) - (y[0] as number) : x[1]! < y[1]! ? 1 : -1,
      );
      expect(rows).toEqual(expected);
      // The seed has several 30-minute types, so the secondary key really matters here.
      expect(rows.filter((r) => r[0] === 30).length).toBeGreaterThan(1);
    });

    it('answers an unknown sort field with 400 naming the allowed fields', async () => {
      const r = await sb.api('/users/me/meeting-types?sorting[colour]=asc');
      expect(r.status).toBe(400);
      const body = await json<{ message: string }>(r);
      expect(body.message).toContain('colour');
      for (const f of ['name', 'duration', 'created_at']) expect(body.message).toContain(f);
    });

    it('answers a sort direction other than asc/desc, or a bare sorting=, with 400', async () => {
      expect((await sb.api('/users/me/meeting-types?sorting[name]=up')).status).toBe(400);
      expect((await sb.api('/users/me/meeting-types?sorting=name')).status).toBe(400);
    });

    it('accepts the Content-Type: application/json header the docs send on GET', async () => {
      const r = await sb.api('/users/me/meeting-types', {
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status).toBe(200);
    });
  });

  describe('4.2 create a single-use link', () => {
    it('POST /single-use-link answers 200 (not 201) with {code,url}', async () => {
      const [uuid] = await typeUuids(sb);
      const r = await post(sb, '/single-use-link', { meeting_type_uuid: uuid });
      expect(r.status).toBe(200);
      expect(await json(r)).toHaveProperty('code');
    });

    it('answers 422 under meetingTypeUuid naming the uuid when the meeting type does not exist', async () => {
      const missing = '00000000-0000-4000-8000-000000000000';
      const r = await post(sb, '/single-use-link', { meeting_type_uuid: missing });
      expect(r.status).toBe(422);
      expect(await json(r)).toEqual({
        message: 'Invalid arguments',
        errors: { meetingTypeUuid: [`Meeting Type with uuid ${missing} was not found.`] },
      });
    });

    it('answers 422 under meetingTypeUuid when meeting_type_uuid is missing or not a string', async () => {
      for (const body of [{}, { meeting_type_uuid: 42 }, { meeting_type_uuid: '' }]) {
        const r = await post(sb, '/single-use-link', body);
        expect(r.status).toBe(422);
        const b = await json<{ errors: Record<string, string[]> }>(r);
        expect(Object.keys(b.errors)).toEqual(['meetingTypeUuid']);
      }
    });
  });

  describe('4.3 create a webhook', () => {
    it('answers 201 with the request events, url and secret plus created_at and uuid', async () => {
      const r = await post(sb, '/webhooks', {
        url: 'http://localhost:9999/receiver?x=1',
        events: ['meetingCancelled'],
        secret: 'abc',
      });
      expect(r.status).toBe(201);
      const w = await json(r);
      expect(w).toMatchObject({
        url: 'http://localhost:9999/receiver?x=1',
        events: ['meetingCancelled'],
        secret: 'abc',
      });
      expect(Object.keys(w).sort()).toEqual(['created_at', 'events', 'secret', 'url', 'uuid']);
      await sb.api(`/webhooks/${w.uuid}`, { method: 'DELETE' });
    });

    it('accepts a webhook without a secret (optional in the older docs) and returns secret null', async () => {
      const r = await post(sb, '/webhooks', {
        url: 'https://example.com/nosecret',
        events: ['meetingScheduled'],
      });
      expect(r.status).toBe(201);
      const w = await json(r);
      expect(w.secret).toBeNull();
      await sb.api(`/webhooks/${w.uuid}`, { method: 'DELETE' });
    });

    it.each([
      'not a url',
      'example.com/hook',
      'ftp://example.com/x',
      'http://',
      'https://exa mple.com',
    ])('answers 422 under url for the invalid url %j', async (url) => {
      const r = await post(sb, '/webhooks', { url, events: ['meetingScheduled'], secret: 's' });
      expect(r.status).toBe(422);
      expect(await json(r)).toEqual({
        message: 'Invalid arguments',
        errors: { url: ['This value is not a valid URL.'] },
      });
    });

    it.each([
      [undefined, 'This value should not be blank.'],
      [null, 'This value should not be blank.'],
      ['', 'This value should not be blank.'],
      [42, 'This value should be of type string.'],
      [['https://e.com/x'], 'This value should be of type string.'],
    ])('answers 422 under url for the url %j', async (url, message) => {
      const r = await post(sb, '/webhooks', { url, events: ['meetingScheduled'] });
      expect(r.status).toBe(422);
      expect(await json(r)).toEqual({ message: 'Invalid arguments', errors: { url: [message] } });
    });

    it('answers 422 for missing or empty events and for a secret that is not a string', async () => {
      const cases: Array<[unknown, string]> = [
        [{ url: 'https://e.com/h' }, 'events'],
        [{ url: 'https://e.com/h', events: [] }, 'events'],
        [{ url: 'https://e.com/h', events: 'meetingScheduled' }, 'events'],
        [{ url: 'https://e.com/h', events: ['meetingScheduled'], secret: 7 }, 'secret'],
      ];
      for (const [body, key] of cases) {
        const r = await post(sb, '/webhooks', body);
        expect(r.status).toBe(422);
        const b = await json<{ errors: Record<string, string[]> }>(r);
        expect(Object.keys(b.errors)).toEqual([key]);
      }
    });

    it('reports every invalid field at once', async () => {
      const r = await post(sb, '/webhooks', { url: 'nope', events: ['nope'] });
      const b = await json<{ errors: Record<string, string[]> }>(r);
      expect(Object.keys(b.errors).sort()).toEqual(['events', 'url']);
    });
  });

  describe('4.4 list webhooks', () => {
    it('answers 200 with an envelope whose links have the form /api/webhooks?page=<n>&limit=<n>', async () => {
      const made = [];
      for (let i = 0; i < 3; i++) {
        made.push(
          await json(
            await post(sb, '/webhooks', {
              url: `https://example.com/list/${i}`,
              events: ['meetingScheduled'],
              secret: `s${i}`,
            }),
          ),
        );
      }
      const r = await sb.api('/webhooks?page=2&limit=2', {
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status).toBe(200);
      const env = await json<Envelope>(r);
      expect(env).toMatchObject({ page: 2, limit: 2, pages: 2, total: 3 });
      expect(env._links.self!.href).toBe('/api/webhooks?page=2&limit=2');
      expect(env._links.first!.href).toBe('/api/webhooks?page=1&limit=2');
      expect(env._links.last!.href).toBe('/api/webhooks?page=2&limit=2');
      expect(env._embedded.items.map((w) => w.url)).toEqual(['https://example.com/list/2']);
      expect(env._embedded.items.every((w) => w.secret === null)).toBe(true);
      for (const w of made) await sb.api(`/webhooks/${w.uuid}`, { method: 'DELETE' });
    });

    it('lists with the defaults page 1 and limit 10 when none are given', async () => {
      const env = await json<Envelope>(await sb.api('/webhooks'));
      expect(env.page).toBe(1);
      expect(env.limit).toBe(10);
      expect(env._links.self!.href).toBe('/api/webhooks?page=1&limit=10');
    });
  });

  describe('4.5 delete a webhook', () => {
    it('answers 204 with an empty body, and the webhook is gone from the list', async () => {
      const w = await json(
        await post(sb, '/webhooks', {
          url: 'https://example.com/del',
          events: ['meetingScheduled'],
          secret: 's',
        }),
      );
      const r = await sb.api(`/webhooks/${w.uuid}`, {
        method: 'DELETE',
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status).toBe(204);
      expect(await r.text()).toBe('');
      const env = await json<Envelope>(await sb.api('/webhooks?limit=100'));
      expect(env._embedded.items.some((i) => i.uuid === w.uuid)).toBe(false);
    });

    it('answers 404 {"code":404,"message":"Not found."} when the webhook does not exist', async () => {
      for (const id of ['4b1d2f0e-2f44-4c1a-9a51-0f3f6a7c8d90', 'not-a-uuid']) {
        const r = await sb.api(`/webhooks/${id}`, { method: 'DELETE' });
        expect(r.status).toBe(404);
        expect(await json(r)).toEqual({ code: 404, message: 'Not found.' });
      }
    });

    it('answers 404 for a second delete of the same webhook', async () => {
      const w = await json(
        await post(sb, '/webhooks', { url: 'https://e.com/x', events: ['meetingScheduled'] }),
      );
      expect((await sb.api(`/webhooks/${w.uuid}`, { method: 'DELETE' })).status).toBe(204);
      expect((await sb.api(`/webhooks/${w.uuid}`, { method: 'DELETE' })).status).toBe(404);
    });
  });

  describe('5 authentication', () => {
    const endpoints: Array<[string, string, unknown?]> = [
      ['GET', '/users/me/meeting-types'],
      ['POST', '/single-use-link', { meeting_type_uuid: 'x' }],
      ['POST', '/webhooks', { url: 'https://e.com', events: ['meetingScheduled'] }],
      ['GET', '/webhooks'],
      ['DELETE', '/webhooks/4b1d2f0e-2f44-4c1a-9a51-0f3f6a7c8d90'],
    ];

    it.each(endpoints)('%s %s without X-API-KEY answers 401 with a JSON body', async (m, p, b) => {
      const r = await fetch(sb.baseUrl + p, {
        method: m,
        headers: { 'content-type': 'application/json' },
        body: b === undefined ? undefined : JSON.stringify(b),
      });
      expect(r.status).toBe(401);
      const body = await json<{ code: number; message: string }>(r);
      expect(body.code).toBe(401);
      expect(body.message).toMatch(/X-API-KEY/);
    });

    it.each(endpoints)(
      '%s %s with a wrong key answers 401 and changes nothing',
      async (m, p, b) => {
        const before = (await json<Envelope>(await sb.api('/webhooks'))).total;
        const r = await fetch(sb.baseUrl + p, {
          method: m,
          headers: { 'content-type': 'application/json', 'x-api-key': 'wrong' },
          body: b === undefined ? undefined : JSON.stringify(b),
        });
        expect(r.status).toBe(401);
        expect(await json(r)).toEqual({ code: 401, message: 'Invalid API key.' });
        expect((await json<Envelope>(await sb.api('/webhooks'))).total).toBe(before);
      },
    );

    it('takes the header name case-insensitively, the key exactly', async () => {
      const ok = await fetch(sb.baseUrl + '/webhooks', { headers: { 'X-Api-Key': sb.apiKey } });
      expect(ok.status).toBe(200);
      const upper = await fetch(sb.baseUrl + '/webhooks', {
        headers: { 'x-api-key': sb.apiKey.toUpperCase() },
      });
      expect(upper.status).toBe(401);
    });

    it('accepts the key it was started with instead of the default one', async () => {
      const other = await startTestSandbox({ apiKey: 'k-123' });
      try {
        const wrong = await fetch(other.baseUrl + '/webhooks', {
          headers: { 'x-api-key': 'sandbox_test_key' },
        });
        expect(wrong.status).toBe(401);
        expect((await other.api('/webhooks')).status).toBe(200);
      } finally {
        await other.close();
      }
    });
  });

  describe('7 errors', () => {
    it('422 bodies are {message:"Invalid arguments", errors:{field:[strings]}}', async () => {
      const r = await post(sb, '/webhooks', { url: 'bad', events: ['meetingScheduled'] });
      const b = await json<{ message: unknown; errors: Record<string, unknown> }>(r);
      expect(Object.keys(b).sort()).toEqual(['errors', 'message']);
      expect(b.message).toBe('Invalid arguments');
      for (const v of Object.values(b.errors)) {
        expect(Array.isArray(v)).toBe(true);
        for (const s of v as unknown[]) expect(typeof s).toBe('string');
      }
    });

    it('the 404 body has an integer code 404 and the message "Not found."', async () => {
      const r = await sb.api('/webhooks/0d6c1b9e-0000-4000-8000-000000000001', {
        method: 'DELETE',
      });
      const b = await json<{ code: unknown; message: unknown }>(r);
      expect(b.code).toBe(404);
      expect(b.message).toBe('Not found.');
    });
  });

  describe('8 limits', () => {
    let big: TestSandbox;
    beforeAll(async () => {
      big = await startTestSandbox({ seedTypes: 250 });
    });
    afterAll(async () => {
      await big.close();
    });

    it('limit defaults to 10 objects per page', async () => {
      const env = await json<Envelope>(await big.api('/users/me/meeting-types'));
      expect(env.limit).toBe(10);
      expect(env._embedded.items).toHaveLength(10);
      expect(env.pages).toBe(25);
    });

    it('page defaults to 1', async () => {
      const a = await json<Envelope>(await big.api('/users/me/meeting-types?limit=5'));
      const b = await json<Envelope>(await big.api('/users/me/meeting-types?limit=5&page=1'));
      expect(a.page).toBe(1);
      expect(a._embedded.items).toEqual(b._embedded.items);
    });

    it('accepts limit=50 as a public client sends it, with sorting[created_at]=desc', async () => {
      const env = await json<Envelope>(
        await big.api('/users/me/meeting-types?limit=50&sorting[created_at]=desc'),
      );
      expect(env._embedded.items).toHaveLength(50);
      expect(env.limit).toBe(50);
    });

    it('clamps limit to the maximum of 100, and the envelope says the limit used', async () => {
      const env = await json<Envelope>(await big.api('/users/me/meeting-types?limit=1000'));
      expect(env.limit).toBe(100);
      expect(env._embedded.items).toHaveLength(100);
      expect(env.pages).toBe(3);
      expect(env._links.last!.href).toBe('/api/users/me/meeting-types?page=3&limit=100');
    });

    it('answers a page beyond the last with 200 and no items', async () => {
      const r = await big.api('/users/me/meeting-types?page=99&limit=100');
      expect(r.status).toBe(200);
      const env = await json<Envelope>(r);
      expect(env).toMatchObject({ page: 99, pages: 3, total: 250 });
      expect(env._embedded.items).toEqual([]);
    });

    it.each(['0', '-1', 'abc', '1.5', '', '1e2', '99999999999999999999'])(
      'answers page=%j and limit=%j with 400 and a JSON body',
      async (v) => {
        for (const name of ['page', 'limit']) {
          for (const path of ['/users/me/meeting-types', '/webhooks']) {
            const r = await big.api(`${path}?${name}=${encodeURIComponent(v)}`);
            expect(r.status).toBe(400);
            const b = await json<{ code: number; message: string }>(r);
            expect(b.code).toBe(400);
            expect(b.message).toContain(name);
          }
        }
      },
    );
  });

  describe('robustness', () => {
    it('answers malformed JSON, non-object JSON, and invalid UTF-8 with 400', async () => {
      for (const body of ['{"url":', '[1,2]', 'null', '"x"', '']) {
        const r = await sb.api('/webhooks', { method: 'POST', body });
        expect(r.status).toBe(400);
        expect((await json<{ code: number }>(r)).code).toBe(400);
      }
      const r = await sb.api('/webhooks', {
        method: 'POST',
        body: Buffer.from([0x7b, 0xff, 0x7d]),
      });
      expect(r.status).toBe(400);
    });

    it('a JSON route without a Content-Type: 400 when the body is empty, else 415', async () => {
      const none = await fetch(`${sb.baseUrl}/webhooks`, {
        method: 'POST',
        headers: { 'x-api-key': sb.apiKey },
      });
      expect(none.status).toBe(400);
      expect((await json<{ message: string }>(none)).message).toMatch(/^The request body is empty/);
      // A byte body: fetch sends it without a Content-Type.
      const bytes = await fetch(`${sb.baseUrl}/webhooks`, {
        method: 'POST',
        headers: { 'x-api-key': sb.apiKey },
        body: new TextEncoder().encode('{}'),
      });
      expect(bytes.status).toBe(415);
      expect((await json<{ message: string }>(bytes)).message).toBe(
        'Unsupported Content-Type "": send the body as application/json.',
      );
    });

    it('the booking form: 415 unless form-encoded, 400 when not UTF-8', async () => {
      const [type] = await typeUuids(sb);
      const link = await json<{ url: string }>(
        await post(sb, '/single-use-link', { meeting_type_uuid: type }),
      );
      const asJson = await fetch(link.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"x"}',
      });
      expect(asJson.status).toBe(415);
      const notUtf8 = await fetch(link.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: Buffer.from([0x6e, 0x3d, 0xff]),
      });
      expect(notUtf8.status).toBe(400);
      expect((await json<{ message: string }>(notUtf8)).message).toBe(
        'The form is not valid UTF-8.',
      );
      expect((await fetch(link.url)).status).toBe(200);
    });

    it('answers a body that is not application/json with 415', async () => {
      const r = await sb.api('/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{"url":"https://e.com","events":["meetingScheduled"]}',
      });
      expect(r.status).toBe(415);
      expect((await json<{ code: number }>(r)).code).toBe(415);
    });

    it('answers a body over 1 MiB with 413 and keeps serving', async () => {
      const r = await sb.api('/webhooks', { method: 'POST', body: 'x'.repeat(2 * 1024 * 1024) });
      expect(r.status).toBe(413);
      expect((await json<{ code: number }>(r)).code).toBe(413);
      expect((await sb.api('/webhooks')).status).toBe(200);
    });

    it('answers unknown routes with 404 JSON, also outside /api and before authentication', async () => {
      // ('/' is the console: console.test.ts.)
      for (const p of ['/api/nope', '/api/webhooks/a/b', '/nope', '/api/users/me/meeting-types/']) {
        const r = await fetch(new URL(p, sb.publicUrl));
        expect(r.status).toBe(404);
        expect((await json<{ code: number }>(r)).code).toBe(404);
      }
    });

    it('answers a wrong method with 405 JSON and an Allow header', async () => {
      const r = await sb.api('/users/me/meeting-types', { method: 'POST', body: '{}' });
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('GET, HEAD');
      expect((await json<{ code: number }>(r)).code).toBe(405);
      const d = await sb.api('/webhooks', { method: 'PUT', body: '{}' });
      expect(d.status).toBe(405);
      expect(d.headers.get('allow')).toContain('POST');
      // Only POST on the path: no HEAD offered.
      const b = await sb.api('/_sandbox/book', { method: 'GET' });
      expect(b.status).toBe(405);
      expect(b.headers.get('allow')).toBe('POST');
    });

    it('answers HEAD like GET without a body', async () => {
      const r = await sb.api('/webhooks', { method: 'HEAD' });
      expect(r.status).toBe(200);
      expect(await r.text()).toBe('');
    });

    it('answers a malformed HTTP request with 400 instead of hanging', async () => {
      expect(await raw(sb, 'NONSENSE\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    });

    it('routes a path starting with // as a path, not as another host', async () => {
      const answer = await raw(
        sb,
        `GET //evil.example/api/webhooks HTTP/1.1\r\nHost: localhost\r\nx-api-key: ${sb.apiKey}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 404/);
    });

    it("takes a proxy's absolute-form target as it is", async () => {
      const answer = await raw(
        sb,
        `GET http://localhost/api/webhooks HTTP/1.1\r\nHost: localhost\r\nx-api-key: ${sb.apiKey}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
      expect(answer).toContain('"_embedded"');
    });

    it('serves many concurrent requests', async () => {
      const rs = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          sb.api(`/users/me/meeting-types?page=${(i % 3) + 1}&limit=3`),
        ),
      );
      expect(rs.every((r) => r.status === 200)).toBe(true);
      await Promise.all(rs.map((r) => r.arrayBuffer()));
    });

    it('records what reached it: method, path with query, headers, parsed body, status', async () => {
      const n = sb.requests.length;
      await post(sb, '/single-use-link', { meeting_type_uuid: 'zzz' });
      const rec = sb.requests[n]!;
      expect(rec.method).toBe('POST');
      expect(rec.url).toBe('/api/single-use-link');
      expect(rec.headers['x-api-key']).toBe(sb.apiKey);
      expect(rec.headers['content-type']).toBe('application/json');
      expect(rec.body).toEqual({ meeting_type_uuid: 'zzz' });
      expect(rec.status).toBe(422);
    });

    it('records a header sent twice as one, joined with ", "', async () => {
      const n = sb.requests.length;
      await raw(
        sb,
        `GET /api/webhooks HTTP/1.1\r\nHost: localhost\r\nx-api-key: ${sb.apiKey}\r\nx-trace: a\r\nx-trace: b\r\nConnection: close\r\n\r\n`,
      );
      expect(sb.requests[n]!.headers['x-trace']).toBe('a, b');
    });
  });

  describe('seeding', () => {
    it('serves 100,000 synthetic meeting types, realistic ones newest, with exact paging', async () => {
      const huge = await startTestSandbox({ seedTypes: 100_000, recordRequests: false });
      try {
        const first = await json<Envelope>(await huge.api('/users/me/meeting-types?limit=100'));
        expect(first).toMatchObject({ total: 100_000, pages: 1000, limit: 100 });
        expect(first._embedded.items[0]!.name).toBe('面談 (consultation in Japanese)');
        const last = await json<Envelope>(
          await huge.api('/users/me/meeting-types?limit=100&page=1000'),
        );
        expect(last._embedded.items).toHaveLength(100);
        const byName = await json<Envelope>(
          await huge.api(
            '/users/me/meeting-types?limit=3&sorting[duration]=desc&sorting[name]=asc',
          ),
        );
        expect(byName._embedded.items.map((i) => i.duration)).toEqual([120, 120, 120]);
        const uuids = new Set(huge.state.meetingTypes.map((t) => t.uuid));
        expect(uuids.size).toBe(100_000);
      } finally {
        await huge.close();
      }
    });

    it('starts with the given meeting types, and with none when told so', async () => {
      const custom = await startTestSandbox({
        meetingTypes: [
          { name: 'Only one', duration: 25 },
          { name: '面談', duration: 30 },
        ],
      });
      const empty = await startTestSandbox({ seedTypes: 0 });
      try {
        const env = await json<Envelope>(await custom.api('/users/me/meeting-types'));
        // Newest first; a name with nothing to make a slug of gets "meeting".
        expect(env._embedded.items.map((i) => [i.name, i.duration, i.slug])).toEqual([
          ['面談', 30, 'meeting'],
          ['Only one', 25, 'only-one'],
        ]);
        const none = await json<Envelope>(await empty.api('/users/me/meeting-types'));
        expect(none).toMatchObject({ total: 0, pages: 1, page: 1 });
        expect(none._embedded.items).toEqual([]);
      } finally {
        await custom.close();
        await empty.close();
      }
    });
  });
});

/** Sends `request` as it is on a new connection; the whole answer once the server closes it. */
async function raw(sb: TestSandbox, request: string): Promise<string> {
  const net = await import('node:net');
  const u = new URL(sb.baseUrl);
  return new Promise<string>((resolve, reject) => {
    const s = net.connect(Number(u.port), u.hostname, () => s.write(request));
    let data = '';
    s.on('data', (c) => (data += c.toString()));
    s.on('end', () => resolve(data));
    s.on('error', reject);
  });
}

async function typeUuids(sb: TestSandbox): Promise<string[]> {
  const r = await sb.api('/users/me/meeting-types?limit=100');
  const env = (await r.json()) as Envelope;
  return env._embedded.items.map((i) => i.uuid as string);
}
