// Typed results (issue 41): every tool declares an outputSchema, and every result — against the
// sandbox, and against a server sending odd but valid answers (fields left out, nulls, extra
// fields, values cut at 64 KiB or past 64 levels deep) — validates against it with a standard
// JSON Schema validator (ajv), as the SDK's own client validates it. The text content is the
// prose, then the structured content serialised. And what `initialize` tells the assistant.
import { Ajv, type ValidateFunction } from 'ajv';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestSandbox } from '../helpers/sandbox.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { connectMcp, useMcpServers, type McpHarness, type ToolCall } from '../helpers/mcp.js';
import { envelope, f, type FaultServer } from '../helpers/fault-server.js';
import { signPayload } from '../../src/domain/webhooks/signature.js';
import { TOOL_NAMES, TOOLS } from '../../src/mcp/tools.js';

const HOOK_SECRET = 'schema-hook-secret-0123456789';
const KEY = 'schema-test-key-4f0a9b77';
const MT_PATH = '/api/users/me/meeting-types';
const UUID = '00000000-0000-4000-8000-000000000001';
const HOOK_UUID = '0b9e2f7c-1111-4c4c-9d9d-000000000001';

const servers = useMcpServers();
let sb: TestSandbox;
let api: FaultServer;
beforeAll(() => ({ sb, api } = servers));
const config = useConfigDir('sched-mcp-schemas-');
const open: McpHarness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

async function connect(
  target: { SCHED_BASE_URL: string; SCHED_API_KEY: string },
  flags: { allowWrite?: true; sandbox?: true } = { allowWrite: true },
): Promise<McpHarness> {
  const h = await connectMcp(
    { readOnly: undefined, allowWrite: undefined, sandbox: undefined, ...flags },
    { SCHED_CONFIG_DIR: config.path, SCHED_WEBHOOK_SECRET_HOOK: HOOK_SECRET, ...target },
  );
  open.push(h);
  return h;
}

/** The validators of the tools as the client lists them (the schemas a client sees). */
async function validators(h: McpHarness): Promise<Map<string, ValidateFunction>> {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const out = new Map<string, ValidateFunction>();
  for (const t of (await h.client.listTools()).tools) {
    expect(t.outputSchema, t.name).toBeDefined();
    out.set(t.name, ajv.compile(t.outputSchema!));
  }
  return out;
}

/** A result that carries structured content validates, and its last text block is that content. */
function expectTyped(v: Map<string, ValidateFunction>, tool: string, r: ToolCall) {
  expect(r.structured, `${tool}: ${r.text}`).toBeDefined();
  const validate = v.get(tool)!;
  expect(validate(r.structured), `${tool}: ${JSON.stringify(validate.errors)}`).toBe(true);
  expect(r.more).toHaveLength(1);
  expect(JSON.parse(r.more[0]!)).toEqual(r.structured);
}

/** One call of every tool (the webhook deleted is the one created). */
async function everyTool(h: McpHarness, linkType: string) {
  const v = await validators(h);
  const calls: Array<[string, ToolCall]> = [];
  const call = async (tool: string, args: Record<string, unknown>) => {
    const r = await h.call(tool, args);
    expect(r.isError, `${tool}: ${r.text}`).toBe(false);
    expectTyped(v, tool, r);
    calls.push([tool, r]);
    return r;
  };
  await call('list_meeting_types', { limit: 5 });
  await call('list_meeting_types', { all: true });
  await call('create_single_use_link', { meeting_type: linkType, count: 2 });
  const created = await call('create_webhook', {
    url: 'https://hooks.example.com/schema',
    secret_env: 'SCHED_WEBHOOK_SECRET_HOOK',
  });
  await call('list_webhooks', {});
  await call('list_webhooks', { all: true });
  const uuid = (created.structured!.webhook as { uuid: string }).uuid;
  await call('delete_webhook', { uuid });
  await call('verify_webhook_signature', {
    payload: 'body',
    signature: signPayload(HOOK_SECRET, 'body'),
    secret_env: 'SCHED_WEBHOOK_SECRET_HOOK',
  });
  await call('verify_webhook_signature', {
    payload: 'body',
    signature: 'wrong',
    secret_env: 'SCHED_WEBHOOK_SECRET_HOOK',
  });
  for (const event of ['meetingScheduled', 'meetingCancelled', 'meetingRescheduled']) {
    await call('sample_event', { event });
  }
  expect(new Set(calls.map(([t]) => t))).toEqual(new Set(TOOL_NAMES));
  return calls;
}

describe('every tool declares an outputSchema', () => {
  it('an object schema for each, listed to the client', () => {
    for (const t of TOOLS) {
      expect(t.outputSchema.type, t.name).toBe('object');
      expect(t.outputSchema.additionalProperties, t.name).toBeUndefined();
    }
  });
});

