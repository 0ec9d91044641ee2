// The typed command definitions. Each verb declares its arguments and options once (flags,
// help text, defaults, parsers) with `input(...)`; from that one declaration come the commander
// registration, the help, the completion scripts, docs/ and the man page, and the type of the
// object its `run(ctx, opts)` receives. A renamed flag renames the field, so every use of the
// old name stops compiling.
//
// Registration files import only this module and commander, so start-up stays cheap: a verb's
// behaviour is imported (`load`) only when that verb runs. A noun's inputs live in its
// inputs.ts, which both its index.ts (registration) and its verbs (the options type) import,
// so no verb imports the file that loads it (test/rules/import-graph.test.ts: no cycle).
import type { Command } from 'commander';
import { InvalidArgumentError, Option } from 'commander';
import { OUTPUT_FORMATS, type Context, type OutputFormat } from '../context.js';
import { UsageError } from '../errors.js';
import { askedFormat, twoFormatsAsked, type AskedFormat } from '../output/formats.js';

// ---------------------------------------------------------------------------------------------
// Names: "--dry-run <x>" -> "dryRun", "--no-secret" -> "secret", "[meeting-type...]" -> "meetingType"

type Camel<S extends string> = S extends `${infer A}-${infer B}`
  ? `${A}${Capitalize<Camel<B>>}`
  : S;
type LongFlag<F extends string> = F extends `${string}--${infer R}`
  ? R extends `${infer N} ${string}`
    ? N
    : R
  : never;
/** The field an option fills, as commander names it (`attributeName()`). */
export type OptionKey<F extends string> =
  LongFlag<F> extends `no-${infer R}` ? Camel<R> : Camel<LongFlag<F>>;
type ArgName<S extends string> = S extends `${'<' | '['}${infer N}${'>' | ']'}`
  ? N extends `${infer M}...`
    ? M
    : N
  : never;
export type ArgKey<S extends string> = Camel<ArgName<S>>;

