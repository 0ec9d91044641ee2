// `sched mcp` as a client's config starts it, over real stdio (the built CLI): `--tools` serves
// only the tools named, always within the level, and SCHED_MCP_LEVEL sets the level when no
// flag does (flags win). A bad name or level stops it before it serves: exit 2, one line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSched } from '../helpers/run.js';

const home = mkdtempSync(path.join(tmpdir(), 'sched-mcp-tools-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const frame = (id: number, method: string, params: object = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

interface Answer {
  id: number;
  result?: {
    tools?: { name: string }[];
    isError?: boolean;
    content?: { text: string }[];
    structuredContent?: Record<string, unknown>;
  };
}

/** Starts `sched mcp --sandbox <flags>`, sends initialize, tools/list and the calls, closes stdin. */
async function serve(
  flags: string[],
  calls: [string, Record<string, unknown>][] = [],
  env: Record<string, string | undefined> = {},
) {
  const input =
    [
      frame(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      }),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      frame(2, 'tools/list'),
      ...calls.map(([name, args], i) => frame(3 + i, 'tools/call', { name, arguments: args })),
    ].join('\n') + '\n';
  const r = await spawnSched(['mcp', '--sandbox', ...flags], {
    input,
    env: {
      SCHED_CONFIG_DIR: path.join(home, 'config'),
      SCHED_API_KEY: undefined,
      SCHED_BASE_URL: undefined,
      SCHED_MCP_LEVEL: undefined,
      NO_COLOR: '1',
      ...env,
    },
    timeout: 30_000,
  });
  const answers =
    r.code === 0
      ? r.stdout
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as Answer)
      : [];
  const listed = answers.find((a) => a.id === 2)?.result?.tools?.map((t) => t.name);
  return { ...r, answers, listed };
}

const DEFAULT = [
  'list_meeting_types',
  'create_single_use_link',
  'list_webhooks',
  'verify_webhook_signature',
  'sample_event',
];

describe('sched mcp --tools', () => {
  it('lists and serves only the tools named; a call to another is refused naming --tools', async () => {
    const r = await serve(
      ['--tools', 'list_meeting_types, create_single_use_link'],
      [
        ['create_single_use_link', { meeting_type: 'intro-call' }],
        ['list_webhooks', {}],
      ],
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.listed).toEqual(['list_meeting_types', 'create_single_use_link']);
    expect(r.stderr).toContain(
      'sched mcp: 2 tools on stdio (default: no webhook changes, --tools)',
    );
    const minted = r.answers.find((a) => a.id === 3)!.result!;
    expect(minted.isError).toBeFalsy();
    expect(minted.structuredContent?.links).toHaveLength(1);
    const refused = r.answers.find((a) => a.id === 4)!.result!;
    expect(refused.isError).toBe(true);
    expect(refused.content![0]!.text).toBe(
      'error: list_webhooks is not served: the server was started with --tools list_meeting_types,create_single_use_link\n' +
        'hint: restart it with list_webhooks added to --tools',
    );
  }, 60_000);

  it('a write tool needs --allow-write: exit 2 naming the flag, nothing served', async () => {
    const r = await serve(['--tools', 'list_webhooks,create_webhook']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: --tools create_webhook: creating and deleting webhooks needs --allow-write\n' +
        'hint: add --allow-write, or leave create_webhook out of --tools\n',
    );
    const ok = await serve(['--allow-write', '--tools', 'create_webhook']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.listed).toEqual(['create_webhook']);
    const byEnv = await serve(['--tools', 'delete_webhook'], [], {
      SCHED_MCP_LEVEL: 'allow-write',
    });
    expect(byEnv.code, byEnv.stderr).toBe(0);
    expect(byEnv.listed).toEqual(['delete_webhook']);
    expect(byEnv.stderr).toContain('1 tool on stdio (SCHED_MCP_LEVEL=allow-write, --tools)');
  }, 60_000);

  it('--read-only refuses a link tool in --tools', async () => {
    const r = await serve(['--read-only', '--tools', 'create_single_use_link']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: --tools create_single_use_link: minting links is not allowed with --read-only (this server: --read-only)\n' +
        'hint: drop --read-only, or leave create_single_use_link out of --tools\n',
    );
  }, 30_000);

  it('an unknown name is exit 2 with did-you-mean', async () => {
    const r = await serve(['--tools', 'list_meeting_types,create_singel_use_link']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(
      'error: --tools: unknown tool "create_singel_use_link" (did you mean "create_single_use_link"?)',
    );
    expect(r.stderr).toContain('hint: the tools are list_meeting_types, create_single_use_link,');
  }, 30_000);

  it('an empty list is exit 2', async () => {
    const r = await serve(['--tools', ' , ']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('error: --tools names no tool');
  }, 30_000);
});

describe('SCHED_MCP_LEVEL', () => {
  it.each([
    ['read-only', DEFAULT.filter((t) => t !== 'create_single_use_link')],
    ['default', DEFAULT],
    [
      'allow-write',
      [...DEFAULT.slice(0, 3), 'create_webhook', 'delete_webhook', ...DEFAULT.slice(3)],
    ],
    ['', DEFAULT],
  ])(
    '%j sets the level when no flag is given',
    async (level, tools) => {
      const r = await serve([], [], { SCHED_MCP_LEVEL: level });
      expect(r.code, r.stderr).toBe(0);
      expect(r.listed).toEqual(tools);
    },
    30_000,
  );

  it('the flags win over it', async () => {
    const ro = await serve(['--read-only'], [], { SCHED_MCP_LEVEL: 'allow-write' });
    expect(ro.listed).toEqual(DEFAULT.filter((t) => t !== 'create_single_use_link'));
    expect(ro.stderr).toContain('4 tools on stdio (--read-only)');
    const rw = await serve(['--allow-write'], [], { SCHED_MCP_LEVEL: 'read-only' });
    expect(rw.listed).toHaveLength(7);
  }, 60_000);

  it('a value that is not a level is exit 2 naming the allowed values', async () => {
    const r = await serve([], [], { SCHED_MCP_LEVEL: 'allow_writes' });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: SCHED_MCP_LEVEL="allow_writes" is not a level (did you mean "allow-write"?)\n' +
        'hint: set it to one of read-only, default, allow-write (or unset it: default)\n',
    );
  }, 30_000);
});

describe('sched mcp --sandbox refusals', () => {
  it('name a restart that stays in the sandbox (--sandbox kept), at each level', async () => {
    for (const [flags, tool, hint] of [
      [[], 'create_webhook', 'restart it as `sched mcp --sandbox --allow-write`'],
      [['--read-only'], 'create_single_use_link', '(`sched mcp --sandbox`) to mint links'],
    ] as const) {
      const r = await serve([...flags], [[tool, {}]]);
      expect(r.code).toBe(0);
      const text = r.answers.find((a) => a.id === 3)?.result?.content?.[0]?.text ?? '';
      expect(text).toContain(hint);
    }
  });
});
