// The tools of `sched mcp` that call the API, as an assistant sees them: the SDK's own Client
// over its in-memory transport (test/helpers/mcp.ts), the server against an in-process sandbox
// or a scripted server on port 0. Each test checks the result (structuredContent, the text,
// isError and the CLI's one-line wording) and what reached the server; every frame of every
// session is scanned for the API key and the webhook secrets. Bounds: items per result, links
// per call, the request timeout, a cancelled call aborting its request; a hostile server's
// text cleaned. (test/mcp/tools.test.ts has the checks made before any request.)
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestSandbox } from '../helpers/sandbox.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { connectMcp, useMcpServers, type McpHarness } from '../helpers/mcp.js';
import { envelope, f, type FaultServer } from '../helpers/fault-server.js';
import {
  HOSTILE,
  HOSTILE_KEY,
  hostileRoutes,
  hostileValidationBody,
  startHostileApi,
  terminalProblems,
} from '../helpers/hostile.js';
import type { GlobalOptions } from '../../src/context.js';
import { EVENT_NAMES } from '../../src/api/types.js';

const INTRO = '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c'; // seeded "intro-call", "Intro call"
const HOOK_SECRET = 'mcp-hook-secret-5d1f0c9a7b';
const STORED_SECRET = 'stored-secret-on-the-server-77c1';
const SCRIPTED_KEY = 'scripted-server-key-4f0a9b';
const MT_PATH = '/api/users/me/meeting-types';

const servers = useMcpServers();
let sb: TestSandbox;
let api: FaultServer;
beforeAll(() => ({ sb, api } = servers));
const config = useConfigDir('sched-mcp-calls-');
const open: McpHarness[] = [];
afterEach(async () => {
  const sessions = open.splice(0);
  for (const h of sessions) await h.close();
  // No frame either way carried the key or a secret, whatever the call did.
  const frames = sessions.flatMap((h) => h.frames).join('\n');
  for (const secret of [sb.apiKey, SCRIPTED_KEY, HOSTILE_KEY, HOOK_SECRET, STORED_SECRET]) {
    expect(frames).not.toContain(secret);
  }
});

type Target = { SCHED_BASE_URL: string; SCHED_API_KEY: string };

/** A session of a server started with these flags, against the sandbox or `target`. */
async function connect(
  flags: { readOnly?: true; allowWrite?: true } = {},
  target: Target = sb.env,
  globals: Partial<GlobalOptions> = {},
): Promise<McpHarness> {
  const h = await connectMcp(
    { readOnly: undefined, allowWrite: undefined, sandbox: undefined, ...flags },
    { SCHED_CONFIG_DIR: config.path, SCHED_WEBHOOK_SECRET_HOOK: HOOK_SECRET, ...target },
    globals,
  );
  open.push(h);
  return h;
}

const scripted = (): Target => ({ SCHED_BASE_URL: api.baseUrl, SCHED_API_KEY: SCRIPTED_KEY });
const posts = () => sb.requests.filter((r) => r.method === 'POST');
const gets = () => sb.requests.filter((r) => r.method === 'GET').map((r) => r.url);

function meetingType(i: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  const n = String(i).padStart(3, '0');
  return {
    uuid: `00000000-0000-4000-8000-000000000${n}`,
    name: `Type ${n}`,
    slug: `type-${n}`,
    duration: 30,
    ...over,
  };
}

function webhook(i: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  const n = String(i).padStart(3, '0');
  return {
    uuid: `0b9e2f7c-1111-4c4c-9d9d-000000000${n}`,
    url: `https://hooks.example.com/${n}`,
    events: ['meetingScheduled'],
    secret: null,
    created_at: '2026-01-01T00:00:00+00:00',
    ...over,
  };
}

