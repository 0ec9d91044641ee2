// `sched mcp` as a client on the other end of its stdin drives it: a whole session written at
// once (the handshake, then one tool call), and the call's result read back from stdout.

/** An MCP client's whole session on stdin: initialize, then one tool call (id 2). */
export function mcpSession(tool: string, args: Record<string, unknown>): string {
  const frames = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'sched-tests', version: '1' },
      },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool, arguments: args } },
  ];
  return frames.map((f) => JSON.stringify(f) + '\n').join('');
}

export interface McpResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: unknown;
}

/** The result of the tool call (id 2) among the frames `sched mcp` wrote on stdout. */
export function mcpResult(stdout: string): McpResult {
  for (const line of stdout.split('\n')) {
    if (line.trim() === '') continue;
    const frame = JSON.parse(line) as { id?: number; result?: McpResult };
    if (frame.id === 2 && frame.result) return frame.result;
  }
  throw new Error(`no result for the tool call in:\n${stdout}`);
}
