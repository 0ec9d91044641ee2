import { command, TEXT_ONLY } from '../define.js';
import { mcpInput } from './inputs.js';

export const mcp = command({
  name: 'mcp',
  description:
    'Serve the Model Context Protocol on stdio for AI assistants (Claude Desktop, VS Code): ' +
    'by default the tools list, mint single-use links, verify signatures and sample events; ' +
    '--read-only allows only tools that change nothing; creating and deleting webhooks needs --allow-write ' +
    '(without either flag, SCHED_MCP_LEVEL=read-only|default|allow-write sets the level); ' +
    '--tools serves only the tools named, within the level',
  input: mcpInput,
  examples: [
    '# an assistant starts it; its configuration: {"command": "sched", "args": ["mcp"]}',
    'sched mcp                 # lists, single-use links, verify, sample (the default)',
    'sched mcp --read-only     # only tools that change nothing',
    'sched mcp --allow-write   # also create_webhook and delete_webhook',
    'sched mcp --tools list_meeting_types,create_single_use_link   # only these two',
    'SCHED_MCP_LEVEL=allow-write sched mcp   # the level from the environment (flags win)',
    'sched mcp --sandbox       # against an embedded sandbox: try every tool without an account',
    'sched mcp --profile staging   # the key and base URL of a profile, as for every command',
  ],
  exitCodes: [[0, 'the client closed the connection (stdin), or Ctrl-C / SIGTERM']],
  formats: TEXT_ONLY,
  load: () => import('./serve.js'),
});