function camel(s: string): string {
  return s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

// ---------------------------------------------------------------------------------------------
// Options

/** One option: what commander needs, what docs and completion show, and its value's type. */
export interface OptionDef<F extends string = string, V = unknown> {
  readonly flags: F;
  readonly description: string;
  readonly parse?: (value: string, previous: never) => unknown;
  readonly defaultValue?: unknown;
  readonly required?: boolean;
  readonly hidden?: boolean;
  /** May be given several times; the values are collected into a list. */
  readonly repeatable?: boolean;
  /** Options of one group exclude each other (counting every occurrence). */
  readonly exclusive?: string;
  /** Phantom: the type of the value `run` receives. */
  readonly __value?: V;
}

interface Common {
  hidden?: boolean;
  exclusive?: string;
}

/** A switch: `--all` (true when given), `--no-input` (false when given, else true). */
export function flag<const F extends string>(
  flags: F,
  description: string,
  config: Common = {},
): OptionDef<F, F extends `${string}--no-${string}` ? boolean : true | undefined> {
  return { flags, description, ...config };
}

/** An option that takes a value (`--url <url>`), optionally parsed, defaulted or required. */
export function value<const F extends string, T>(
  flags: F,
  description: string,
  config: Common & { parse: (value: string) => T; default: T },
): OptionDef<F, T>;
export function value<const F extends string, T>(
  flags: F,
  description: string,
  config: Common & { parse: (value: string) => T; required: true },
): OptionDef<F, T>;
export function value<const F extends string, T>(
  flags: F,
  description: string,
  config: Common & { parse: (value: string) => T },
): OptionDef<F, T | undefined>;
export function value<const F extends string>(
  flags: F,
  description: string,
  config: Common & ({ default: string } | { required: true }),
): OptionDef<F, string>;
export function value<const F extends string>(
  flags: F,
  description: string,
  config?: Common,
): OptionDef<F, string | undefined>;
export function value(
  flags: string,
  description: string,
  config: Common & {
    parse?: (value: string) => unknown;
    default?: unknown;
    required?: boolean;
  } = {},
): OptionDef {
  const { parse, default: defaultValue, ...rest } = config;
  return { flags, description, parse, defaultValue, ...rest };
}

/**
 * A repeatable option (`--event <name>`, given any number of times); with `parse`, each value
 * is parsed as it comes (a bad one is a usage error before run) and run gets the parsed list.
 */
export function list<const F extends string, T>(
  flags: F,
  description: string,
  config: Common & { parse: (value: string) => T },
): OptionDef<F, T[] | undefined>;
export function list<const F extends string>(
  flags: F,
  description: string,
  config?: Common,
): OptionDef<F, string[] | undefined>;
export function list(
  flags: string,
  description: string,
  config: Common & { parse?: (value: string) => unknown } = {},
): OptionDef {
  const { parse: each, ...rest } = config;
  const parse = each
    ? (value: string, previous: unknown[] | undefined) => [...(previous ?? []), each(value)]
    : collect;
  return { flags, description, repeatable: true, parse, ...rest };
}

// ---------------------------------------------------------------------------------------------
// Arguments

export interface ArgumentDef<S extends string = string, V = unknown> {
  readonly name: S;
  readonly description: string;
  /** Checks and turns the value as given (all of them, for `[x...]`) into what run gets. */
  readonly parse?: (value: never) => V;
  /** Phantom: the type of the value `run` receives. */
  readonly __value?: V;
}

export function arg<const S extends string>(
  name: S,
  description: string,
): ArgumentDef<S, ArgValue<S>>;
export function arg<const S extends string, V>(
  name: S,
  description: string,
  config: { parse: (value: ArgValue<S>) => V },
): ArgumentDef<S, V>;
export function arg(
  name: string,
  description: string,
  config: { parse?: (value: never) => unknown } = {},
): ArgumentDef {
  return { name, description, parse: config.parse };
}

type ArgValue<S extends string> = S extends `${string}...${string}`
  ? string[]
  : S extends `<${string}`
    ? string
    : string | undefined;

// ---------------------------------------------------------------------------------------------
// A verb's input: its arguments and options, and the typed object run receives

/**
 * How an `exclusive` group of options is checked, when the default ("give only one of --a and
 * --b", none required) is not enough: the arguments as one more choice, one choice required,
 * the words of the errors.
 */
export interface ExclusiveGroup {
  /** The group named by the options' `exclusive`. */
  readonly name: string;
  /** Giving the arguments is one of the choices (`webhooks rm <uuid>... | --url | --all`). */
  readonly args?: boolean;
  /** One of the choices must be given; `missing` says what to give. */
  readonly required?: boolean;
  readonly missing?: string;
  /** Instead of "give only one of --a and --b". */
  readonly tooMany?: string;
  readonly hint?: string;
}

export interface InputDef<
  A extends readonly ArgumentDef[] = readonly ArgumentDef[],
  O extends readonly OptionDef[] = readonly OptionDef[],
> {
  readonly args: A;
  readonly options: O;
  readonly groups?: readonly ExclusiveGroup[];
}

export function input<
  const A extends readonly ArgumentDef[] = readonly [],
  const O extends readonly OptionDef[] = readonly [],
>(def: { args?: A; options?: O; groups?: readonly ExclusiveGroup[] }): InputDef<A, O> {
  return {
    args: def.args ?? ([] as unknown as A),
    options: def.options ?? ([] as unknown as O),
    groups: def.groups,
  };
}

/** Only literal names become fields (a definition typed loosely adds none). */
type Known<K extends string> = string extends K ? never : K;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The validated, typed object a verb's `run` receives. */
export type InputOf<I> =
  I extends InputDef<infer A, infer O>
    ? Simplify<
        {
          [D in A[number] as Known<ArgKey<D['name']>>]: D extends ArgumentDef<string, infer V>
            ? V
            : never;
        } & {
          [D in O[number] as Known<OptionKey<D['flags']>>]: D extends OptionDef<string, infer V>
            ? V
            : never;
        }
      >
    : never;

// ---------------------------------------------------------------------------------------------
// Commands

/** What each src/commands/<noun>/<verb>.ts exports; `program` is the whole command tree. */
export interface CommandModule<T> {
  run: (ctx: Context, opts: T, program: Command) => Promise<void>;
}

/** What a verb's `--json` prints, and its exit codes beyond the common ones (for docs/). */
export interface CommandDocs {
  /** The shape of the JSON output, e.g. `[{"code","url"}]`, with a sentence if needed. */
  json?: string;
  /** Exit codes this command gives a meaning of its own. */
  exitCodes?: ReadonlyArray<readonly [code: number, meaning: string]>;
}

export interface CommandDef extends CommandDocs {
  /**
   * The output formats (-o, --json) this command can print; every command that runs declares
   * them (a test walks the tree). Asking for another is a usage error before anything runs.
   */
  readonly formats?: readonly OutputFormat[];
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly description: string;
  readonly hidden?: boolean;
  readonly input?: InputDef;
  readonly examples?: readonly string[];
  readonly load?: () => Promise<CommandModule<never>>;
  readonly commands?: readonly CommandDef[];
}

/** Declares a command; `load` must give a run that accepts exactly this input. */
export function command<I extends InputDef = InputDef<readonly [], readonly []>>(
  def: Omit<CommandDef, 'input' | 'load'> & {
    input?: I;
    load?: () => Promise<CommandModule<InputOf<NoInfer<I>>>>;
  },
): CommandDef {
  return def as CommandDef;
}

/** Turns a command's loader into a commander action handler (real run, or inert in tests). */
export type Act = (def: CommandDef) => (...args: unknown[]) => Promise<void>;

const definitions = new WeakMap<Command, CommandDef>();

/** The definition a commander command was registered from (docs and the man page read it). */
export function definitionOf(cmd: Command): CommandDef | undefined {
  return definitions.get(cmd);
}

/** The subcommands help, the reference and completion show: those not declared hidden. */
export function visibleCommands(cmd: Command): Command[] {
  return cmd.commands.filter((k) => !definitionOf(k)?.hidden);
}

/** The commander options registered from a repeatable definition (list()). */
const repeatables = new WeakSet<Option>();

/** Whether the option may be given several times: what its definition says, nothing else. */
export function isRepeatable(opt: Option): boolean {
  return repeatables.has(opt);
}

export function commanderOption(o: OptionDef): Option {
  const opt = new Option(o.flags, o.description);
  if (o.repeatable) repeatables.add(opt);
  if (o.parse) opt.argParser(o.parse as (value: string, previous: unknown) => unknown);
  if (o.defaultValue !== undefined) opt.default(o.defaultValue);
  if (o.required) opt.makeOptionMandatory();
  if (o.hidden) opt.hideHelp();
  return opt;
}

/** Adds the command (and its subcommands) to `parent`, as commander calls would. */
export function register(parent: Command, def: CommandDef, act: Act): Command {
  const cmd = parent.command(def.name, def.hidden ? { hidden: true } : {});
  definitions.set(cmd, def);
  for (const a of def.aliases ?? []) cmd.alias(a);
  cmd.description(def.description);
  for (const a of def.input?.args ?? []) cmd.argument(a.name, a.description);
  for (const o of def.input?.options ?? []) cmd.addOption(commanderOption(o));
  if (def.load) cmd.action(act(def));
  if (def.load) cmd.addHelpText('after', formatsHelp(def.formats ?? ALL_FORMATS));
  if (def.examples) examples(cmd, def.examples);
  for (const sub of def.commands ?? []) register(cmd, sub, act);
  return cmd;
}

/**
 * Options of one `exclusive` group given together are a usage error: a value option counts
 * every time it is given (`times`; commander would keep the last), a switch once; with the
 * group's declaration (`groups`), the arguments count as one choice and one may be required.
 */
export function checkExclusive(cmd: Command, def: CommandDef, times: (o: Option) => number): void {
  const inputDef = def.input ?? { args: [], options: [], groups: [] };
  const groups = new Map<string, { flags: string[]; given: number }>();
  for (const o of inputDef.options) {
    if (!o.exclusive) continue;
    const g = groups.get(o.exclusive) ?? { flags: [], given: 0 };
    const opt = cmd.options.find((k) => k.flags === o.flags)!;
    g.flags.push(opt.long!);
    g.given += opt.required ? times(opt) : Math.min(times(opt), 1);
    groups.set(o.exclusive, g);
  }
  for (const [name, { flags, given }] of groups) {
    const declared = inputDef.groups?.find((d) => d.name === name);
    const choices = given + (declared?.args && cmd.args.length > 0 ? 1 : 0);
    if (choices > 1) {
      const names = `${flags.slice(0, -1).join(', ')} and ${flags[flags.length - 1]}`;
      throw new UsageError(declared?.tooMany ?? `give only one of ${names}`, {
        hint: declared?.hint,
      });
    }
    if (choices === 0 && declared?.required) {
      throw new UsageError(declared.missing ?? `give one of ${flags.join(', ')}`, {
        hint: declared.hint,
      });
    }
  }
}

/**
 * The typed input of an invocation: each argument under its camel-cased name (through its
 * parser), each option as commander parsed it (defaults applied there, from the definition).
 */
export function readInput(cmd: Command, def: CommandDef): object {
  const inputDef = def.input ?? { args: [], options: [] };
  const out: Record<string, unknown> = { ...cmd.opts() };
  // An option a subcommand shares with its group (`sandbox --api-key`, `sandbox book
  // --api-key`) is parsed by the group, wherever it is on the line: read it from there.
  for (const o of cmd.options) {
    const key = o.attributeName();
    const shared = cmd.parent?.options.some((p) => p.long === o.long);
    if (out[key] === undefined && shared) out[key] = cmd.parent!.getOptionValue(key);
  }
  inputDef.args.forEach((a, i) => {
    const raw = cmd.processedArgs[i] as never;
    out[camel(a.name.replace(/^[<[]|(\.\.\.)?[>\]]$/g, ''))] = a.parse ? a.parse(raw) : raw;
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Parsers and help text shared by the definitions

/** A command's examples, each naming the program as it was invoked (the root's name). */
export function examples(cmd: Command, lines: readonly string[]): Command {
  let root = cmd;
  while (root.parent) root = root.parent;
  const named = (l: string) => l.replace(/^sched(?= )/, root.name());
  return cmd.addHelpText(
    'after',
    '\nExamples:\n' +
      lines.map((l) => (l.startsWith('#') ? `  ${l}` : `  $ ${named(l)}`)).join('\n') +
      '\n',
  );
}

/** What a command's help says about the formats it prints (the docs page says the same). */
export function formatsHelp(formats: readonly OutputFormat[]): string {
  return `\nOutput formats: ${formats.join(', ')} (-o <format>; --json is -o json)`;
}

export function positiveInt(what: string, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const v = value.trim();
    if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > max) {
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `${what} must be a whole number of at least 1`
          : `${what} must be a whole number from 1 to ${max}`,
      );
    }
    return Number(v);
  };
}

/** A whole number from 0 to `max` (a seed, a count that may be zero). */
export function wholeNumber(what: string, max: number) {
  return (value: string): number => {
    const v = value.trim();
    if (!/^\d+$/.test(v) || Number(v) > max) {
      throw new InvalidArgumentError(`${what} must be a whole number from 0 to ${max}`);
    }
    return Number(v);
  };
}

/** A number of seconds greater than 0 (fractions allowed), at most a day. */
export function seconds(what: string) {
  return (value: string): number => {
    const v = value.trim();
    if (!/^\d+(\.\d+)?$/.test(v) || Number(v) <= 0 || Number(v) > 86400) {
      throw new InvalidArgumentError(`${what} must be a number of seconds greater than 0`);
    }
    return Number(v);
  };
}

export function portNumber(value: string): number {
  const v = value.trim();
  if (!/^\d+$/.test(v) || Number(v) > 65535) {
    throw new InvalidArgumentError('port must be a whole number from 0 to 65535');
  }
  return Number(v);
}

/** Collects a repeatable option into an array. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * Why a secret is better not given as a flag, said the same way in every --secret help: the
 * command line of a running process is visible to other users of the machine.
 */
export const SECRET_FLAG_RISK =
  'a value given here is visible to other users in `ps` while it runs';

/**
 * `--secret <secret>` of the commands that sign or verify (listen, events send, sig sign/verify):
 * what it is for, where else the secret comes from, and the `ps` risk.
 */
export function webhookSecretOption(use: string, otherwise: string) {
  return value(
    '--secret <secret>',
    `${use} (else SCHED_WEBHOOK_SECRET${otherwise}); ${SECRET_FLAG_RISK}: prefer SCHED_WEBHOOK_SECRET`,
  );
}

/** Where the local servers (`sandbox`, `webhooks listen`) listen unless --host says otherwise. */
export const LOCAL_HOST = '127.0.0.1';

/** `--page`, `--limit` and `--all`, the same on every list command (with PAGE_GROUP). */
export const PAGE_OPTIONS = [
  value('--page <n>', 'page number to read', { parse: positiveInt('--page'), exclusive: 'page' }),
  value('--limit <n>', 'page size (items per page)', { parse: positiveInt('--limit') }),
  flag('--all', 'read every page', { exclusive: 'page' }),
] as const;

/** --page and --all exclude each other: --all reads every page. */
export const PAGE_GROUP: ExclusiveGroup = {
  name: 'page',
  hint: '--all reads every page; --limit sets the page size it uses',
};

/** What a list command receives from PAGE_OPTIONS. */
export type PageOptions = InputOf<InputDef<readonly [], typeof PAGE_OPTIONS>>;

// ---------------------------------------------------------------------------------------------
// Output formats

/** Records: every format. The other sets (TEXT_OR_JSON, NO_CSV, TEXT_ONLY) follow the rows. */
export const ALL_FORMATS: readonly OutputFormat[] = OUTPUT_FORMATS;
export { NO_CSV, TEXT_ONLY, TEXT_OR_JSON } from '../output/formats.js';

/**
 * Checks the asked output format against what the command prints, before anything runs:
 * `--json` with an `-o` other than json asks for two formats, and a format the command cannot
 * print is never silently replaced by another. Both are usage errors naming what it prints.
 */
export function checkOutputFormat(def: CommandDef, path: string, asked: AskedFormat): void {
  const formats = def.formats ?? ALL_FORMATS;
  const prints = `${path} prints ${formats.join(', ')}`;
  if (twoFormatsAsked(asked)) {
    throw new UsageError(`--json and -o ${asked.output} ask for two formats; ${prints}`, {
      hint: '--json is -o json: give one of them',
    });
  }
  const format = askedFormat(asked);
  if (format !== undefined && !formats.includes(format)) {
    throw new UsageError(`${path} cannot print ${format}; it prints ${formats.join(', ')}`, {
      hint: `choose one with -o ${formats.join('|')}`,
    });
  }
}
