// `sched mcp` in-process, with the SDK's own Client over its in-memory transport: every tool
// against the sandbox (what reached it, what came back), the access levels (what is listed,
// what is refused and how), failures as error results in the CLI's words, and every frame of
// every session scanned for the API key and the webhook secrets.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { useConfigDir } from '../../helpers/config-dir.js';
import { connectMcp, type McpHarness } from '../../helpers/mcp.js';
import { signPayload } from '../../../src/domain/webhooks/signature.js';
import { sampleDelivery } from '../../../src/domain/webhooks/sample.js';
import { f } from '../../helpers/fault-server.js';
import {
  HOSTILE,
  HOSTILE_KEY,
  hostileValidationBody,
  startHostileApi,
  terminalProblems,
} from '../../helpers/hostile.js';
import { runSched } from '../../helpers/run.js';

const INTRO = '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c'; // seeded "intro-call", "Intro call"
const HOOK_SECRET = 'mcp-hook-secret-5d1f0c9a7b';
const VERIFY_SECRET = 'mcp-verify-secret-93ab17';
const STORED_SECRET = 'stored-secret-on-the-server-77c1';

let sb: TestSandbox;
const config = useConfigDir('sched-mcp-');
/** Every frame of every session of this file, scanned at the end. */
const allFrames: string[] = [];
const open: McpHarness[] = [];

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});
beforeEach(() => {
  sb.requests.length = 0;
  sb.state.webhooks.clear();
  sb.state.links.clear();
});
afterEach(async () => {
  for (const h of open.splice(0)) {
    allFrames.push(...h.frames);
    await h.close();
  }
});

const env = (extra: Record<string, string | undefined> = {}) => ({
  SCHED_CONFIG_DIR: config.path,
  SCHED_BASE_URL: sb.baseUrl,
  SCHED_API_KEY: sb.apiKey,
  MCP_HOOK_SECRET: HOOK_SECRET,
  SCHED_WEBHOOK_SECRET: VERIFY_SECRET,
  ...extra,
});

async function connect(
  flags: { readOnly?: true; allowWrite?: true; sandbox?: true } = {},
  extra: Record<string, string | undefined> = {},
): Promise<McpHarness> {
  const h = await connectMcp(
    { readOnly: undefined, allowWrite: undefined, sandbox: undefined, ...flags },
    env(extra),
  );
  open.push(h);
  return h;
}

const names = async (h: McpHarness) => (await h.client.listTools()).tools.map((t) => t.name);
const posts = () => sb.requests.filter((r) => r.method === 'POST');

