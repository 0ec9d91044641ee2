// Which commands of the real command tree talk to the API — so the fault matrix can fail when
// one has no row, instead of comparing two hand-written lists.
//
// - The tree: buildProgram() from src/cli.ts, walked down to its leaves (commands that run).
// - Each leaf's module: the `act` given to buildProgram records the loader of each action;
//   invoking a leaf's action hands us that loader, whose module is matched by identity
//   against every module under src/commands and src/completion.
// - Talks to the API: the module, or any module it imports (statically or lazily, following
//   src/ only), asks for a client (ctx.api(), ctx.apiFor(), createApiClient()).
// - The completion helper (`__complete <kind>`) is one leaf for many kinds: each kind of
//   DYNAMIC_KINDS is run against a recording server, and a kind that sent a request counts.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli.js';
import { definitionOf, type Act, type CommandDef } from '../../src/commands/define.js';
import { COMPLETE_COMMAND, DYNAMIC_KINDS } from '../../src/completion/model.js';
import { startFaultServer } from '../helpers/fault-server.js';
import { run, tempDir } from './harness.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const ASKS_FOR_CLIENT = /\bctx\.(api|apiFor)\(|\bcreateApiClient\(/;
// context.ts provides the client; cli.ts is the tree itself (`completion` reads its shape, and
// would otherwise reach every command's module through the registrations).
const NOT_FOLLOWED = new Set([path.join(SRC, 'context.ts'), path.join(SRC, 'cli.ts')]);

type Loader = NonNullable<CommandDef['load']>;

export interface Leaf {
  /** e.g. "webhooks add" */
  path: string;
  /** The module its action loads, relative to src/ (e.g. "commands/webhooks/add.ts"). */
  module: string | undefined;
}

function leaves(cmd: Command, prefix: string[] = []): Array<{ cmd: Command; path: string[] }> {
  const out: Array<{ cmd: Command; path: string[] }> = [];
  for (const c of cmd.commands) {
    const p = [...prefix, c.name()];
    // What runs: a command with a loader, and the built-in help (the groups only show help).
    if (definitionOf(c)?.load || c.commands.length === 0) out.push({ cmd: c, path: p });
    out.push(...leaves(c, p));
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(path.join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [path.join(dir, e.name)]
        : [],
  );
}

/** Every command of the tree that runs something, with the module its action loads. */
export async function commandLeaves(): Promise<Leaf[]> {
  let loaded: Loader | undefined;
  const act: Act = (def) => async () => {
    loaded = def.load;
  };
  // Actions that are not ours (the built-in help) run for real: keep them quiet.
  const program = (await buildProgram(act)).configureOutput({
    writeOut: () => {},
    writeErr: () => {},
  });
  const byNamespace = new Map<unknown, string>();
  for (const file of [
    ...sourceFiles(path.join(SRC, 'commands')),
    ...sourceFiles(path.join(SRC, 'completion')),
  ]) {
    byNamespace.set(await import(pathToFileURL(file).href), path.relative(SRC, file));
  }
  const out: Leaf[] = [];
  for (const { cmd, path: words } of leaves(program)) {
    loaded = undefined;
    const handler = (cmd as unknown as { _actionHandler: (args: unknown[]) => unknown })
      ._actionHandler;
    await handler.call(
      cmd,
      cmd.registeredArguments.map((arg) => (arg.variadic ? [] : 'x')),
    );
    const ns = loaded ? await (loaded as Loader)() : undefined;
    out.push({ path: words.join(' '), module: ns ? byNamespace.get(ns) : undefined });
  }
  return out;
}

/** The relative modules `file` imports at run time (type-only imports cost nothing). */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^;]*?\sfrom\s+['"](\.[^'"]+)['"]/gms),
    ...text.matchAll(/^\s*import\s+['"](\.[^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specs.map((s) => path.resolve(path.dirname(file), s.replace(/\.js$/, '.ts')));
}

/** Whether `module` (relative to src/) or anything it imports asks for an API client. */
export function asksForClient(module: string): boolean {
  const seen = new Set<string>();
  const todo = [path.join(SRC, module)];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file) || NOT_FOLLOWED.has(file) || !file.startsWith(SRC)) continue;
    seen.add(file);
    if (ASKS_FOR_CLIENT.test(readFileSync(file, 'utf8'))) return true;
    todo.push(...runtimeImports(file));
  }
  return false;
}

/** The kinds of `__complete` that send a request (run against a recording server). */
async function apiCompletionKinds(): Promise<string[]> {
  const out: string[] = [];
  for (const kind of DYNAMIC_KINDS) {
    const srv = await startFaultServer();
    const config = await tempDir('config');
    try {
      await run(['--base-url', srv.baseUrl, COMPLETE_COMMAND, kind], {
        env: { SCHED_API_KEY: 'k', SCHED_CONFIG_DIR: config.path },
      });
      if (srv.requests.length > 0) out.push(`${COMPLETE_COMMAND} ${kind}`);
    } finally {
      await srv.close();
      await config.remove();
    }
  }
  return out;
}

/** The command paths that talk to the API, derived from the tree (see the top of the file). */
export async function apiCommands(): Promise<string[]> {
  const out: string[] = [];
  for (const leaf of await commandLeaves()) {
    if (!leaf.module || !asksForClient(leaf.module)) continue;
    if (leaf.path === COMPLETE_COMMAND) out.push(...(await apiCompletionKinds()));
    else out.push(leaf.path);
  }
  return out;
}
