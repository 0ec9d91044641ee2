// The MCP Bundle (`npm run build:mcpb` → dist/sched.mcpb, scripts/build-mcpb.mjs): it passes
// `mcpb validate` and `mcpb info` (@anthropic-ai/mcpb, the format's own tool), its manifest
// holds no key (the key is a sensitive setting, passed in the server's environment), and the
// server it starts, launched as a host launches it (mcpb's own getMcpConfigForManifest turns the
// manifest and the user's settings into the command, arguments and environment), answers
// tools/list and a call against a sandbox over stdio. The bundle stays out of the npm package.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { getMcpConfigForManifest, type McpbManifestAny } from '@anthropic-ai/mcpb';
import { execa } from 'execa';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BASE_URL } from '../../src/config/profiles.js';
import { DEFAULT_SANDBOX_API_KEY } from '../../src/defaults.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BUNDLE = path.join(root, 'dist', 'sched.mcpb');
const MCPB = path.join(root, 'node_modules/@anthropic-ai/mcpb/dist/cli/cli.js');
/** In the environment of the build: a build that copied it anywhere would show it. */
const CANARY_KEY = 'canary-key-of-the-builder-5e0c1d';

const mcpb = (args: string[]) =>
  execa(process.execPath, [MCPB, ...args], { cwd: root, reject: false, all: true });

let tmp: string;
let unpacked: string;
let manifest: McpbManifestAny & Record<string, unknown>;
let manifestText: string;
let sb: TestSandbox;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'sched-mcpb-'));
  // dist/ is built by the suite's setup; this is the second half of `npm run build:mcpb`.
  const built = await execa(process.execPath, ['scripts/build-mcpb.mjs'], {
    cwd: root,
    env: { SCHED_API_KEY: CANARY_KEY },
    reject: false,
    all: true,
  });
  expect(built.exitCode, built.all).toBe(0);
  unpacked = path.join(tmp, 'unpacked');
  const u = await mcpb(['unpack', BUNDLE, unpacked]);
  expect(u.exitCode, u.all).toBe(0);
  manifestText = readFileSync(path.join(unpacked, 'manifest.json'), 'utf8');
  manifest = JSON.parse(manifestText) as typeof manifest;
  sb = await startTestSandbox();
}, 120_000);
afterAll(async () => {
  await sb?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('dist/sched.mcpb', () => {
  it('passes mcpb validate and mcpb info', async () => {
    const v = await mcpb(['validate', path.join(unpacked, 'manifest.json')]);
    expect(v.exitCode, v.all).toBe(0);
    expect(v.all).toContain('Manifest schema validation passes');
    const i = await mcpb(['info', BUNDLE]);
    expect(i.exitCode, i.all).toBe(0);
    expect(i.all).toContain('File: sched.mcpb');
  });

  it('starts `sched mcp` from the bundle on the host Node; holds the built CLI, no node_modules', () => {
    expect(manifest.server).toEqual({
      type: 'node',
      entry_point: 'server/index.js',
      mcp_config: {
        command: 'node',
        args: ['${__dirname}/server/index.js'],
        env: {
          SCHED_API_KEY: '${user_config.api_key}',
          SCHED_BASE_URL: '${user_config.base_url}',
          SCHED_MCPB_ALLOW_WRITE: '${user_config.allow_webhook_changes}',
        },
      },
    });
    const files = readdirSync(unpacked, { recursive: true }).map(String);
    expect(files).toContain(path.join('dist', 'main.js'));
    expect(files.some((f) => f.startsWith(path.join('dist', 'chunks')))).toBe(true);
    expect(files.filter((f) => /node_modules|\.ts$|^src|^test/.test(f))).toEqual([]);
    expect(JSON.parse(readFileSync(path.join(unpacked, 'package.json'), 'utf8'))).toMatchObject({
      type: 'module',
    });
  });

  it('asks for the key as a sensitive setting and holds no key: not in the manifest, not in any file', () => {
    expect(manifest.user_config).toMatchObject({
      api_key: { type: 'string', sensitive: true, required: true },
      base_url: { type: 'string', default: DEFAULT_BASE_URL },
      allow_webhook_changes: { type: 'boolean', default: false },
    });
    expect(manifest.user_config!.api_key).not.toHaveProperty('default');
    for (const key of [CANARY_KEY, DEFAULT_SANDBOX_API_KEY, sb.apiKey]) {
      expect(manifestText).not.toContain(key);
    }
    for (const f of readdirSync(unpacked, { recursive: true, withFileTypes: true })) {
      if (!f.isFile()) continue;
      const text = readFileSync(path.join(f.parentPath, f.name), 'utf8');
      expect(text, f.name).not.toContain(CANARY_KEY);
    }
  });

  it('stays out of the npm package', async () => {
    const p = await execa('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      reject: false,
    });
    expect(p.exitCode, p.stderr).toBe(0);
    const [packed] = JSON.parse(p.stdout.slice(p.stdout.indexOf('['))) as [
      { files: { path: string }[] },
    ];
    expect(packed.files.map((f) => f.path)).toContain('dist/main.js');
    expect(packed.files.filter((f) => f.path.endsWith('.mcpb'))).toEqual([]);
  });
});

/** Connects the SDK's client to the server the bundle starts with these settings, as a host would. */
async function startFromBundle(allowWebhookChanges: boolean) {
  const config = await getMcpConfigForManifest({
    manifest,
    extensionPath: unpacked,
    systemDirs: { HOME: tmp },
    userConfig: {
      api_key: sb.apiKey,
      base_url: sb.baseUrl,
      allow_webhook_changes: allowWebhookChanges,
    },
    pathSeparator: path.sep,
  });
  expect(config).toBeDefined();
  const transport = new StdioClientTransport({
    command: config!.command === 'node' ? process.execPath : config!.command,
    args: config!.args ?? [],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: tmp,
      SCHED_CONFIG_DIR: path.join(tmp, 'config'),
      ...config!.env,
    },
    cwd: tmp,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'sched-mcpb-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe('the server the bundle starts', () => {
  it('lists the default tools and lists meeting types from the API, with the key of the setting', async () => {
    sb.requests.length = 0;
    const { client, stderr } = await startFromBundle(false);
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual([
        'list_meeting_types',
        'create_single_use_link',
        'list_webhooks',
        'verify_webhook_signature',
        'sample_event',
      ]);
      const r = await client.callTool({ name: 'list_meeting_types', arguments: { limit: 2 } });
      expect(r.isError, JSON.stringify(r)).toBeFalsy();
      expect((r.structuredContent as { meeting_types: unknown[] }).meeting_types).toHaveLength(2);
      expect(sb.requests.map((q) => q.headers['x-api-key'])).toContain(sb.apiKey);
      expect(JSON.stringify(r)).not.toContain(sb.apiKey);
      expect(stderr()).toContain('sched mcp: 5 tools on stdio (SCHED_MCP_LEVEL=default)');
    } finally {
      await client.close();
    }
  }, 60_000);

  it('"Allow webhook changes" on: create_webhook and delete_webhook too', async () => {
    const { client, stderr } = await startFromBundle(true);
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain('create_webhook');
      expect(tools).toContain('delete_webhook');
      expect(stderr()).toContain('7 tools on stdio (SCHED_MCP_LEVEL=allow-write)');
    } finally {
      await client.close();
    }
  }, 60_000);
});