describe('sched mcp: the tools against the sandbox', () => {
  it('list_meeting_types: one page, the API objects whole (unknown fields kept), a short text', async () => {
    const h = await connect();
    const r = await h.call('list_meeting_types', { limit: 3 });
    expect(r.isError, r.text).toBe(false);
    const items = r.structured!.meeting_types as Array<Record<string, unknown>>;
    expect(items).toHaveLength(3);
    // Fields the CLI has no use for are kept as the API sent them.
    expect(Object.keys(items[0]!)).toEqual(expect.arrayContaining(['description', 'position']));
    expect(r.structured).toMatchObject({ count: 3, page: 1, pages: 3, truncated: true });
    expect(r.text.split('\n')[0]).toBe('3 meeting types (page 1 of 3; more on page 2):');
    expect(sb.requests.map((q) => q.url)).toEqual(['/api/users/me/meeting-types?limit=3']);
  });

  it('list_meeting_types: query filters names and slugs over every page', async () => {
    const h = await connect();
    const r = await h.call('list_meeting_types', { query: 'INTRO' });
    const items = r.structured!.meeting_types as Array<{ slug: string }>;
    expect(items.map((t) => t.slug)).toEqual(['intro-call']);
    expect(r.structured).toMatchObject({ count: 1, total: 1, truncated: false, page: null });
    const all = await h.call('list_meeting_types', { all: true });
    expect(all.structured).toMatchObject({ count: 8, total: 8, truncated: false });
  });

  it('create_single_use_link: by name, as `link create` resolves it; count links minted', async () => {
    const h = await connect();
    const r = await h.call('create_single_use_link', { meeting_type: 'intro CALL', count: 3 });
    expect(r.isError, r.text).toBe(false);
    const links = r.structured!.links as Array<{ url: string; code: string }>;
    expect(links).toHaveLength(3);
    expect(r.structured).toMatchObject({ meeting_type: 'intro CALL', meeting_type_uuid: INTRO });
    expect(posts().map((p) => p.body)).toEqual(Array(3).fill({ meeting_type_uuid: INTRO }));
    expect(sb.state.links.size).toBe(3);
    for (const l of links) expect(r.text).toContain(l.url);
  });

  it('create_single_use_link: an unknown slug, and too many links, are errors in the CLI words', async () => {
    const h = await connect();
    const unknown = await h.call('create_single_use_link', { meeting_type: 'intro-cal' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/^error: no meeting type with slug or name "intro-cal"/);
    expect(unknown.text).toContain('did you mean "intro-call"?');
    expect(unknown.text).toMatch(/\nhint: run `sched types list --all`/);
    const many = await h.call('create_single_use_link', { meeting_type: INTRO, count: 26 });
    expect(many.isError).toBe(true);
    expect(many.text).toMatch(/^error: count must be from 1 to 25; got 26/);
    expect(posts()).toHaveLength(0);
  });

  it('list_webhooks: the webhooks, a secret the server sends never shown', async () => {
    sb.state.webhooks.set('0b9e2f7c-1111-4c4c-9d9d-2a2a2a2a2a2a', {
      uuid: '0b9e2f7c-1111-4c4c-9d9d-2a2a2a2a2a2a',
      url: 'https://hooks.example.com/a',
      secret: STORED_SECRET,
      events: ['meetingScheduled'],
      created_at: '2026-01-01T00:00:00+00:00',
    });
    const h = await connect();
    const r = await h.call('list_webhooks');
    expect(r.isError, r.text).toBe(false);
    const hooks = r.structured!.webhooks as Array<Record<string, unknown>>;
    expect(hooks.map((w) => w.url)).toEqual(['https://hooks.example.com/a']);
    expect(r.text).toContain('https://hooks.example.com/a [meetingScheduled]');
    expect(h.frames.join('\n')).not.toContain(STORED_SECRET);
  });

  it('create_webhook: signed with the secret secret_env names, which no frame carries', async () => {
    const h = await connect({ allowWrite: true });
    const r = await h.call('create_webhook', {
      url: 'https://hooks.example.com/new',
      events: ['meetingScheduled', 'meetingCancelled'],
      secret_env: 'MCP_HOOK_SECRET',
    });
    expect(r.isError, r.text).toBe(false);
    expect(posts()[0]!.body).toEqual({
      url: 'https://hooks.example.com/new',
      events: ['meetingScheduled', 'meetingCancelled'],
      secret: HOOK_SECRET,
    });
    const created = r.structured!.webhook as Record<string, unknown>;
    expect(created.url).toBe('https://hooks.example.com/new');
    expect(r.text).toContain('signed with the secret in MCP_HOOK_SECRET');
    expect(h.frames.join('\n')).not.toContain(HOOK_SECRET);
  });

  it('create_webhook: no secret_env and no unsigned choice is refused; unsigned sends none; nothing generated', async () => {
    const h = await connect({ allowWrite: true });
    const none = await h.call('create_webhook', { url: 'https://hooks.example.com/x' });
    expect(none.isError).toBe(true);
    expect(none.text).toMatch(/^error: a signing secret is needed: secret_env names/);
    const unset = await h.call('create_webhook', {
      url: 'https://hooks.example.com/x',
      secret_env: 'NOT_SET_ANYWHERE',
    });
    expect(unset.text).toMatch(
      /^error: secret_env: environment variable NOT_SET_ANYWHERE is not set in the server process/,
    );
    expect(posts()).toHaveLength(0);
    const unsigned = await h.call('create_webhook', {
      url: 'https://hooks.example.com/x',
      unsigned: true,
    });
    expect(unsigned.isError, unsigned.text).toBe(false);
    expect(posts()[0]!.body).not.toHaveProperty('secret');
    expect(unsigned.text).toContain('unsigned');
  });

  it('delete_webhook: deletes it; a second time names the missing webhook', async () => {
    const h = await connect({ allowWrite: true });
    const made = await h.call('create_webhook', {
      url: 'https://hooks.example.com/d',
      unsigned: true,
    });
    const uuid = (made.structured!.webhook as { uuid: string }).uuid;
    const r = await h.call('delete_webhook', { uuid });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ uuid, deleted: true });
    expect(sb.state.webhooks.size).toBe(0);
    const again = await h.call('delete_webhook', { uuid });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(new RegExp(`^error: no webhook ${uuid}\\nhint: list_webhooks`));
  });

  it('verify_webhook_signature and sample_event: no account needed, the secret never echoed', async () => {
    const h = await connect(
      {},
      { SCHED_API_KEY: undefined, SCHED_BASE_URL: 'http://127.0.0.1:9/api' },
    );
    const sample = await h.call('sample_event', { event: 'meetingscheduled' });
    expect(sample.isError, sample.text).toBe(false);
    const { uuid: _, ...expected } = sampleDelivery('meetingScheduled').payload;
    expect(sample.structured).toMatchObject(expected);
    const payload = JSON.stringify(sample.structured);
    const good = await h.call('verify_webhook_signature', {
      payload,
      signature: signPayload(VERIFY_SECRET, payload),
    });
    expect(good.structured).toEqual({ valid: true, reason: null });
    const hex = await h.call('verify_webhook_signature', {
      payload,
      signature: signPayload(VERIFY_SECRET, payload + '\n'),
    });
    expect(hex.isError).toBe(false);
    expect(hex.structured).toMatchObject({ valid: false });
    expect(hex.text).toMatch(/^invalid: /);
    const byName = await h.call('verify_webhook_signature', {
      payload,
      signature: signPayload(HOOK_SECRET, payload),
      secret_env: 'MCP_HOOK_SECRET',
    });
    expect(byName.structured).toEqual({ valid: true, reason: null });
    // The account tools say what is missing, as the CLI would.
    const list = await h.call('list_meeting_types');
    expect(list.isError).toBe(true);
    expect(list.text).toBe(
      'error: no API key for profile "default"\nhint: run `sched auth login` or set SCHED_API_KEY',
    );
    expect(h.io.stderrText()).toContain('no API key for profile "default"');
    expect(h.frames.join('\n')).not.toContain(VERIFY_SECRET);
  });
});

