// The completion model: the commander tree walked at runtime and annotated with where each
// option value or argument comes from. The bash, zsh and fish generators read only this, so
// a flag added to a command appears in every script (and the drift test notices). The caller
// (src/commands/completion) hands over the tree and what only it knows (TreeFacts): this
// layer never imports the commands.
import type { Argument, Command, Option } from 'commander';
import { OUTPUT_FORMATS } from '../context.js';
import { API_ENDPOINTS, EVENT_NAMES } from '../api/types.js';
import { HTTP_METHODS } from '../api/retry.js';

/** What the command layer knows about its tree that commander does not record. */
export interface TreeFacts {
  /** `sched help <topic>` topics: name and one-line summary. */
  helpTopics: ReadonlyArray<readonly [name: string, summary: string]>;
  /** Options that may be given several times (collected into a list). */
  isRepeatable(o: Option): boolean;
  /** The subcommands shown (not declared hidden). */
  visibleCommands(c: Command): readonly Command[];
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** The name of the hidden command the scripts call for values only known at run time. */
export const COMPLETE_COMMAND = '__complete';

/** What `sched __complete <kind>` can list. */
export const DYNAMIC_KINDS = ['profiles', 'meeting-types', 'webhooks'] as const;
export type DynamicKind = (typeof DYNAMIC_KINDS)[number];

/** Global options the scripts pass on to `__complete`, so it reads the same profile/API. */
export const FORWARDED_GLOBALS = ['--profile', '--base-url'] as const;

/** Seconds the scripts give `__complete` for an API request; a shell must never hang. */
export const DYNAMIC_TIMEOUT_SECONDS = 2;

export type ValueSource =
  | { kind: 'words'; words: readonly string[]; descriptions?: readonly string[] }
  | { kind: 'files' }
  | { kind: 'dynamic'; name: DynamicKind }
  | { kind: 'none' };

export interface OptionSpec {
  short: string | undefined;
  /** Every option of ours has one (test/cli.test.ts holds the whole tree to it). */
  long: string;
  description: string;
  /** True when the option needs a value (`--url <url>`). */
  takesValue: boolean;
  /** The value's placeholder, e.g. "url". */
  valueName: string | undefined;
  /** Repeatable options (collect) may appear more than once. */
  repeatable: boolean;
  values: ValueSource;
}

export interface ArgumentSpec {
  name: string;
  description: string;
  variadic: boolean;
  values: ValueSource;
}

export interface CommandSpec {
  /** Path below the root, e.g. ["webhooks", "add"]; [] for the root. */
  path: string[];
  name: string;
  aliases: string[];
  description: string;
  /** Options of this command only (global options live on the root spec). */
  options: OptionSpec[];
  args: ArgumentSpec[];
  subcommands: CommandSpec[];
}

export interface CompletionSpec {
  program: string;
  root: CommandSpec;
  /** Root options that commander accepts after any subcommand too. */
  globals: OptionSpec[];
}

const words = (w: readonly string[]): ValueSource => ({ kind: 'words', words: w });
const files: ValueSource = { kind: 'files' };
const dynamic = (name: DynamicKind): ValueSource => ({ kind: 'dynamic', name });
const none: ValueSource = { kind: 'none' };

/** Option values by long flag, wherever the option appears. */
const OPTION_VALUES: Record<string, ValueSource> = {
  '--output': words(OUTPUT_FORMATS),
  '--event': words(EVENT_NAMES),
  '--profile': dynamic('profiles'),
  '--file': files,
  '--payload-file': files,
  '--state': files,
  '--input': files,
  '--method': words(HTTP_METHODS),
};

/** Argument values by command path and argument name: names alone are too generic. */
function argumentValues(path: string[], arg: string, root: Command, facts: TreeFacts): ValueSource {
  switch (`${path.join(' ')} <${arg}>`) {
    case 'completion <shell>':
      return words(SHELLS);
    case 'events sample <event>':
    case 'events send <event>':
      return words(EVENT_NAMES);
    case 'api <path>':
      return {
        kind: 'words',
        words: API_ENDPOINTS.map((e) => e.path),
        descriptions: API_ENDPOINTS.map((e) => e.what),
      };
    case 'link create <meeting-type>':
    case 'types get <meeting-type>':
      return dynamic('meeting-types');
    case 'webhooks rm <uuid>':
      return dynamic('webhooks');
    case 'help <command-or-topic>': {
      const cmds = facts.visibleCommands(root);
      const topics = facts.helpTopics;
      return {
        kind: 'words',
        words: [...cmds.map((c) => c.name()), ...topics.map(([k]) => k)],
        descriptions: [...cmds.map((c) => c.description()), ...topics.map(([, t]) => t)],
      };
    }
    default:
      return none;
  }
}

/** `help` takes a command path, but completing past its first word is not worth the code. */
const SINGLE_WORD_ARGS = new Set(['help <command-or-topic>']);

function optionSpec(o: Option, facts: TreeFacts): OptionSpec {
  const takesValue = o.required || o.optional;
  // "--sort <field[:dir]>" -> "field": the name shells show while a value is typed.
  const valueName = takesValue ? /[<[]([\w-]+)/.exec(o.flags)?.[1] : undefined;
  const long = o.long!;
  // No option of ours uses commander's .choices(): the values a shell offers are named here.
  const values: ValueSource = takesValue ? (OPTION_VALUES[long] ?? none) : none;
  return {
    short: o.short,
    long,
    description: o.description,
    takesValue,
    valueName,
    repeatable: o.variadic || facts.isRepeatable(o),
    values,
  };
}

const HELP_OPTION: OptionSpec = {
  short: '-h',
  long: '--help',
  description: 'show help',
  takesValue: false,
  valueName: undefined,
  repeatable: false,
  values: none,
};

function commandSpec(c: Command, path: string[], root: Command, facts: TreeFacts): CommandSpec {
  const options = c.options.filter((o) => !o.hidden).map((o) => optionSpec(o, facts));
  options.push(HELP_OPTION);
  const args = c.registeredArguments.map((a: Argument): ArgumentSpec => {
    const key = `${path.join(' ')} <${a.name()}>`;
    return {
      name: a.name(),
      description: a.description,
      variadic: a.variadic && !SINGLE_WORD_ARGS.has(key),
      values: argumentValues(path, a.name(), root, facts),
    };
  });
  return {
    path,
    name: path.length === 0 ? c.name() : path[path.length - 1]!,
    aliases: c.aliases(),
    description: c.description(),
    options,
    args,
    subcommands: facts
      .visibleCommands(c)
      .map((k) => commandSpec(k, [...path, k.name()], root, facts)),
  };
}

/** Walks the program (hidden commands left out) into the model the generators read. */
export function buildSpec(program: Command, facts: TreeFacts): CompletionSpec {
  const root = commandSpec(program, [], program, facts);
  // Root options are global (commander accepts them after subcommands too), except the
  // version flag, which only means something on its own.
  const globals = root.options.filter((o) => o.long !== '--version' && o.long !== '--help');
  return { program: program.name(), root, globals };
}

/** Every command in the tree, root first. */
export function allCommands(spec: CompletionSpec): CommandSpec[] {
  const out: CommandSpec[] = [];
  const walk = (c: CommandSpec) => {
    out.push(c);
    c.subcommands.forEach(walk);
  };
  walk(spec.root);
  return out;
}