/** Serves `all` as pages of `size` (the page asked for), ignoring the limit asked for. */
function pagesOf(all: Array<Record<string, unknown>>, size: number, path: string) {
  const pages = Math.max(1, Math.ceil(all.length / size));
  return (req: { query: URLSearchParams }) => {
    const page = Number(req.query.get('page') ?? 1);
    const items = all.slice((page - 1) * size, page * size);
    return f.json(200, envelope(items, { page, pages, limit: size, total: all.length, path }));
  };
}

describe('list_meeting_types', () => {
  it('one page: the API objects whole (unknown fields kept), the paging, one line each', async () => {
    const h = await connect();
    const r = await h.call('list_meeting_types', { limit: 3 });
    expect(r.isError, r.text).toBe(false);
    const items = r.structured!.meeting_types as Array<Record<string, unknown>>;
    expect(items.map((t) => t.slug)).toEqual([
      'mendan-consultation',
      'reunion-de-suivi',
      'technical-deep-dive',
    ]);
    // Fields the CLI has no use for are kept as the API sent them.
    expect(Object.keys(items[0]!)).toEqual(expect.arrayContaining(['description', 'position']));
    expect(r.structured).toMatchObject({
      count: 3,
      total: 8,
      page: 1,
      pages: 3,
      has_more: true,
      truncated: false,
    });
    expect(r.text).toBe(
      [
        '3 meeting types (page 1 of 3; more on page 2):',
        '- 面談 (consultation in Japanese) · mendan-consultation · 20 min · 4a3b2c1d-0e9f-4a8b-b7c6-d5e4f3a2b1c0',
        '- Réunion de suivi · reunion-de-suivi · 30 min · e2f1a0b9-c8d7-4e6f-8a5b-4c3d2e1f0a9b',
        '- Technical deep dive · technical-deep-dive · 90 min · 8d7c6b5a-4938-4271-b60f-e1d2c3b4a596',
      ].join('\n'),
    );
    expect(gets()).toEqual([`${MT_PATH}?limit=3`]);
  });

  it('by default 20 a page; the last page says no more and is not truncated', async () => {
    const h = await connect();
    const first = await h.call('list_meeting_types');
    expect(first.structured).toMatchObject({ count: 8, total: 8, page: 1, pages: 1 });
    expect(first.structured!.truncated).toBe(false);
    expect(first.text.split('\n')[0]).toBe('8 meeting types (page 1 of 1):');
    const last = await h.call('list_meeting_types', { page: 3, limit: 3 });
    expect(last.structured).toEqual({
      meeting_types: expect.any(Array),
      count: 2,
      total: 8,
      page: 3,
      pages: 3,
      has_more: false,
      truncated: false,
    });
    expect(last.text.split('\n')[0]).toBe('2 meeting types (page 3 of 3):');
    // A page with pages after it: has_more, though nothing was cut.
    const mid = await h.call('list_meeting_types', { page: 2, limit: 3 });
    expect(mid.structured).toMatchObject({ page: 2, pages: 3, has_more: true, truncated: false });
    expect(gets()).toEqual([
      `${MT_PATH}?limit=20`,
      `${MT_PATH}?page=3&limit=3`,
      `${MT_PATH}?page=2&limit=3`,
    ]);
  });

  it('query: names and slugs containing it (case ignored), over every page', async () => {
    const h = await connect();
    const byName = await h.call('list_meeting_types', { query: ' INTRO ', limit: 1 });
    expect(byName.structured).toEqual({
      meeting_types: [expect.objectContaining({ uuid: INTRO })],
      count: 1,
      total: 1,
      page: null,
      pages: null,
      has_more: false,
      truncated: false,
    });
    expect(byName.text).toBe(
      `1 meeting type matching "INTRO":\n- Intro call · intro-call · 15 min · ${INTRO}`,
    );
    // Every page was read, whatever the limit.
    expect(gets()).toEqual([`${MT_PATH}?page=1&limit=50`]);
    // "gesprach" is in the slug only; "Gespräch" in the name only.
    const bySlug = await h.call('list_meeting_types', { query: 'gesprach' });
    const byName2 = await h.call('list_meeting_types', { query: 'gespräch' });
    for (const r of [bySlug, byName2]) {
      expect((r.structured!.meeting_types as Array<{ slug: string }>).map((t) => t.slug)).toEqual([
        'cafe-gesprach-30-min',
      ]);
    }
    const none = await h.call('list_meeting_types', { query: 'nothing-like-it' });
    expect(none.text).toBe('0 meeting types matching "nothing-like-it":');
    expect(none.structured).toMatchObject({ count: 0, total: 0, truncated: false });
  });

  it('a blank query is none: one page, as asked', async () => {
    const h = await connect();
    const r = await h.call('list_meeting_types', { query: '   ', limit: 2 });
    expect(r.text.split('\n')[0]).toBe('2 meeting types (page 1 of 4; more on page 2):');
    // More pages: has_more, though nothing was cut.
    expect(r.structured).toMatchObject({ page: 1, pages: 4, has_more: true, truncated: false });
    expect(gets()).toEqual([`${MT_PATH}?limit=2`]);
  });

  it('all: every page read, at most 100 items held; total counts them all', async () => {
    const many = Array.from({ length: 130 }, (_, i) => meetingType(i));
    api.on('GET', MT_PATH, pagesOf(many, 50, MT_PATH));
    const h = await connect({}, scripted());
    const r = await h.call('list_meeting_types', { all: true });
    expect(r.isError, r.text).toBe(false);
    const items = r.structured!.meeting_types as Array<{ slug: string }>;
    expect(items).toHaveLength(100);
    expect(items.at(-1)!.slug).toBe('type-099');
    expect(r.structured).toMatchObject({
      count: 100,
      total: 130,
      page: null,
      has_more: true,
      truncated: true,
    });
    const lines = r.text.split('\n');
    expect(lines[0]).toBe(
      '100 meeting types, the first 100 of 130; narrow with query or read by page:',
    );
    expect(lines).toHaveLength(101);
    expect(api.requests.map((q) => q.query.get('page') ?? '1')).toEqual(['1', '2', '3']);
    // A query over them counts every match, holds 100.
    const q = await h.call('list_meeting_types', { query: 'TYPE-1' });
    expect(q.structured).toMatchObject({ count: 30, total: 30, truncated: false });
  });

  it('a page of more than 100 items is cut to 100 and said to be truncated', async () => {
    const many = Array.from({ length: 120 }, (_, i) => meetingType(i));
    api.on('GET', MT_PATH, () =>
      f.json(200, { ...envelope(many, { path: MT_PATH }), total: undefined, page: 1, pages: 1 }),
    );
    const h = await connect({}, scripted());
    const r = await h.call('list_meeting_types', { limit: 100 });
    expect(r.structured).toMatchObject({ count: 100, total: null, page: 1, pages: 1 });
    expect(r.structured!.truncated).toBe(true);
    // The last page, but 20 items were left out: there is more than this result holds.
    expect(r.structured!.has_more).toBe(true);
    expect(r.text.split('\n')).toHaveLength(101);
    expect(api.requests[0]!.query.get('limit')).toBe('100');
  });

  it('a page count of 0 reads as one page; odd values become one clean line each', async () => {
    const odd = [
      meetingType(1, { name: 'N'.repeat(121), slug: null, duration: undefined }),
      meetingType(2, { name: 'M'.repeat(120), slug: 'two\nlines' }),
    ];
    api.on('GET', MT_PATH, f.json(200, { ...envelope(odd, { path: MT_PATH }), pages: 0 }));
    const h = await connect({}, scripted());
    const r = await h.call('list_meeting_types');
    expect(r.text).toBe(
      [
        '2 meeting types (page 1 of 1):',
        // Cut at 120 characters, the last one an ellipsis; a value of 120 is whole.
        `- ${'N'.repeat(119)}… ·  ·  min · 00000000-0000-4000-8000-000000000001`,
        `- ${'M'.repeat(120)} · two lines · 30 min · 00000000-0000-4000-8000-000000000002`,
      ].join('\n'),
    );
  });
});