describe('sched mcp: access levels', () => {
  it('lists what each level allows, with truthful annotations', async () => {
    const def = await connect();
    expect(await names(def)).toEqual([
      'list_meeting_types',
      'create_single_use_link',
      'list_webhooks',
      'verify_webhook_signature',
      'sample_event',
    ]);
    const ro = await connect({ readOnly: true });
    expect(await names(ro)).toEqual([
      'list_meeting_types',
      'list_webhooks',
      'verify_webhook_signature',
      'sample_event',
    ]);
    const rw = await connect({ allowWrite: true });
    const tools = (await rw.client.listTools()).tools;
    const ann = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(Object.keys(ann)).toHaveLength(7);
    expect(ann.list_meeting_types).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(ann.create_single_use_link).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(ann.create_webhook).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(ann.delete_webhook).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(ann.sample_event).toMatchObject({ readOnlyHint: true, openWorldHint: false });
  });

  it('refuses a tool not allowed, naming the flag, before any request', async () => {
    const def = await connect();
    const w = await def.call('create_webhook', {
      url: 'https://hooks.example.com/x',
      secret_env: 'MCP_HOOK_SECRET',
    });
    expect(w.isError).toBe(true);
    expect(w.text).toBe(
      'error: create_webhook is not enabled: creating and deleting webhooks needs the server started with --allow-write\n' +
        'hint: restart it as `sched mcp --allow-write`',
    );
    const d = await def.call('delete_webhook', { uuid: INTRO });
    expect(d.text).toContain('--allow-write');
    const ro = await connect({ readOnly: true });
    const l = await ro.call('create_single_use_link', { meeting_type: INTRO });
    expect(l.isError).toBe(true);
    expect(l.text).toMatch(/^error: create_single_use_link is not enabled: .*--read-only/);
    const rw = await ro.call('create_webhook', { url: 'https://hooks.example.com/x' });
    expect(rw.text).toContain('`sched mcp --allow-write` (without --read-only)');
    expect(sb.requests).toHaveLength(0);
  });

  it('an unknown tool or argument is an error naming it', async () => {
    const h = await connect();
    const t = await h.call('list_meetingtypes');
    expect(t.text).toMatch(
      /^error: unknown tool "list_meetingtypes" \(did you mean "list_meeting_types"\?\)/,
    );
    const a = await h.call('list_meeting_types', { qeury: 'x' });
    expect(a.text).toMatch(
      /^error: list_meeting_types: unknown argument "qeury" \(did you mean "query"\?\)/,
    );
  });
});

