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
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { messageOf } from '../errors.js';
import type { Mask } from '../mask.js';
import { cleanText, cleanValue } from './clean.js';
import {
  annotationsOf,
  callTool,
  failureText,
  toolsFor,
  type Access,
  type ToolDeps,
  type ToolName,
  type ToolResult,
} from './tools.js';
import { notSelected } from './selection.js';
import type { Invocation } from '../text/hints.js';

export interface McpServerOptions {
  access: Access;
  /** Serving against the embedded sandbox: no tool reaches the outside world. */
  sandbox: boolean;
  /** The flags a suggested restart keeps (--profile, --base-url; --sandbox from `sandbox`). */
  invocation?: Invocation;
  version: string;
  deps: ToolDeps;
  /** The tools `--tools` chose (within the level); all of the level's when absent. */
  only?: ReadonlySet<ToolName>;
  /** The mask of every secret known so far (read at each use: secrets are added while serving). */
  mask: () => Mask;
  /** Aborted when the server stops: every call in flight is cancelled with it. */
  signal: AbortSignal;
}

const LEVEL_NOTE: Record<Access, string> = {
  'read-only':
    'Read-only: only tools that change nothing (lists, signature checks, sample payloads).',
  default:
    'Lists, signature checks and sample payloads, and single-use links (each books one meeting). Webhooks are not created or deleted (the server needs --allow-write).',
  write:
    'All tools, including creating and deleting webhooks (--allow-write): confirm with the user before changing webhooks.',
};

/** The largest result sent; a larger one (a list is cut well before) is an error result. */
export const MAX_RESULT_BYTES = 4 * 1024 * 1024;

/**
 * A result serialised here, in the handler, so that a value that cannot be serialised or is too
 * large becomes an error result the client receives, never an answer dropped on the way out.
 */
export function sized(result: CallToolResult): CallToolResult {
  let bytes: number;
  try {
    bytes = Buffer.byteLength(JSON.stringify(result));
  } catch (e) {
    return errorResult(`error: the result could not be serialised: ${messageOf(e)}`);
  }
  if (bytes <= MAX_RESULT_BYTES) return result;
  return errorResult(
    `error: the result is ${bytes} bytes, over the ${MAX_RESULT_BYTES} a result may have\nhint: ask for less (a smaller limit, a query)`,
  );
}

/**
 * A tool's answer as an MCP result: structuredContent (every value cleaned and cut), and text
 * content — the short prose, then the structured content serialised (for clients that read
 * only text, as the 2025-06-18 revision advises).
 */
export function resultOf(r: ToolResult, mask: Mask): CallToolResult {
  const structured = cleanValue(r.structured, mask) as Record<string, unknown>;
  return {
    content: [
      { type: 'text', text: cleanText(r.text, mask) },
      { type: 'text', text: JSON.stringify(structured) },
    ],
    structuredContent: structured,
    ...(r.isError ? { isError: true } : {}),
  };
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The tools as `tools/list` shows them: those the level allows, with truthful annotations. */
export function listedTools(o: {
  access: Access;
  sandbox: boolean;
  only?: ReadonlySet<ToolName>;
}): Tool[] {
  return served(o).map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: { ...t.inputSchema, additionalProperties: false },
    outputSchema: t.outputSchema,
    annotations: annotationsOf(t, { sandbox: o.sandbox }),
  }));
}

/**
 * What `initialize` tells the assistant: what the account holds, the level, and what it must
 * weigh before acting (a minted link cannot be taken back; the sandbox's links vanish with it).
 */
export function instructionsOf(o: { access: Access; sandbox: boolean }): string {
  return [
    `Meeting types, single-use booking links and webhooks of a SimplyMeet.me account${o.sandbox ? ' (here: a local sandbox; nothing real is touched)' : ''}.`,
    LEVEL_NOTE[o.access],
    ...(o.access === 'read-only'
      ? []
      : [
          'A single-use link, once minted, cannot be taken back (links cannot be deleted): mint only the links the user asked for.',
        ]),
    ...(o.sandbox
      ? [
          "The sandbox's links, webhooks and bookings vanish when this server stops: never give them to people as real links.",
        ]
      : []),
  ].join(' ');
}

export interface McpServer {
  server: Server;
  /** Resolves once no call is in flight (a client that closes stdin still gets its answers). */
  idle(): Promise<void>;
}

/** The tools this server lists: its level's, narrowed by `--tools`. */
function served(o: { access: Access; only?: ReadonlySet<ToolName> }) {
  return toolsFor(o.access).filter((t) => !o.only || o.only.has(t.name));
}

export function createMcpServer(o: McpServerOptions): McpServer {
  const inFlight = new Set<Promise<unknown>>();
  const server = new Server(
    { name: 'sched', version: o.version },
    {
      capabilities: { tools: {} },
      instructions: instructionsOf(o),
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools(o) }));

  const failed = (e: unknown): CallToolResult => ({
    content: [{ type: 'text', text: cleanText(failureText(e), o.mask()) }],
    isError: true,
  });
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
        invocation: { ...o.invocation, sandbox: o.sandbox },
      });
      return sized(resultOf(r, o.mask()));
    } catch (e) {
      return failed(e);
    }
  };
  server.setRequestHandler(CallToolRequestSchema, (req, extra) => {
    // A client that skipped the handshake is refused, as the protocol requires.
    if (server.getClientVersion() === undefined) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        'tools/call before initialize: send initialize (and notifications/initialized) first',
      );
    }
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