describe('a result of about 1 MiB at most', () => {
  it('a page too big for one result keeps the items that fit, says so and what to do', async () => {
    // 100 webhooks of about 6 KB each (an unknown field kept whole): about 600 KB read.
    const big = Array.from({ length: 100 }, (_, i) => webhook(i, { notes: 'n'.repeat(6000) }));
    api.on('GET', '/api/webhooks', f.json(200, envelope(big, { path: '/api/webhooks' })));
    const h = await connect({}, scripted());
    const r = await h.call('list_webhooks', { limit: 100 });
    expect(r.isError, r.text).toBe(false);
    const count = (r.structured!.webhooks as unknown[]).length;
    expect(count).toBeGreaterThan(50);
    expect(count).toBeLessThan(100);
    const note = `only the first ${count} fit in one result (about 1 MiB): read by page with a smaller limit`;
    expect(r.structured).toMatchObject({ count, has_more: true, truncated: true, note });
    expect(r.text.split('\n')[0]).toBe(`${count} webhooks (page 1 of 1; ${note}):`);
  });
});

describe('create_single_use_link', () => {
  it('by name, as `link create` resolves it: count links minted, each URL a line', async () => {
    const h = await connect();
    const r = await h.call('create_single_use_link', { meeting_type: 'intro CALL', count: 3 });
    expect(r.isError, r.text).toBe(false);
    const links = r.structured!.links as Array<{ url: string; code: string }>;
    expect(links).toHaveLength(3);
    expect(r.structured).toEqual({
      meeting_type: 'intro CALL',
      meeting_type_uuid: INTRO,
      links: expect.any(Array),
    });
    expect(posts().map((p) => p.body)).toEqual(Array(3).fill({ meeting_type_uuid: INTRO }));
    expect(sb.state.links.size).toBe(3);
    expect(r.text).toBe(
      [`3 single-use links for "intro CALL" (${INTRO}):`, ...links.map((l) => l.url)].join('\n'),
    );
  });

  it('one link by default', async () => {
    const h = await connect();
    const r = await h.call('create_single_use_link', { meeting_type: 'intro-call' });
    expect(r.text.split('\n')[0]).toBe(`1 single-use link for "intro-call" (${INTRO}):`);
    expect(posts()).toHaveLength(1);
  });

  it('an unknown slug, and too many links, are errors in the CLI words; nothing minted', async () => {
    const h = await connect();
    const unknown = await h.call('create_single_use_link', { meeting_type: 'intro-cal' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/^error: no meeting type with slug or name "intro-cal"/);
    expect(unknown.text).toContain('did you mean "intro-call"?');
    expect(unknown.text).toMatch(/\nhint: run `sched types list --all`/);
    const many = await h.call('create_single_use_link', { meeting_type: INTRO, count: 26 });
    expect(many.isError).toBe(true);
    expect(many.text).toBe(
      'error: count must be from 1 to 25; got 26\nhint: ask again for the rest: at most 25 per call',
    );
    expect(posts()).toHaveLength(0);
    expect(sb.state.links.size).toBe(0);
  });

  it('25 links in one call', async () => {
    const h = await connect();
    const r = await h.call('create_single_use_link', { meeting_type: INTRO, count: 25 });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured!.links).toHaveLength(25);
    expect(sb.state.links.size).toBe(25);
  });

  it('a failure after some were minted: the links made are kept and shown, with the error', async () => {
    api.on('GET', MT_PATH, f.json(200, envelope([meetingType(7)], { path: MT_PATH })));
    const link = (n: number) => f.json(201, { code: `c${n}`, url: `https://book.example/s/c${n}` });
    api.on(
      'POST',
      '/api/single-use-link',
      link(1),
      link(2),
      f.json(422, { code: 422, message: 'Meeting type is paused.' }),
    );
    const h = await connect({}, scripted());
    const r = await h.call('create_single_use_link', { meeting_type: 'type-007', count: 4 });
    expect(r.isError).toBe(true);
    expect(r.structured).toEqual({
      meeting_type: 'type-007',
      meeting_type_uuid: '00000000-0000-4000-8000-000000000007',
      links: [
        { code: 'c1', url: 'https://book.example/s/c1' },
        { code: 'c2', url: 'https://book.example/s/c2' },
      ],
    });
    const lines = r.text.split('\n');
    expect(lines[0]).toBe('created 2 of 4 links (below), then:');
    expect(lines[1]).toBe(
      `error: the API rejected POST ${api.baseUrl}/single-use-link (422): Meeting type is paused`,
    );
    expect(lines.slice(-2)).toEqual(['https://book.example/s/c1', 'https://book.example/s/c2']);
    expect(api.count('POST', '/api/single-use-link')).toBe(3);
  });

  it('a failure of the first link is the error alone', async () => {
    api.on('GET', MT_PATH, f.json(200, envelope([meetingType(7)], { path: MT_PATH })));
    api.on('POST', '/api/single-use-link', f.json(422, { code: 422, message: 'Paused.' }));
    const h = await connect({}, scripted());
    const r = await h.call('create_single_use_link', { meeting_type: 'type-007', count: 2 });
    expect(r.isError).toBe(true);
    expect(r.structured).toBeUndefined();
    expect(r.text).toBe(
      `error: the API rejected POST ${api.baseUrl}/single-use-link (422): Paused`,
    );
    expect(api.count('POST', '/api/single-use-link')).toBe(1);
  });
});