describe('sched mcp: the profile, as every command reads it', () => {
  it('--profile gives the key and base URL; the environment override is said on stderr before a write only', async () => {
    const { openConfig } = await import('../../../src/config/profiles.js');
    const store = await openConfig({ SCHED_CONFIG_DIR: config.path });
    await store.setProfile('work', { baseUrl: 'http://127.0.0.1:9/api', apiKey: sb.apiKey });
    const h = await connectMcp(
      { readOnly: undefined, allowWrite: undefined, sandbox: undefined },
      { SCHED_CONFIG_DIR: config.path, SCHED_BASE_URL: sb.baseUrl },
      { profile: 'work', profileSource: 'flag' },
    );
    open.push(h);
    const list = await h.call('list_meeting_types', { limit: 1 });
    expect(list.isError, list.text).toBe(false);
    expect(h.io.stderrText()).not.toContain('note:');
    const link = await h.call('create_single_use_link', { meeting_type: INTRO });
    expect(link.isError, link.text).toBe(false);
    expect(h.io.stderrText()).toContain(
      'note: SCHED_BASE_URL is set in the environment and overrides profile "work" (http://127.0.0.1:9/api): requests go to',
    );
    // The key came from the profile and reached the sandbox, never a frame.
    expect(sb.requests.every((r) => r.headers['x-api-key'] === sb.apiKey)).toBe(true);
  });
});

describe('sched mcp --sandbox', () => {
  it('serves every tool against an embedded sandbox, no account, nothing open-world', async () => {
    const h = await connect(
      { sandbox: true, allowWrite: true },
      { SCHED_API_KEY: undefined, SCHED_BASE_URL: undefined },
    );
    const tools = (await h.client.listTools()).tools;
    expect(tools.every((t) => t.annotations?.openWorldHint === false)).toBe(true);
    const link = await h.call('create_single_use_link', { meeting_type: 'intro-call' });
    expect(link.isError, link.text).toBe(false);
    const hook = await h.call('create_webhook', {
      url: 'https://hooks.example.com/s',
      secret_env: 'MCP_HOOK_SECRET',
    });
    expect(hook.isError, hook.text).toBe(false);
    const list = await h.call('list_webhooks');
    expect(list.structured).toMatchObject({ count: 1 });
    expect(h.io.stderrText()).toMatch(
      /serving against an embedded sandbox at http:\/\/127\.0\.0\.1:\d+\/api/,
    );
    // The test's own sandbox saw none of it.
    expect(sb.requests).toHaveLength(0);
  });
});

