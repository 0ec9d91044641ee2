// The MCP server of `sched mcp`, on the official SDK's low-level Server (the tools are declared
// with their own JSON Schemas in ./tools.ts, so no schema library is needed on our side). It
// lists the tools the access level allows, hands each call to callTool() with the request's
// abort signal, and turns the answer into a result: structuredContent (the API's objects) and
// a short text, or an error result (isError) with the CLI's wording. Every string leaving here
// is cleaned as the output gate cleans text (secrets masked, escape sequences and controls
// removed); the transport's writer masks the frames once more (see the command's run).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Mask } from '../mask.js';
import { sanitizeTerminal } from '../text/sanitize.js';
import {
  annotationsOf,
  callTool,
  failureText,
  toolsFor,
  type Access,
  type ToolDeps,
  type ToolName,
} from './tools.js';
import { notSelected } from './selection.js';

export interface McpServerOptions {
  access: Access;
  /** Serving against the embedded sandbox: no tool reaches the outside world. */
  sandbox: boolean;
  version: string;
  deps: ToolDeps;
  /** The tools `--tools` chose (within the level); all of the level's when absent. */
  only?: ReadonlySet<ToolName>;
  /** The mask of every secret known so far (read at each use: secrets are added while serving). */
  mask: () => Mask;
  /** Aborted when the server stops: every call in flight is cancelled with it. */
  signal: AbortSignal;
}

/** What a string from outside becomes in a result: masked, then cleaned as the output gate cleans. */
export function cleanText(s: string, mask: Mask): string {
  return sanitizeTerminal(mask(s), { color: false });
}

/** Every string of a value (keys and values) cleaned; the shape and unknown fields are kept. */
export function cleanValue(v: unknown, mask: Mask, depth = 0): unknown {
  if (typeof v === 'string') return cleanText(v, mask);
  if (depth > 64 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => cleanValue(x, mask, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[cleanText(k, mask)] = cleanValue(x, mask, depth + 1);
  return out;
}

const LEVEL_NOTE: Record<Access, string> = {
  'read-only':
    'Read-only: only tools that change nothing (lists, signature checks, sample payloads).',
  default:
    'Lists, signature checks and sample payloads, and single-use links (each books one meeting). Webhooks are not created or deleted (the server needs --allow-write).',
  write:
    'All tools, including creating and deleting webhooks (--allow-write): confirm with the user before changing webhooks.',
};

export interface McpServer {
  server: Server;
  /** Resolves once no call is in flight (a client that closes stdin still gets its answers). */
  idle(): Promise<void>;
}

/** The tools this server lists: its level's, narrowed by `--tools`. */
function served(o: McpServerOptions) {
  return toolsFor(o.access).filter((t) => !o.only || o.only.has(t.name));
}

export function createMcpServer(o: McpServerOptions): McpServer {
  const inFlight = new Set<Promise<unknown>>();
  const server = new Server(
    { name: 'sched', version: o.version },
    {
      capabilities: { tools: {} },
      instructions:
        `Meeting types, single-use booking links and webhooks of a SimplyMeet.me account${o.sandbox ? ' (here: a local sandbox; nothing real is touched)' : ''}. ` +
        LEVEL_NOTE[o.access],
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: served(o).map((t): Tool => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: { ...t.inputSchema, additionalProperties: false },
      annotations: annotationsOf(t, { sandbox: o.sandbox }),
    })),
  }));

  const call = async (
    req: { params: { name: string; arguments?: unknown } },
    extra: { signal: AbortSignal },
  ): Promise<CallToolResult> => {
    const signal = AbortSignal.any([extra.signal, o.signal]);
    try {
      const left = o.only && notSelected(req.params.name, o.only);
      if (left) throw left;
      const r = await callTool(req.params.name, req.params.arguments, {
        access: o.access,
        deps: o.deps,
        signal,
      });
      const mask = o.mask();
      return {
        content: [{ type: 'text', text: cleanText(r.text, mask) }],
        structuredContent: cleanValue(r.structured, mask) as Record<string, unknown>,
        ...(r.isError ? { isError: true } : {}),
      };
    } catch (e) {
      return {
        content: [{ type: 'text', text: cleanText(failureText(e), o.mask()) }],
        isError: true,
      };
    }
  };
  server.setRequestHandler(CallToolRequestSchema, (req, extra) => {
    const p = call(req, extra);
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    return p;
  });
  return {
    server,
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