describe('list_webhooks', () => {
  it('the webhooks, a secret the server sends never shown', async () => {
    sb.state.webhooks.set('0b9e2f7c-1111-4c4c-9d9d-2a2a2a2a2a2a', {
      uuid: '0b9e2f7c-1111-4c4c-9d9d-2a2a2a2a2a2a',
      url: 'https://hooks.example.com/a',
      secret: STORED_SECRET,
      events: ['meetingScheduled', 'meetingCancelled'],
      created_at: '2026-01-01T00:00:00+00:00',
    });
    const h = await connect();
    const r = await h.call('list_webhooks');
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ count: 1, total: 1, page: 1, pages: 1, truncated: false });
    const hooks = r.structured!.webhooks as Array<Record<string, unknown>>;
    expect(hooks.map((w) => w.url)).toEqual(['https://hooks.example.com/a']);
    expect(r.text).toBe(
      '1 webhook (page 1 of 1):\n' +
        '- 0b9e2f7c-1111-4c4c-9d9d-2a2a2a2a2a2a https://hooks.example.com/a [meetingScheduled,meetingCancelled]',
    );
    expect(gets()).toEqual(['/api/webhooks?limit=20']);
  });

  it('all: every page, secrets replaced, at most 100 held', async () => {
    const many = Array.from({ length: 105 }, (_, i) =>
      webhook(i, i === 0 ? { secret: STORED_SECRET } : {}),
    );
    api.on('GET', '/api/webhooks', pagesOf(many, 50, '/api/webhooks'));
    const h = await connect({}, scripted());
    const r = await h.call('list_webhooks', { all: true });
    expect(r.structured).toMatchObject({ count: 100, total: 105, page: null, truncated: true });
    const hooks = r.structured!.webhooks as Array<Record<string, unknown>>;
    expect(hooks[0]!.secret).toBe('****');
    expect(hooks[1]!.secret).toBeNull();
    expect(r.text.split('\n')[0]).toBe(
      '100 webhooks, the first 100 of 105; narrow with query or read by page:',
    );
    expect(api.count('GET', '/api/webhooks')).toBe(3);
  });

  it('events that are not a list show as none; a long URL is cut', async () => {
    const url = `https://hooks.example.com/${'p'.repeat(400)}`;
    api.on('GET', '/api/webhooks', f.json(200, envelope([webhook(1, { url, events: null })])));
    const h = await connect({}, scripted());
    const r = await h.call('list_webhooks', { page: 2, limit: 5 });
    expect(r.text.split('\n')[1]).toBe(
      `- 0b9e2f7c-1111-4c4c-9d9d-000000000001 ${url.slice(0, 299)}… []`,
    );
    expect(api.requests[0]!.url).toBe('/api/webhooks?page=2&limit=5');
  });
});