describe('sched mcp: cancellation', () => {
  it('a cancelled call aborts its HTTP request', async () => {
    const seen: IncomingMessage[] = [];
    let closed = 0;
    const srv = createServer((req) => {
      seen.push(req);
      req.socket.once('close', () => closed++);
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const port = (srv.address() as AddressInfo).port;
      const h = await connect({}, { SCHED_BASE_URL: `http://127.0.0.1:${port}/api` });
      const stop = new AbortController();
      const pending = h.call('list_meeting_types', {}, stop.signal);
      await expect.poll(() => seen.length).toBe(1);
      stop.abort();
      await expect(pending).rejects.toThrow();
      await expect.poll(() => closed).toBe(1);
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

describe('sched mcp: a hostile server', () => {
  it('its escape sequences, controls and invisibles reach no result; its echo of the key is masked', async () => {
    const api = await startHostileApi();
    try {
      const h = await connect({ allowWrite: true }, api.env);
      const calls = [
        await h.call('list_meeting_types'),
        await h.call('list_meeting_types', { query: 'intro' }),
        await h.call('list_webhooks'),
        await h.call('create_single_use_link', { meeting_type: INTRO, count: 2 }),
        await h.call('create_webhook', { url: 'https://hooks.example.com/h', unsigned: true }),
      ];
      expect(calls.map((c) => c.isError)).toEqual([false, false, false, false, false]);
      // The data is there, cleaned: the name's words are kept.
      expect(calls[0]!.text).toContain('Intro h0');
      api.on('DELETE', '/api/webhooks/*', f.json(422, hostileValidationBody()));
      const failed = await h.call('delete_webhook', { uuid: INTRO });
      expect(failed.isError).toBe(true);
      expect(failed.text).toMatch(/^error: /);
      api.on('GET', '/api/webhooks', f.text(500, `upstream said: key ${HOSTILE_KEY} ${HOSTILE}`));
      const echoed = await h.call('list_webhooks');
      expect(echoed.isError).toBe(true);
      expect(echoed.text).not.toContain(HOSTILE_KEY);
      const replies = h.frames
        .map((t) => JSON.parse(t) as { result?: unknown })
        .map((m) => m.result);
      const texts = strings(replies);
      expect(texts.join('\n')).not.toContain(HOSTILE_KEY);
      for (const t of texts) expect(terminalProblems(t), JSON.stringify(t)).toEqual([]);
      // What was removed was there to remove.
      expect(terminalProblems(HOSTILE).length).toBeGreaterThan(5);
    } finally {
      await api.close();
    }
  });
});

describe('sched mcp on stdio (the run)', () => {
  it('stdout is the protocol only; a client closing stdin still gets every answer; exit 0', async () => {
    const frame = (id: number, method: string, params: object = {}) =>
      JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const stdin =
      [
        frame(1, 'initialize', {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 't', version: '1' },
        }),
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        frame(2, 'tools/list'),
        frame(3, 'tools/call', { name: 'list_meeting_types', arguments: { limit: 2 } }),
        frame(4, 'tools/call', {
          name: 'create_single_use_link',
          arguments: { meeting_type: 'intro-call' },
        }),
      ].join('\n') + '\n';
    const r = await runSched(['mcp'], { env: env(), stdin });
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout
      .trimEnd()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            id: number;
            jsonrpc: string;
            result: { structuredContent: Record<string, unknown[]> };
          },
      );
    expect(out.map((m) => m.id)).toEqual([1, 2, 3, 4]);
    expect(out.every((m) => m.jsonrpc === '2.0' && m.result)).toBe(true);
    expect(out[2]!.result.structuredContent.meeting_types).toHaveLength(2);
    expect(out[3]!.result.structuredContent.links).toHaveLength(1);
    expect(r.stdout).not.toContain(sb.apiKey);
    expect(r.stderr).toContain('sched mcp: 5 tools on stdio');
    allFrames.push(...r.stdout.trimEnd().split('\n'));
  });

  it('an unknown profile stops it before serving: exit 2, one line', async () => {
    const r = await runSched(['mcp', '--profile', 'nope'], { env: env(), stdin: '' });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*profile "nope"/);
  });

  it('--read-only and --allow-write together are a usage error', async () => {
    const r = await runSched(['mcp', '--read-only', '--allow-write'], { env: env(), stdin: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--read-only and --allow-write contradict each other');
  });
});

describe('sched mcp: secrets', () => {
  it('no frame of any session carried the API key or a webhook secret', () => {
    expect(allFrames.length).toBeGreaterThan(50);
    const text = allFrames.join('\n');
    for (const secret of [sb.apiKey, HOOK_SECRET, VERIFY_SECRET, STORED_SECRET]) {
      expect(text).not.toContain(secret);
    }
  });
});
