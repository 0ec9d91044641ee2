// `sched mcp`: the Model Context Protocol on stdio until the client closes stdin (or Ctrl-C /
// SIGTERM). stdout carries the protocol and nothing else: every frame goes through a writer
// that masks the API key and every secret read while serving; notes go to stderr. The key and
// base URL come from the profile and environment as for every command (ctx.api(), which says
// on stderr what the environment overrides before the first write); with --sandbox, from an
// embedded sandbox on a free loopback port instead.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/client.js';
import type { Mask } from '../../mask.js';
import { Failure, messageOf, OutputFailed, whenAborted } from '../../errors.js';
import { createMcpServer } from '../../mcp/server.js';
import { levelOf, selectTools, type Level } from '../../mcp/selection.js';
import { LineTransport } from '../../mcp/stdio.js';
import { toolsFor, type ToolDeps } from '../../mcp/tools.js';
import { noKeyHint } from '../../config/sources.js';
import { quote } from '../../text/quote.js';
import { plural } from '../../text/plural.js';
import { LOCAL_HOST } from '../define.js';
import { resolveMeetingTypes } from '../types/meeting-types.js';
import type { McpOptions } from './inputs.js';

export interface McpSession {
  server: Server;
  /** Resolves once no call is in flight. */
  idle(): Promise<void>;
  /** The mask of every secret known so far: the key, secrets read from secret_env, proxy passwords. */
  mask(): Mask;
  /** Cancels the calls in flight; the server is closed by whoever connected it. */
  stop(): void;
}

/** What the server serves, said on stderr as it starts. */
function startNote(level: Level, only: ReadonlySet<string> | undefined): string {
  const n = only?.size ?? toolsFor(level.access).length;
  const how = [level.source ?? 'default: no webhook changes', ...(only ? ['--tools'] : [])];
  return `sched mcp: ${plural(n, 'tool')} on stdio (${how.join(', ')}); stop with Ctrl-C or by closing stdin.`;
}

/** The server, not yet connected: the run connects it to stdio, the tests to memory. */
export async function startMcp(ctx: Context, opts: McpOptions): Promise<McpSession> {
  const { io } = ctx;
  // One list of secrets, the io's (proxy passwords, SCHED_WEBHOOK_SECRET, the key, what a tool
  // reads): frames are masked with it as stdout and stderr are.
  const addSecrets = (list: readonly (string | undefined)[]) => io.addSecrets(list);
  const mask = (text: string) => io.mask(text);
  // A bad level or tool name stops here (exit 2), before anything starts.
  const level = levelOf(opts, ctx.env);
  const { access } = level;
  const only = selectTools(opts.tools, level);
  const sandbox = opts.sandbox === true;

  let api: () => Promise<ApiClient>;
  if (sandbox) {
    const { startSandbox } = await import('../../sandbox/library.js');
    const sb = await startSandbox({ host: LOCAL_HOST, port: 0 });
    ctx.defer(() => sb.close());
    addSecrets([sb.apiKey]);
    const client = ctx.apiFor(sb.baseUrl, sb.apiKey);
    api = () => client;
    io.err(`sched mcp: serving against an embedded sandbox at ${sb.baseUrl} (nothing real).`);
  } else {
    // An unknown profile stops here (exit 2), before any client connects.
    const creds = await ctx.credentials();
    addSecrets([creds.apiKey]);
    if (!creds.apiKey) {
      io.err(
        `sched mcp: no API key for profile ${quote(creds.profile)}: the account tools will answer ` +
          `with an error (${noKeyHint(creds)}); verify and sample work.`,
      );
    }
    api = () => ctx.api();
  }

  const stopped = new AbortController();
  const deps: ToolDeps = {
    api,
    resolveMeetingType: async (client, ref, signal) =>
      (await resolveMeetingTypes({ signal }, client, [ref]))[0]!,
    env: ctx.env,
    addSecrets,
    mask: () => mask,
    sandbox,
  };
  const { server, idle } = createMcpServer({
    access,
    sandbox,
    invocation: { profile: ctx.globals.profile, baseUrlFlag: ctx.globals.baseUrl },
    version: ctx.version,
    deps,
    ...(only ? { only } : {}),
    mask: () => mask,
    signal: stopped.signal,
  });
  io.err(startNote(level, only));
  return { server, idle, mask: () => mask, stop: () => stopped.abort() };
}

export async function run(ctx: Context, opts: McpOptions): Promise<void> {
  const session = await startMcp(ctx, opts);
  const { io } = ctx;
  // Our own line reader and a writer that masks every frame's string values once more.
  const transport = new LineTransport(io.stdin, io.stdout, {
    mask: session.mask,
    note: (line) => io.err(line),
  });
  // The client closed stdin: the calls in flight still get their answers. Ctrl-C, SIGTERM or a
  // closed stdout: they are cancelled (their requests aborted).
  // A stdout that failed: said once the server stopped (a client that left is the quiet stop).
  let stdoutError: unknown;
  const ended = new Promise<'drain' | 'stop'>((resolve) => {
    io.stdin.once('end', () => resolve('drain'));
    io.stdin.once('close', () => resolve('drain'));
    io.stdout.once('close', () => resolve('stop'));
    io.stdout.once('error', (e) => {
      stdoutError = e;
      resolve('stop');
    });
    ctx.signal.addEventListener('abort', () => resolve('stop'), { once: true });
  });
  await session.server.connect(transport);
  const closed = new Promise<void>((resolve) => {
    const before = session.server.onclose;
    session.server.onclose = () => {
      before?.();
      resolve();
    };
  });
  const how = await Promise.race([ended, closed.then(() => 'stop' as const)]);
  if (how === 'drain') await Promise.race([session.idle(), whenAborted(ctx.signal)]);
  session.stop();
  await session.server.close();
  if (stdoutError !== undefined) throw new OutputFailed({ kind: 'stdout' }, stdoutError);
  if (transport.failure) {
    throw new Failure(
      `sched mcp: the connection on stdin failed: ${messageOf(transport.failure)}`,
      {
        hint: 'the client has to start the server again',
      },
    );
  }
}
