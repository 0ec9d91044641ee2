// `sched mcp` the command, in-process, with the SDK's own Client over its in-memory transport:
// the tools that need no account, what each access level lists, the profile, --sandbox, the run
// on stdio, and every frame of every session scanned for the API key and the webhook secrets.
// (The tools that call the API, their bounds and a hostile server: test/mcp/calls.test.ts.)
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { useConfigDir } from '../../helpers/config-dir.js';
import { connectMcp, type McpHarness } from '../../helpers/mcp.js';
import { signPayload } from '../../../src/domain/webhooks/signature.js';
import { sampleDelivery } from '../../../src/domain/webhooks/sample.js';
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
  SCHED_WEBHOOK_SECRET_HOOK: HOOK_SECRET,
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

describe('sched mcp: the tools that need no account', () => {
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
      secret_env: 'SCHED_WEBHOOK_SECRET_HOOK',
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
      secret_env: 'SCHED_WEBHOOK_SECRET_HOOK',
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
