// Makes dist/sched.mcpb, an MCP Bundle (https://github.com/modelcontextprotocol/mcpb): one file
// that Claude Desktop and other hosts install with a click, then start as a stdio MCP server.
// It holds the built CLI (dist/main.js and its chunks, as `npm run build` writes them: every
// runtime dependency is bundled in, so no node_modules), a manifest and a small entry
// (scripts/mcpb/server.js) that runs `sched mcp` on the host's Node (`server.type: "node"`).
//
// The manifest asks the user for the API key (a sensitive setting: the host keeps it in its
// secret store and passes it in the server's environment as SCHED_API_KEY; the manifest holds
// only the placeholder), the base URL (default: SimplyMeet.me's) and whether webhooks may be
// created and deleted (a boolean; the entry turns it into SCHED_MCP_LEVEL).
//
// Usage: npm run build:mcpb (builds dist/ first). Packed by `mcpb pack` from
// @anthropic-ai/mcpb, which validates the manifest as it packs.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const OUT = join(root, 'dist', 'sched.mcpb');

/** The service's base URL, from its one home (src/config/profiles.ts). */
function defaultBaseUrl() {
  const src = readFileSync(join(root, 'src/config/profiles.ts'), 'utf8');
  const m = /export const DEFAULT_BASE_URL = '([^']+)'/.exec(src);
  if (!m) throw new Error('build-mcpb: DEFAULT_BASE_URL not found in src/config/profiles.ts');
  return m[1];
}

export const manifest = {
  manifest_version: '0.3',
  name: 'sched',
  display_name: 'sched: SimplyMeet.me scheduling',
  version: pkg.version,
  description:
    'Meeting types, single-use booking links and webhooks of a SimplyMeet.me (Harmonizely) account.',
  long_description:
    'Lists meeting types and webhooks, mints single-use booking links (each books one meeting; a ' +
    'link cannot be taken back), verifies webhook signatures and shows sample events. Creating ' +
    'and deleting webhooks is off unless "Allow webhook changes" is on. The API key is kept by ' +
    'the host as a secret and never appears in a result.',
  author: { name: 'sched contributors' },
  license: pkg.license,
  keywords: ['scheduling', 'simplymeet', 'harmonizely', 'booking links', 'webhooks'],
  server: {
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
  },
  tools: [
    { name: 'list_meeting_types', description: 'List the meeting types of the account' },
    { name: 'create_single_use_link', description: 'Mint single-use booking links' },
    { name: 'list_webhooks', description: 'List the webhooks of the account' },
    { name: 'create_webhook', description: 'Create a webhook (only with webhook changes allowed)' },
    { name: 'delete_webhook', description: 'Delete a webhook (only with webhook changes allowed)' },
    { name: 'verify_webhook_signature', description: 'Check a webhook delivery signature' },
    { name: 'sample_event', description: 'A sample webhook delivery body' },
  ],
  compatibility: {
    platforms: ['darwin', 'win32', 'linux'],
    // The built CLI targets Node 20.18 (undici 7 needs 20.18.1); no build tool runs here.
    runtimes: { node: '>=20.18.1' },
  },
  user_config: {
    api_key: {
      type: 'string',
      title: 'API key',
      description: 'Your SimplyMeet.me API key (Integrations page). Kept as a secret by the host.',
      sensitive: true,
      required: true,
    },
    base_url: {
      type: 'string',
      title: 'API base URL',
      description: 'Where the API is; the older service is https://harmonizely.com/api.',
      default: defaultBaseUrl(),
      required: false,
    },
    allow_webhook_changes: {
      type: 'boolean',
      title: 'Allow webhook changes',
      description:
        'Also offer create_webhook and delete_webhook (sched mcp --allow-write). Off: lists, ' +
        'single-use links, signature checks and sample events only.',
      default: false,
      required: false,
    },
  },
};

/** The bundle's files, staged in a temporary directory: what `mcpb pack` zips. */
function stage() {
  const dir = mkdtempSync(join(tmpdir(), 'sched-mcpb-'));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  // dist/ is ES modules; the bundle's root says so, as the package's does.
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      { name: 'sched-mcpb', version: pkg.version, private: true, type: 'module' },
      null,
      2,
    ) + '\n',
  );
  mkdirSync(join(dir, 'server'));
  copyFileSync(join(root, 'scripts/mcpb/server.js'), join(dir, 'server/index.js'));
  mkdirSync(join(dir, 'dist'));
  copyFileSync(join(root, 'dist/main.js'), join(dir, 'dist/main.js'));
  cpSync(join(root, 'dist/chunks'), join(dir, 'dist/chunks'), { recursive: true });
  copyFileSync(join(root, 'LICENSE'), join(dir, 'LICENSE'));
  return dir;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const dir = stage();
  try {
    rmSync(OUT, { force: true });
    const cli = join(root, 'node_modules/@anthropic-ai/mcpb/dist/cli/cli.js');
    const r = spawnSync(process.execPath, [cli, 'pack', dir, OUT], { stdio: 'inherit' });
    if (r.status !== 0) {
      process.stderr.write('build-mcpb: mcpb pack failed (above)\n');
      process.exit(1);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
