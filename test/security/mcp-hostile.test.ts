// `sched mcp` against a caller a prompt injection steers and a hostile server (issue 38, the
// fifth round): what leaves the process is bounded (64 KiB a string, about 1 MiB a list, 64
// levels deep), the key is masked before any cut, and the stdio transport answers every frame —
// not JSON, not JSON-RPC, a batch, one over the bound, one before initialize — and keeps serving.
// Frames are read as a client reads them: every line of stdout must parse as JSON.
import { PassThrough } from 'node:stream';
import { Chalk } from 'chalk';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useConfigDir } from '../helpers/config-dir.js';
import { connectMcp, type McpHarness } from '../helpers/mcp.js';
import { envelope, f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { ESC_CLIPBOARD, terminalProblems } from '../helpers/hostile.js';
import { runSched } from '../helpers/run.js';
import { signPayload } from '../../src/domain/webhooks/signature.js';
import { createStreamIO } from '../../src/io.js';
import { runCli } from '../../src/cli.js';
import { DEEP_MARKER, MAX_STRING } from '../../src/mcp/clean.js';
import { MAX_FRAME_BYTES } from '../../src/mcp/stdio.js';
import { MAX_PAYLOAD_BYTES } from '../../src/domain/webhooks/input.js';

const KEY = 'sk_live_Q7xP2mZr9Kc4Vb8Nw1Ty6';
const MT_PATH = '/api/users/me/meeting-types';
const config = useConfigDir('sched-mcp-hostile-');
let api: FaultServer;
const open: McpHarness[] = [];

beforeAll(async () => {
  api = await startFaultServer();
});
afterAll(async () => {
  await api.close();
});
beforeEach(() => api.clear());
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

const env = (extra: Record<string, string | undefined> = {}) => ({
  SCHED_CONFIG_DIR: config.path,
  SCHED_BASE_URL: api.baseUrl,
  SCHED_API_KEY: KEY,
  ...extra,
});

async function connect(): Promise<McpHarness> {
  const h = await connectMcp(
    { readOnly: undefined, allowWrite: undefined, sandbox: undefined },
    env(),
  );
  open.push(h);
  return h;
}

function meetingType(i: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  const n = String(i).padStart(3, '0');
  return {
    uuid: `00000000-0000-4000-8000-000000000${n}`,
    name: `Type ${n}`,
    slug: `t-${n}`,
    duration: 30,
    ...over,
  };
}

/** Every piece of `secret` 6 characters long or more that appears in `text`. */
function piecesOf(secret: string, text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 6 <= secret.length; i++) {
    const piece = secret.slice(i, i + 6);
    if (text.includes(piece)) found.push(piece);
  }
  return found;
}

const frame = (id: number | undefined, method: string, params: object = {}) =>
  JSON.stringify({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, params });
const INIT = frame(1, 'initialize', {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 't', version: '1' },
});
const INITIALIZED = frame(undefined, 'notifications/initialized');

interface Frame {
  id: number | string | null;
  result?: Record<string, unknown> & {
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  };
  error?: { code: number; message: string };
}

/** stdout as a client reads it: one JSON value a line (a line that does not parse fails). */
function framesOf(stdout: string): Frame[] {
  return stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Frame);
}