describe('create_webhook and delete_webhook', () => {
  it('create: signed with the secret secret_env names, which no frame carries', async () => {
    const h = await connect({ allowWrite: true });
    const r = await h.call('create_webhook', {
      url: 'https://hooks.example.com/new',
      events: ['meetingScheduled', 'meetingCancelled'],
      secret_env: 'SCHED_WEBHOOK_SECRET_HOOK',
    });
    expect(r.isError, r.text).toBe(false);
    expect(posts()[0]!.body).toEqual({
      url: 'https://hooks.example.com/new',
      events: ['meetingScheduled', 'meetingCancelled'],
      secret: HOOK_SECRET,
    });
    const created = r.structured!.webhook as Record<string, unknown>;
    expect(created.url).toBe('https://hooks.example.com/new');
    expect(r.structured!.signed).toBe(true);
    expect(r.text).toBe(
      `Created webhook ${String(created.uuid)} for https://hooks.example.com/new ` +
        '(meetingScheduled, meetingCancelled), signed with the secret in SCHED_WEBHOOK_SECRET_HOOK.',
    );
  });

  it('create: the secret read from secret_env is masked wherever the service echoes it', async () => {
    api.on(
      'POST',
      '/api/webhooks',
      f.json(
        201,
        webhook(1, { secret: HOOK_SECRET, url: `https://hooks.example.com/?s=${HOOK_SECRET}` }),
      ),
    );
    const h = await connect({ allowWrite: true }, scripted());
    const r = await h.call('create_webhook', {
      url: 'https://hooks.example.com/001',
      events: ['meetingScheduled'],
      secret_env: 'SCHED_WEBHOOK_SECRET_HOOK',
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured!.webhook).toMatchObject({
      secret: '****',
      url: 'https://hooks.example.com/?s=****',
    });
    expect(r.text).toContain('for https://hooks.example.com/?s=**** (meetingScheduled)');
    expect(JSON.parse(api.requests[0]!.body)).toMatchObject({ secret: HOOK_SECRET });
  });

  it('create: no secret_env and no unsigned choice is refused; unsigned sends none, every event', async () => {
    const h = await connect({ allowWrite: true });
    const none = await h.call('create_webhook', { url: 'https://hooks.example.com/x' });
    expect(none.isError).toBe(true);
    expect(none.text).toBe(
      'error: a signing secret is needed: secret_env names the environment variable of the server that holds it\n' +
        'hint: or pass unsigned: true to create an unsigned webhook (not recommended)',
    );
    const unset = await h.call('create_webhook', {
      url: 'https://hooks.example.com/x',
      secret_env: 'SCHED_WEBHOOK_SECRET_NOT_SET',
    });
    expect(unset.text).toBe(
      'error: secret_env: environment variable SCHED_WEBHOOK_SECRET_NOT_SET is not set in the server process\n' +
        `hint: set SCHED_WEBHOOK_SECRET_NOT_SET in the "env" of the server's configuration, then restart it`,
    );
    expect(posts()).toHaveLength(0);
    const unsigned = await h.call('create_webhook', {
      url: 'https://hooks.example.com/x',
      unsigned: true,
    });
    expect(unsigned.isError, unsigned.text).toBe(false);
    expect(unsigned.structured!.signed).toBe(false);
    const body = posts()[0]!.body as { events: string[] };
    expect(body).not.toHaveProperty('secret');
    expect(body.events).toEqual([...EVENT_NAMES]);
    expect(unsigned.text).toMatch(
      new RegExp(
        `^Created webhook [0-9a-f-]{36} for https://hooks\\.example\\.com/x \\(${body.events.join(', ')}\\), ` +
          'unsigned: a receiver cannot tell its deliveries from forged ones\\.$',
      ),
    );
  });

  it('delete: deletes it (the UUID trimmed); a second time names the missing webhook', async () => {
    const h = await connect({ allowWrite: true });
    const made = await h.call('create_webhook', {
      url: 'https://hooks.example.com/d',
      unsigned: true,
    });
    const uuid = (made.structured!.webhook as { uuid: string }).uuid;
    const r = await h.call('delete_webhook', { uuid: ` ${uuid}\n` });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toEqual({ uuid, deleted: true, already_gone: false });
    expect(r.text).toBe(`Deleted webhook ${uuid}.`);
    expect(sb.state.webhooks.size).toBe(0);
    const again = await h.call('delete_webhook', { uuid });
    expect(again.isError).toBe(true);
    expect(again.text).toBe(
      `error: no webhook ${uuid}\nhint: list_webhooks shows the webhooks there are`,
    );
  });

  it('delete: any other failure is the API error as the CLI words it', async () => {
    api.on('DELETE', '/api/webhooks/*', f.json(409, { code: 409, message: 'Still in use.' }));
    const h = await connect({ allowWrite: true }, scripted());
    const r = await h.call('delete_webhook', { uuid: INTRO });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^error: the API answered 409 Conflict .*Still in use/);
    expect(r.text).not.toContain('no webhook');
  });
});

