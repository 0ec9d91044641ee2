// What a `sched mcp` server serves, decided once before it starts: the access level (a flag, or
// SCHED_MCP_LEVEL when no flag is given, as an MCP Bundle's settings can only set the
// environment) and the tools chosen with `--tools` (always within that level). A name that is
// not a tool, or a tool the level does not allow, stops the command (exit 2) before it serves.
// No MCP SDK here, and no context: the environment comes in as a record.
import { UsageError } from '../errors.js';
import { quote } from '../text/quote.js';
import { didYouMeanInline } from '../text/suggest.js';
import { TOOL_NAMES, TOOLS, allowed, type Access, type ToolName } from './tools.js';

/** The environment variable that sets the level when neither flag is given. */
export const MCP_LEVEL_ENV = 'SCHED_MCP_LEVEL';

/** The values of SCHED_MCP_LEVEL, each named as its flag is (`default` has none). */
export const MCP_LEVELS: Readonly<Record<string, Access>> = {
  'read-only': 'read-only',
  default: 'default',
  'allow-write': 'write',
};

/** How the level was chosen: a flag, SCHED_MCP_LEVEL, or neither (the default). */
export interface Level {
  access: Access;
  /** `--allow-write`, `SCHED_MCP_LEVEL=allow-write`, or undefined for the default. */
  source: string | undefined;
}

/**
 * The level: `--read-only` or `--allow-write` when given (they exclude each other), else
 * SCHED_MCP_LEVEL when set (an empty value is unset), else the default. A value that is not a
 * level is a usage error naming the allowed ones.
 */
export function levelOf(
  flags: { readOnly?: true; allowWrite?: true },
  env: Record<string, string | undefined>,
): Level {
  if (flags.readOnly === true) return { access: 'read-only', source: '--read-only' };
  if (flags.allowWrite === true) return { access: 'write', source: '--allow-write' };
  const raw = env[MCP_LEVEL_ENV]?.trim();
  if (!raw) return { access: 'default', source: undefined };
  const names = Object.keys(MCP_LEVELS);
  if (!Object.hasOwn(MCP_LEVELS, raw)) {
    throw new UsageError(
      `${MCP_LEVEL_ENV}=${quote(raw)} is not a level${didYouMeanInline(raw, names)}`,
      { hint: `set it to one of ${names.join(', ')} (or unset it: default)` },
    );
  }
  return { access: MCP_LEVELS[raw]!, source: `${MCP_LEVEL_ENV}=${raw}` };
}

/** What a tool above the level needs, to name in a refusal. */
function neededFor(name: ToolName): string {
  return allowed(
    TOOLS.find((t) => t.name === name)!,
    'default',
  )
    ? 'minting links is not allowed with --read-only'
    : 'creating and deleting webhooks needs --allow-write';
}

/** How to reach a tool's level from this one: the flag to give (flags win over the environment). */
function fixFor(name: ToolName, level: Level): string {
  if (
    allowed(
      TOOLS.find((t) => t.name === name)!,
      'default',
    )
  ) {
    return level.source === '--read-only' ? 'drop --read-only' : `unset ${MCP_LEVEL_ENV}`;
  }
  return level.source === '--read-only'
    ? 'give --allow-write instead of --read-only'
    : 'add --allow-write';
}

/**
 * The tools `--tools` chose, checked against the names and the level; undefined when `--tools`
 * was not given (every tool of the level is served).
 */
export function selectTools(
  names: readonly string[] | undefined,
  level: Level,
): ReadonlySet<ToolName> | undefined {
  if (names === undefined) return undefined;
  if (names.length === 0) {
    throw new UsageError('--tools names no tool', {
      hint: `give a comma-separated list of tools: ${TOOL_NAMES.join(', ')}`,
    });
  }
  const chosen = new Set<ToolName>();
  for (const name of names) {
    const known = TOOL_NAMES.find((t) => t === name);
    if (known === undefined) {
      throw new UsageError(
        `--tools: unknown tool ${quote(name)}${didYouMeanInline(name, TOOL_NAMES)}`,
        { hint: `the tools are ${TOOL_NAMES.join(', ')}` },
      );
    }
    if (
      !allowed(
        TOOLS.find((t) => t.name === known)!,
        level.access,
      )
    ) {
      const here = level.source ? ` (this server: ${level.source})` : '';
      throw new UsageError(`--tools ${known}: ${neededFor(known)}${here}`, {
        hint: `${fixFor(known, level)}, or leave ${known} out of --tools`,
      });
    }
    chosen.add(known);
  }
  return chosen;
}

/** A call to a tool of the level that `--tools` left out: refused, naming the selection. */
export function notSelected(name: string, chosen: ReadonlySet<ToolName>): UsageError | undefined {
  const known = TOOL_NAMES.find((t) => t === name);
  if (known === undefined || chosen.has(known)) return undefined;
  return new UsageError(
    `${known} is not served: the server was started with --tools ${[...chosen].join(',')}`,
    { hint: `restart it with ${known} added to --tools` },
  );
}