describe('the key is masked before any cut (finding 4, MCP)', () => {
  it('a name echoing the key past the 120-character cut shows no piece of it', async () => {
    // Cut at 120 before masking, the text held "sk_live_Q7xP2m…".
    const items = [108, 112, 115, 119].map((n, i) =>
      meetingType(i, { name: `${'n'.repeat(n)}${KEY}`, slug: `${'s'.repeat(n)}${KEY}` }),
    );
    api.on('GET', MT_PATH, f.json(200, envelope(items, { path: MT_PATH })));
    const h = await connect();
    const r = await h.call('list_meeting_types');
    expect(r.isError, r.text).toBe(false);
    expect(r.text.split('\n')).toHaveLength(5);
    expect(piecesOf(KEY, h.frames.join('\n'))).toEqual([]);
  });

  it('a link URL echoing the key across its 2048-character cut shows no piece of it', async () => {
    // Lines of a link result are cut at 2048: the key straddles the cut.
    const url = (n: number) => `https://book.example/${'a'.repeat(n)}${KEY}`;
    api.on(
      'POST',
      '/api/single-use-link',
      ...[2010, 2015, 2020].map((n) => f.json(201, { url: url(n), code: `c${n}` })),
    );
    const h = await connect();
    const r = await h.call('create_single_use_link', {
      meeting_type: '00000000-0000-4000-8000-000000000001',
      count: 3,
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.text.split('\n')).toHaveLength(4);
    expect(piecesOf(KEY, h.frames.join('\n'))).toEqual([]);
  });
});

describe('results are bounded (finding 2)', () => {
  it('a string over 64 KiB is cut with a marker; a list is cut to about 1 MiB, truncated, with a note', async () => {
    const big = 'x'.repeat(1024 * 1024);
    const items = Array.from({ length: 30 }, (_, i) => meetingType(i, { description: big }));
    api.on('GET', MT_PATH, f.json(200, envelope(items, { path: MT_PATH, limit: 100 })));
    const h = await connect();
    const r = await h.call('list_meeting_types', { limit: 100 });
    expect(r.isError, r.text).toBe(false);
    const got = r.structured!.meeting_types as Array<{ description: string }>;
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(30);
    expect(got[0]!.description.length).toBeLessThanOrEqual(MAX_STRING);
    expect(got[0]!.description).toMatch(/… \[cut: 1048576 characters\]$/);
    expect(r.structured).toMatchObject({ count: got.length, truncated: true });
    expect(r.structured!.note).toBe(
      `only the first ${got.length} fit in one result (about 1 MiB): read by page with a smaller limit`,
    );
    expect(r.text.split('\n')[0]).toContain(String(r.structured!.note));
    const answer = h.frames.find((fr) => fr.includes('"meeting_types"'))!;
    expect(Buffer.byteLength(answer)).toBeLessThan(1.25 * 1024 * 1024);
  });
});

describe('deep values (finding 7)', () => {
  it('a value 20,000 deep is answered; past 64 levels the value is replaced, never passed on', async () => {
    let hostile: unknown = `${ESC_CLIPBOARD}\u202eevil`;
    for (let i = 0; i < 70; i++) hostile = { d: hostile };
    const deep = `${'['.repeat(20_000)}1${']'.repeat(20_000)}`;
    const body = JSON.stringify(
      envelope([meetingType(0, { shallow: hostile }), meetingType(1)], { path: MT_PATH }),
    ).replace('"Type 001"', `"Type 001","deep":${deep}`);
    api.on('GET', MT_PATH, {
      kind: 'respond',
      status: 200,
      headers: { 'content-type': 'application/json' },
      body,
    });
    const h = await connect();
    const r = await h.call('list_meeting_types');
    expect(r.isError, r.text).toBe(false);
    const all = h.frames.join('\n');
    expect(all).not.toContain('\u202e');
    expect(all).not.toContain('\x1b');
    expect(all).not.toContain('\\u001b');
    expect(all).toContain(DEEP_MARKER);
    expect(terminalProblems(r.text)).toEqual([]);
  });
});

describe('the frames on stdout (findings 1 and 8)', () => {
  it('a secret equal to "true" never masks a structural token: every frame stays JSON', async () => {
    // verify accepts any secret the service accepted; the last net masks string values only.
    const stdin =
      [
        INIT,
        INITIALIZED,
        frame(2, 'tools/call', {
          name: 'verify_webhook_signature',
          arguments: {
            payload: 'body',
            signature: signPayload('true', 'body'),
            secret_env: 'SCHED_WEBHOOK_SECRET_TINY',
          },
        }),
        frame(3, 'tools/list'),
      ].join('\n') + '\n';
    const r = await runSched(['mcp'], { env: env({ SCHED_WEBHOOK_SECRET_TINY: 'true' }), stdin });
    expect(r.code, r.stderr).toBe(0);
    const out = framesOf(r.stdout);
    out.sort((a, b) => Number(a.id) - Number(b.id));
    expect(out.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(out[1]!.result!.structuredContent).toEqual({ valid: true, reason: null });
    // The structured content serialised as text stays JSON too.
    const blocks = out[1]!.result!.content as Array<{ text: string }>;
    expect(JSON.parse(blocks[1]!.text)).toEqual({ valid: true, reason: null });
    const tools = out[2]!.result!.tools as Array<{ annotations: { readOnlyHint: boolean } }>;
    expect(tools[0]!.annotations.readOnlyHint).toBe(true);
  });

  it('not JSON: -32700; not JSON-RPC or a batch: -32600; before initialize: refused; each with its id, and serving goes on', async () => {
    const stdin =
      [
        frame(0, 'tools/call', { name: 'sample_event', arguments: { event: 'meetingScheduled' } }),
        'not json at all',
        '{"jsonrpc":"2.0","id":7,"method":"tools/list",',
        '[{"jsonrpc":"2.0","id":8,"method":"ping"}]',
        '{"id":9,"method":"ping"}',
        '{"jsonrpc":"2.0","id":"s-10","method":"ping","extra":1}',
        '',
        INIT,
        INITIALIZED,
        frame(2, 'tools/call', { name: 'sample_event', arguments: { event: 'meetingScheduled' } }),
      ].join('\r\n') + '\n';
    const r = await runSched(['mcp'], { env: env(), stdin });
    expect(r.code, r.stderr).toBe(0);
    const out = framesOf(r.stdout);
    const byId = (id: Frame['id']) => out.filter((m) => m.id === id);
    expect(byId(0)[0]!.error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/before initialize/),
    });
    expect(byId(7)[0]!.error!.code).toBe(-32700);
    expect(byId(9)[0]!.error!.code).toBe(-32600);
    expect(byId('s-10')[0]!.error!.code).toBe(-32600);
    const nulls = byId(null).map((m) => m.error!.code);
    expect(nulls.sort()).toEqual([-32700, -32600].sort());
    expect(byId(2)[0]!.result!.isError).toBeUndefined();
    expect(byId(2)[0]!.result!.structuredContent).toMatchObject({ event: 'meetingScheduled' });
    expect(r.stderr).toContain('sched mcp: a frame was answered -32700');
  });

  it('a frame as large as the tools allow is answered; one over the bound is answered by id; serving goes on', async () => {
    // verify's largest payload, every character escaped as \uXXXX: about 30 MiB on the wire.
    const payload = '\u00e9'.repeat(MAX_PAYLOAD_BYTES);
    const escaped = frame(2, 'tools/call', {
      name: 'verify_webhook_signature',
      arguments: { payload, signature: 'not-it', secret_env: 'SCHED_WEBHOOK_SECRET' },
    }).replace(/\u00e9/g, '\\u00e9');
    expect(escaped.length).toBeGreaterThan(30 * 1024 * 1024);
    const over = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"x":"${'a'.repeat(MAX_FRAME_BYTES)}"}}`;
    const stdin = [INIT, INITIALIZED, escaped, over, frame(4, 'ping')].join('\n') + '\n';
    const r = await runSched(['mcp'], {
      env: env({ SCHED_WEBHOOK_SECRET: 'whsec-large-frame-test-01' }),
      stdin,
    });
    expect(r.code, r.stderr).toBe(0);
    const out = framesOf(r.stdout);
    out.sort((a, b) => Number(a.id) - Number(b.id));
    expect(out.map((m) => m.id)).toEqual([1, 2, 3, 4]);
    expect(out[1]!.result!.structuredContent).toMatchObject({ valid: false });
    expect(out[2]!.error!.code).toBe(-32600);
    expect(out[2]!.error!.message).toContain(`over the ${MAX_FRAME_BYTES}`);
    expect(out[3]!.result).toEqual({});
  }, 60_000);

  it('stdin failing ends the server with exit 1 and a note on stderr', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const errText: Buffer[] = [];
    stderr.on('data', (c: Buffer) => errText.push(c));
    const e = env();
    const io = createStreamIO({
      stdin,
      stdout,
      stderr,
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      columns: 80,
      color: { flag: false, env: e },
      noInput: true,
      Chalk,
    });
    const code = runCli(['mcp'], { io: () => io, env: e });
    stdin.write(`${INIT}\n`);
    await new Promise((resolve) => stdout.once('data', resolve));
    stdin.destroy(Object.assign(new Error('read EIO'), { code: 'EIO' }));
    expect(await code).toBe(1);
    expect(Buffer.concat(errText).toString()).toContain(
      'error: sched mcp: the connection on stdin failed: read EIO',
    );
  });
});
