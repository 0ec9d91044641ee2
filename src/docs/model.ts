// The command reference as data, read from the same command tree that help and completion use
// (commander's records plus each command's definition: examples, JSON shape, exit codes). The
// markdown pages in docs/ and the man page are two renderings of it. Not part of the CLI
// bundle: scripts/gen-docs.mjs and the drift test in test/docs/ load it.
import type { Command, Option } from 'commander';
import { buildProgram } from '../cli.js';
import { definitionOf, isRepeatable, visibleCommands } from '../commands/define.js';
import { ENVIRONMENT, EXIT_CODES, HELP_TOPICS } from '../commands/help/topics.js';

export interface RefOption {
  flags: string;
  description: string;
  /** As help shows it, e.g. `4010` or `"127.0.0.1"`. */
  default: string | undefined;
  required: boolean;
  repeatable: boolean;
}

export interface RefArgument {
  /** As usage shows it: `<shell>`, `[uuid...]`. */
  usage: string;
  description: string;
}

export interface RefCommand {
  /** ["webhooks", "add"] */
  path: string[];
  usage: string;
  aliases: string[];
  description: string;
  args: RefArgument[];
  options: RefOption[];
  examples: string[];
  json: string | undefined;
  /** The output formats it prints (-o), when it runs at all. */
  formats: readonly string[];
  exitCodes: ReadonlyArray<readonly [number, string]>;
  subcommands: string[][];
}

export interface Reference {
  description: string;
  globalOptions: RefOption[];
  commands: RefCommand[];
  environment: ReadonlyArray<readonly [string, string]>;
  exitCodes: ReadonlyArray<readonly [number, string]>;
  helpTopics: ReadonlyArray<readonly [string, string]>;
}

function refOption(o: Option): RefOption {
  return {
    flags: o.flags,
    description: o.description,
    default: o.defaultValue === undefined ? undefined : JSON.stringify(o.defaultValue),
    required: o.mandatory,
    repeatable: isRepeatable(o),
  };
}

function walk(c: Command, path: string[], out: RefCommand[]): void {
  const def = definitionOf(c);
  const visible = visibleCommands(c);
  out.push({
    path,
    usage: c.createHelp().commandUsage(c),
    aliases: c.aliases(),
    description: c.description(),
    args: c.registeredArguments.map((a) => ({
      usage: a.required
        ? `<${a.name()}${a.variadic ? '...' : ''}>`
        : `[${a.name()}${a.variadic ? '...' : ''}]`,
      description: a.description,
    })),
    options: c.options.filter((o) => !o.hidden).map(refOption),
    examples: [...(def?.examples ?? [])],
    json: def?.json,
    formats: def?.load ? (def.formats ?? []) : [],
    exitCodes: def?.exitCodes ?? [],
    subcommands: visible.map((k) => [...path, k.name()]),
  });
  for (const k of visible) walk(k, [...path, k.name()], out);
}

/** The whole reference: every visible command, global options, environment, exit codes. */
export async function buildReference(): Promise<Reference> {
  const program = await buildProgram(() => async () => {});
  const commands: RefCommand[] = [];
  for (const c of visibleCommands(program)) walk(c, [c.name()], commands);
  return {
    description: program.description(),
    globalOptions: program.options.filter((o) => !o.hidden).map(refOption),
    commands,
    environment: ENVIRONMENT.map(([name, meaning]) => [name, meaning.replace(/\n/g, ' ')] as const),
    exitCodes: EXIT_CODES,
    helpTopics: Object.entries(HELP_TOPICS).map(([k, t]) => [k, t.summary] as const),
  };
}