describe('access levels, against a live server', () => {
  it('refuses a tool not allowed, naming the flag, before any request', async () => {
    const def = await connect();
    const w = await def.call('create_webhook', {
      url: 'https://hooks.example.com/x',
      secret_env: 'SCHED_WEBHOOK_SECRET_HOOK',
    });
    expect(w.isError).toBe(true);
    expect(w.text).toBe(
      'error: create_webhook is not enabled: creating and deleting webhooks needs the server started with --allow-write\n' +
        'hint: restart it as `sched mcp --allow-write`',
    );
    const d = await def.call('delete_webhook', { uuid: INTRO });
    expect(d.text.split('\n')[0]).toContain('needs the server started with --allow-write');
    const ro = await connect({ readOnly: true });
    const l = await ro.call('create_single_use_link', { meeting_type: INTRO });
    expect(l.isError).toBe(true);
    expect(l.text).toBe(
      'error: create_single_use_link is not enabled: the server was started with --read-only, which allows only tools that change nothing\n' +
        'hint: restart it without --read-only (`sched mcp`) to mint links',
    );
    const rw = await ro.call('create_webhook', { url: 'https://hooks.example.com/x' });
    expect(rw.text).toContain('`sched mcp --allow-write` (without --read-only)');
    // The read tools still work read-only.
    expect((await ro.call('list_webhooks')).isError).toBe(false);
    expect(sb.requests.map((q) => q.method)).toEqual(['GET']);
    expect(sb.state.links.size + sb.state.webhooks.size).toBe(0);
  });
});

