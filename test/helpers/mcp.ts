// `sched mcp` in-process: the command's server (startMcp, with the context a run gets) joined
// to the SDK's own Client over its in-memory transport, every JSON-RPC frame both ways kept
// as sent, so a test can scan them for a key or a secret.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createContext, type GlobalOptions } from '../../src/context.js';
import { startMcp } from '../../src/commands/mcp/serve.js';
import type { McpOptions } from '../../src/commands/mcp/inputs.js';
import { createBufferIO, type BufferIO } from './buffer-io.js';
import { DEFAULT_GLOBALS } from './globals.js';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startTestSandbox, type TestSandbox } from './sandbox.js';
import { startFaultServer, type FaultServer } from './fault-server.js';
import { useFastRetries } from '../reliability/fast-retry.js';

export interface McpHarness {
  client: Client;
  /** Every frame sent either way, as JSON text. */
  frames: string[];
  io: BufferIO;
  call(name: string, args?: Record<string, unknown>, signal?: AbortSignal): Promise<ToolCall>;
  close(): Promise<void>;
}

export interface ToolCall {
  isError: boolean;
  /** The first text block: the short prose. */
  text: string;
  /** Every text block after the first (the structured content serialised). */
  more: string[];
  structured: Record<string, unknown> | undefined;
}

export async function connectMcp(
  opts: Omit<McpOptions, 'tools'> & { tools?: string[] },
  env: Record<string, string | undefined>,
  globals: Partial<GlobalOptions> = {},
): Promise<McpHarness> {
  const io = createBufferIO({ env });
  const stop = new AbortController();
  const ctx = createContext({
    io,
    globals: { ...DEFAULT_GLOBALS, ...globals },
    env,
    signal: stop.signal,
    version: '0.0.0-test',
  });
  const session = await startMcp(ctx, { tools: undefined, ...opts });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const frames: string[] = [];
  for (const t of [clientSide, serverSide]) {
    const send = t.send.bind(t);
    t.send = (message, o) => {
      frames.push(JSON.stringify(message));
      return send(message, o);
    };
  }
  await session.server.connect(serverSide);
  const client = new Client({ name: 'sched-test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    frames,
    io,
    async call(name, args = {}, signal) {
      const r = (await client.callTool({ name, arguments: args }, undefined, {
        signal,
      })) as CallToolResult;
      const [text = '', ...more] = r.content.map((c) => (c.type === 'text' ? c.text : ''));
      return {
        isError: r.isError === true,
        text,
        more,
        structured: r.structuredContent,
      };
    },
    async close() {
      session.stop();
      await client.close();
      await session.server.close();
      stop.abort();
      await ctx.runDeferred();
    },
  };
}

/** The servers a file's MCP tests call: the in-process sandbox and a scripted server. */
export interface McpServers {
  sb: TestSandbox;
  api: FaultServer;
}

/**
 * Starts both servers for the file (retries fast), clears what they hold before each test and
 * closes them after the file. The fields are set once the file's first beforeAll has run.
 */
export function useMcpServers(): McpServers {
  const s = {} as McpServers;
  useFastRetries();
  beforeAll(async () => {
    [s.sb, s.api] = await Promise.all([startTestSandbox(), startFaultServer()]);
  });
  afterAll(async () => {
    await Promise.all([s.sb.close(), s.api.close()]);
  });
  beforeEach(() => {
    s.sb.requests.length = 0;
    s.sb.state.webhooks.clear();
    s.sb.state.links.clear();
    s.api.clear();
  });
  return s;
}