describe('every result validates against its schema (ajv)', () => {
  it('against the sandbox', async () => {
    const h = await connect(sb.env);
    const calls = await everyTool(h, 'intro-call');
    const verdicts = calls
      .filter(([t]) => t === 'verify_webhook_signature')
      .map(([, r]) => r.structured);
    expect(verdicts).toEqual([
      { valid: true, reason: null },
      { valid: false, reason: expect.any(String) },
    ]);
  });

  it('against a server sending odd but valid answers', async () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 80; i++) deep = [deep];
    const types: Array<Record<string, unknown>> = [
      // Only a UUID; nulls where a server may have none; extra fields; a huge and a deep value.
      { uuid: UUID },
      {
        uuid: '00000000-0000-4000-8000-000000000002',
        name: 'x'.repeat(100_000),
        slug: null,
        description: null,
        duration: 45.5,
        position: 3,
        extra: { nested: deep },
      },
      {
        uuid: '00000000-0000-4000-8000-000000000003',
        name: 'Ünïcode 面談 😀',
        slug: 'u',
        duration: 0,
      },
    ];
    const more = [{ uuid: '00000000-0000-4000-8000-000000000004', name: 'Last' }];
    api.on('GET', MT_PATH, (req) => {
      const page = Number(req.query.get('page') ?? 1);
      const items = page === 1 ? types : more;
      return f.json(200, envelope(items, { path: MT_PATH, page, limit: 3, total: 4, pages: 2 }));
    });
    const hook = {
      uuid: HOOK_UUID,
      url: 'https://hooks.example.com/schema',
      events: ['meetingScheduled', 'aFutureEvent'],
      secret: 'the-server-echoes-a-secret',
      created_at: '2026-01-01T00:00:00+00:00',
      team: { id: 7 },
    };
    api.on(
      'GET',
      '/api/webhooks',
      f.json(200, envelope([hook, { uuid: 'w2', url: 'https://h.example/2', events: [] }])),
    );
    api.on('POST', '/api/webhooks', f.json(201, { ...hook, secret: HOOK_SECRET }));
    api.on('DELETE', `/api/webhooks/${HOOK_UUID}`, f.status(204));
    api.on(
      'POST',
      '/api/single-use-link',
      f.json(201, { url: 'https://book.example/s/a', code: 'a', expires_at: null, meta: { deep } }),
      f.json(201, { url: 'https://book.example/s/b' }),
    );
    const h = await connect({ SCHED_BASE_URL: api.baseUrl, SCHED_API_KEY: KEY });
    const calls = await everyTool(h, UUID);
    const list = calls.find(([t]) => t === 'list_meeting_types')![1].structured!;
    expect(list).toMatchObject({ count: 3, has_more: true, truncated: false, page: 1, pages: 2 });
    const [, big] = list.meeting_types as Array<{ name: string; extra: unknown }>;
    expect(big!.name).toMatch(/\[cut: 100000 characters\]$/);
    expect(JSON.stringify(big!.extra)).toContain('[cut: nested over 64 levels deep]');
    const hooks = calls.find(([t]) => t === 'list_webhooks')![1].structured!.webhooks;
    expect((hooks as Array<{ secret?: string }>)[0]!.secret).toBe('****');
  });

  it('a partial failure carries what was done, and still validates; an error has no structured content', async () => {
    api.on(
      'POST',
      '/api/single-use-link',
      f.json(201, { url: 'https://book.example/s/1', code: '1' }),
      f.json(422, { message: 'Paused' }),
    );
    const h = await connect({ SCHED_BASE_URL: api.baseUrl, SCHED_API_KEY: KEY });
    const v = await validators(h);
    const r = await h.call('create_single_use_link', { meeting_type: UUID, count: 2 });
    expect(r.isError).toBe(true);
    expectTyped(v, 'create_single_use_link', r);
    const e = await h.call('delete_webhook', { uuid: 'not-a-uuid' });
    expect(e.isError).toBe(true);
    expect(e.structured).toBeUndefined();
    expect(e.more).toEqual([]);
  });
});

describe('what the assistant is told', () => {
  it('the level, that a minted link cannot be taken back, and that sandbox links vanish', async () => {
    const real = await connect(sb.env, {});
    expect(real.client.getInstructions()).toContain(
      'A single-use link, once minted, cannot be taken back',
    );
    expect(real.client.getInstructions()).not.toContain('vanish');
    const sandbox = await connect(sb.env, { sandbox: true });
    expect(sandbox.client.getInstructions()).toContain(
      "The sandbox's links, webhooks and bookings vanish when this server stops",
    );
    const ro = await connectMcp(
      { readOnly: true, allowWrite: undefined, sandbox: undefined },
      { SCHED_CONFIG_DIR: config.path, ...sb.env },
    );
    open.push(ro);
    expect(ro.client.getInstructions()).toMatch(/^Meeting types, .*Read-only: /);
    expect(ro.client.getInstructions()).not.toContain('minted');
  });

  it('declares only the capability it serves: tools (no logging)', async () => {
    const h = await connect(sb.env);
    expect(h.client.getServerCapabilities()).toEqual({ tools: {} });
  });
});