describe('bounds: time', () => {
  it('a server that never answers: the call ends at the timeout with the CLI words', async () => {
    api.on('GET', MT_PATH, f.hang());
    const h = await connect({}, scripted(), { timeoutMs: 200 });
    const r = await h.call('list_meeting_types');
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      `error: no answer from 127.0.0.1:${api.port} within 0.2 s (--timeout) (after 2 attempts)\n` +
        'hint: raise --timeout, or check that the service is reachable',
    );
    expect(api.count('GET', MT_PATH)).toBe(2);
  });

  it('a cancelled call aborts its HTTP request', async () => {
    // Every request hangs, but the list of meeting types a link's type is resolved from.
    const hung: IncomingMessage[] = [];
    let closed = 0;
    let resolving = false;
    const types = JSON.stringify(envelope([meetingType(7)], { path: MT_PATH }));
    const srv = createServer((req, res) => {
      if (resolving && req.method === 'GET' && req.url?.startsWith(MT_PATH)) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(types);
        return;
      }
      hung.push(req);
      req.socket.once('close', () => closed++);
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const port = (srv.address() as AddressInfo).port;
      const h = await connect(
        { allowWrite: true },
        {
          SCHED_BASE_URL: `http://127.0.0.1:${port}/api`,
          SCHED_API_KEY: SCRIPTED_KEY,
        },
      );
      for (const [name, args, path] of [
        ['list_meeting_types', {}, `GET ${MT_PATH}?limit=20`],
        ['list_meeting_types', { all: true }, `GET ${MT_PATH}?page=1&limit=50`],
        ['list_webhooks', {}, 'GET /api/webhooks?limit=20'],
        ['create_single_use_link', { meeting_type: 'type-007' }, 'POST /api/single-use-link'],
        [
          'create_webhook',
          { url: 'https://hooks.example.com/c', unsigned: true },
          'POST /api/webhooks',
        ],
        ['delete_webhook', { uuid: INTRO }, `DELETE /api/webhooks/${INTRO}`],
      ] as const) {
        const stop = new AbortController();
        const before = hung.length;
        resolving = name === 'create_single_use_link';
        const pending = h.call(name, args, stop.signal);
        await expect.poll(() => hung.length, { timeout: 5000 }).toBe(before + 1);
        expect(`${hung.at(-1)!.method} ${hung.at(-1)!.url}`).toBe(path);
        stop.abort();
        await expect(pending).rejects.toThrow();
        await expect.poll(() => closed, { message: name, timeout: 5000 }).toBe(before + 1);
      }
    } finally {
      srv.closeAllConnections();
      await new Promise((r) => srv.close(r));
    }
  });
});

