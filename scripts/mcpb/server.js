// The entry point of sched's MCP Bundle (dist/sched.mcpb, made by scripts/build-mcpb.mjs):
// `sched mcp` from the bundle's own dist/, on the Node of the host that installed the bundle.
// A bundle's settings reach the server only through its environment and its arguments cannot be
// conditional, so the "allow webhook changes" setting arrives as SCHED_MCPB_ALLOW_WRITE, which
// a host sets to "true" or "false", and becomes here the level `sched mcp` reads from
// SCHED_MCP_LEVEL. The key and base URL arrive as SCHED_API_KEY and SCHED_BASE_URL, as for
// every command.
const allowWrite = process.env.SCHED_MCPB_ALLOW_WRITE;
delete process.env.SCHED_MCPB_ALLOW_WRITE;
if (allowWrite === 'true') process.env.SCHED_MCP_LEVEL = 'allow-write';
else if (allowWrite === 'false') process.env.SCHED_MCP_LEVEL = 'default';
// Whatever a host adds to the command line, this entry serves `sched mcp` and nothing else.
process.argv.splice(2, process.argv.length, 'mcp');
await import('../dist/main.js');