/** Every string in a JSON value, keys included. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      strings(x, out);
    }
  }
  return out;
}

describe('a hostile server', () => {
  it('its escape sequences, controls and invisibles reach no result; its echo of the key is masked', async () => {
    const hostile = await startHostileApi();
    try {
      const h = await connect({ allowWrite: true }, hostile.env);
      const calls = [
        await h.call('list_meeting_types'),
        await h.call('list_meeting_types', { query: 'intro' }),
        await h.call('list_webhooks'),
        await h.call('list_webhooks', { all: true }),
        await h.call('create_single_use_link', { meeting_type: INTRO, count: 2 }),
        await h.call('create_webhook', { url: 'https://hooks.example.com/h', unsigned: true }),
        await h.call('delete_webhook', { uuid: INTRO }),
      ];
      expect(calls.map((c) => c.isError)).toEqual(Array(7).fill(false));
      // The data is there, cleaned: the name's words are kept.
      expect(calls[0]!.text).toContain('Intro h0');
      hostile.on('DELETE', '/api/webhooks/*', f.json(422, hostileValidationBody()));
      const failed = await h.call('delete_webhook', { uuid: INTRO });
      expect(failed.isError).toBe(true);
      expect(failed.text).toMatch(/^error: /);
      hostile.on(
        'GET',
        '/api/webhooks',
        f.text(500, `upstream said: key ${HOSTILE_KEY} ${HOSTILE}`),
      );
      const echoed = await h.call('list_webhooks');
      expect(echoed.isError).toBe(true);
      expect(echoed.text).not.toContain(HOSTILE_KEY);
      const replies = h.frames
        .map((t) => JSON.parse(t) as { result?: unknown })
        .map((m) => m.result);
      const texts = strings(replies);
      for (const t of texts) expect(terminalProblems(t), JSON.stringify(t)).toEqual([]);
      // What was removed was there to remove.
      expect(terminalProblems(HOSTILE).length).toBeGreaterThan(5);
      hostileRoutes(hostile);
    } finally {
      await hostile.close();
    }
  });
});
