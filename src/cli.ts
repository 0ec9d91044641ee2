// Builds the commander program and runs one invocation. Everything here is cheap to load:
// each command's behaviour is imported only when that command runs.
import type { Option } from 'commander';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import {
  createContext,
  OUTPUT_FORMATS,
  type Env,
  type GlobalOptions,
  type OutputFormat,
} from './context.js';
import {
  errorLines,
  ExitCode,
  Interrupted,
  isSchedError,
  messageOf,
  OutputFailed,
  QuietExit,
  UsageError,
} from './errors.js';
import type { IO } from './io.js';
import { askedFormat, DEFAULT_FORMAT } from './output/formats.js';
import type { Prompter } from './prompt.js';
import { didYouMean, nearest } from './text/suggest.js';
import { asInvoked } from './names.js';
// The process's entry takes these from here: one chunk to load, no facade chunk of its own.
export { invokedName } from './names.js';
export { loadProcessIO } from './io.js';
import {
  checkExclusive,
  checkOutputFormat,
  commanderOption,
  definitionOf,
  flag,
  input,
  readInput,
  register,
  seconds,
  value,
  type Act,
  type CommandDef,
  type InputOf,
} from './commands/define.js';
import { HELP_TOPICS } from './commands/help/topics.js';

/** package.json's version, put in by the bundler (scripts/build.mjs) and by vitest.config.ts. */
declare const SCHED_VERSION: string;
export const VERSION: string = SCHED_VERSION;

export interface RunDeps {
  /** Chooses the IO once global flags are known (colour, --no-input). */
  io: IO | ((opts: { color: boolean; noInput: boolean }) => IO);
  env: Env;
  signal?: AbortSignal;
  prompter?: Prompter;
  /** The name the program was invoked as (src/names.ts); `sched` when not given. */
  name?: string;
  /** The process exits when runCli returns (see ContextDeps). */
  exits?: boolean;
}

function outputFormat(value: string): OutputFormat {
  const v = value.trim().toLowerCase();
  if (!(OUTPUT_FORMATS as readonly string[]).includes(v)) {
    throw new InvalidArgumentError(`must be one of ${OUTPUT_FORMATS.join(', ')}`);
  }
  return v as OutputFormat;
}

/** The options every command accepts (commander takes them before or after the command). */
export const GLOBAL_INPUT = input({
  options: [
    value('--profile <name>', 'profile to use (env SCHED_PROFILE; default "default")'),
    value('--base-url <url>', "API base URL (env SCHED_BASE_URL; else the profile's)"),
    flag('--json', 'print JSON (same as --output json)'),
    value('-o, --output <format>', `output format: ${OUTPUT_FORMATS.join(', ')}`, {
      parse: outputFormat,
    }),
    flag('--no-color', 'no colour (also NO_COLOR; FORCE_COLOR forces it)'),
    flag('--no-input', 'never prompt; a missing value is a usage error'),
    value('--timeout <seconds>', 'timeout per HTTP request', {
      parse: seconds('--timeout'),
      default: 30,
    }),
    flag('--verbose', 'log each HTTP request to stderr (secrets masked)'),
    flag('-q, --quiet', 'print only the essential value'),
    flag('--csv-bom', 'start CSV output with a UTF-8 BOM, for Excel (env SCHED_CSV_BOM=1)'),
  ],
});
type GlobalInput = InputOf<typeof GLOBAL_INPUT>;

/**
 * Every command group under `sched`, in the order help lists them, each loaded only when asked:
 * an invocation loads the definitions of the group it names (groupAsked), help, docs and
 * completion the whole tree.
 */
const GROUPS: Readonly<Record<string, () => Promise<CommandDef>>> = {
  auth: async () => (await import('./commands/auth/index.js')).auth,
  profiles: async () => (await import('./commands/profiles/index.js')).profiles,
  types: async () => (await import('./commands/types/index.js')).types,
  link: async () => (await import('./commands/link/index.js')).link,
  webhooks: async () => (await import('./commands/webhooks/index.js')).webhooks,
  events: async () => (await import('./commands/events/index.js')).events,
  sig: async () => (await import('./commands/sig/index.js')).sig,
  sandbox: async () => (await import('./commands/sandbox/index.js')).sandbox,
  api: async () => (await import('./commands/api/index.js')).api,
  mcp: async () => (await import('./commands/mcp/index.js')).mcp,
  completion: async () => (await import('./commands/completion/index.js')).completion,
  __complete: async () => (await import('./commands/completion/index.js')).complete,
};

function visibleNames(c: Command): string[] {
  return c.commands
    .filter((k) => !definitionOf(k)?.hidden)
    .flatMap((k) => [k.name(), ...k.aliases()]);
}

/**
 * The root and the groups answer what was typed: alone (`sched`, `sched webhooks`), their help
 * on stdout, exit 0, as gh, docker and kubectl do; a stray word, as a mistyped command with
 * what the group has and the nearest (a group that also runs on its own, like `sandbox`, would
 * otherwise answer "too many arguments"); `<group> help <stray word>` the same.
 */
function answerGroups(group: Command): void {
  if (group.commands.length === 0) return;
  if (group.parent) group.helpCommand('help [command]', 'Show help for a subcommand');
  group.allowExcessArguments(true);
  if (!definitionOf(group)?.load) group.action(() => group.outputHelp());
  group.hook('preAction', (_hooked, action) => {
    if (action === group && group.args.length > 0) unknownCommand(group, group.args[0]!);
  });
  // Commander shows a group's help as an error only for `<group> help <a word it lacks>`.
  group.on('beforeAllHelp', (help: { error: boolean; command: Command }) => {
    if (help.error && help.command === group) unknownCommand(group, group.args[1]!);
  });
  group.commands.forEach(answerGroups);
}

/**
 * A group that also runs on its own (`sched sandbox` serves) keeps its options to that run: a
 * subcommand's help lists as inherited only the root's global options (not `--port`, nor a
 * second `--api-key`), and checkGiven refuses the group's options given to one.
 */
function keepOwnOptions(c: Command): void {
  for (const group of c.commands) {
    if (group.commands.length === 0) continue;
    if (definitionOf(group)?.load) {
      for (const sub of group.commands) {
        sub.configureHelp({
          ...sub.configureHelp(),
          visibleGlobalOptions: (cmd: Command) => {
            const out: Option[] = [];
            for (let a = cmd.parent; a; a = a.parent) {
              if (!a.parent) for (const o of a.options) if (!o.hidden) out.push(o);
            }
            return out;
          },
        });
      }
    }
    keepOwnOptions(group);
  }
}

/** A word that names none of a group's commands: what the group has, and the nearest. */
function unknownCommand(group: Command, word: string): never {
  const names = visibleNames(group);
  group.error(
    `error: unknown command '${word}'; \`${commandPath(group)}\` has: ${names.join(', ')}${didYouMean(word, names)}`,
    { code: 'commander.unknownCommand', exitCode: ExitCode.usage },
  );
}

/**
 * What commander's parse saw given to each command, checked before a command runs (a preAction
 * hook of each command, for the commands on the path to the one that runs):
 * - an option that takes one value, given twice with different values (`--url a --url b`), is
 *   ambiguous where commander would silently keep the last (lists, like --event, collect);
 * - an option of a group that runs on its own (the server's `--port`, `--state`, `--faults`,
 *   `--seed` of `sched sandbox`), given to one of its subcommands, which would silently ignore
 *   it; an option both have (`--api-key`) is the subcommand's (readInput reads it there);
 * - for the command that runs: the output format it can print, and its exclusive groups.
 */
function checkGiven(c: Command): void {
  const given = new Map<Option, string[]>();
  for (const o of c.options) {
    c.on(`option:${o.name()}`, (v: unknown) => given.set(o, [...(given.get(o) ?? []), String(v)]));
  }
  const def = definitionOf(c);
  c.hook('preAction', (_hooked, action) => {
    for (const [o, values] of given) {
      if (!o.required || new Set(values).size < 2) continue;
      if (Array.isArray(c.getOptionValue(o.attributeName()))) continue;
      throw new UsageError(
        `${o.long!} was given ${values.length} times with different values; give it once`,
      );
    }
    if (action !== c && def?.load) {
      const o = [...given.keys()].find((k) => !action.options.some((a) => a.long === k.long));
      if (o) {
        throw new UsageError(
          `${o.long!} is an option of \`${commandPath(c)}\` (the server), not of \`${commandPath(action)}\``,
          { hint: `\`${commandPath(action)} --help\` lists its options` },
        );
      }
    }
    if (action === c && def) {
      checkOutputFormat(def, commandPath(c), c.optsWithGlobals());
      checkExclusive(c, def, (o) => given.get(o)?.length ?? 0);
    }
  });
  c.commands.forEach(checkGiven);
}

/** The root options that take a value (`--profile x`, `-o json`), as commander spells them. */
const VALUE_FLAGS = new Set(
  GLOBAL_INPUT.options
    .filter((o) => /[<[]/.test(o.flags))
    .flatMap((o) => o.flags.split(/[ ,|]+/).filter((w) => w.startsWith('-'))),
);

/**
 * The one command group an invocation asks for (`types` in `sched --json types list`), or
 * undefined when it is not plain which (help, completion, a word that names no group, an
 * option we do not know): then the whole tree is built. Loading and building only the group
 * asked for saves start-up (BENCHMARKS.md); what commander prints for that group is the same
 * either way.
 */
export function groupAsked(argv: readonly string[]): string | undefined {
  const [first] = commandWords(argv);
  // `completion` prints a script of the whole tree; `__complete` needs only itself.
  return first && Object.hasOwn(GROUPS, first) && first !== 'completion' ? first : undefined;
}

/** The words of argv that may name commands: before `--`, without options and their values. */
function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length && argv[i] !== '--'; i++) {
    if (!argv[i]!.startsWith('-')) words.push(argv[i]!);
    else if (VALUE_FLAGS.has(argv[i]!)) i++;
  }
  return words;
}

/**
 * The command tree. `act` decides what running a command means (real run, or a test). With
 * `only`, just that group is loaded and registered under the root (see groupAsked).
 */
export async function buildProgram(act: Act, only?: string, name = 'sched'): Promise<Command> {
  const defs = await Promise.all((only ? [only] : Object.keys(GROUPS)).map((g) => GROUPS[g]!()));
  const program = new Command(name)
    .description(
      asInvoked(
        'Meeting types, single-use links, webhooks and signed events from the terminal ' +
          '(try it all locally with `sched sandbox`)',
        name,
      ),
    )
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .helpCommand(false)
    // Every command's help lists the global options it inherits (gh's INHERITED FLAGS):
    // `--json` or `--profile` is not missing just because the command did not declare it.
    .configureHelp({ showGlobalOptions: true });
  for (const o of GLOBAL_INPUT.options) program.addOption(commanderOption(o));

  for (const def of defs) register(program, def, act);
  answerGroups(program);
  keepOwnOptions(program);
  checkGiven(program);

  program
    .command('help')
    .description('Show help for a command, or a topic: environment, exit-codes')
    .argument('[command-or-topic...]', 'a command path (e.g. "webhooks add") or a topic')
    .action(async (words: string[], _opts: unknown, cmd: Command) => {
      const out = (s: string) => cmd.parent!.configureOutput().writeOut!(s);
      const topic = words.length === 1 ? HELP_TOPICS[words[0]!] : undefined;
      if (topic) {
        out(topic.text);
        return;
      }
      let target: Command = program;
      for (const w of words) {
        const next = target.commands.find((c) => c.name() === w || c.aliases().includes(w));
        if (!next) {
          const near = [
            ...visibleNames(target),
            ...(target === program ? Object.keys(HELP_TOPICS) : []),
          ];
          throw new CommanderError(
            ExitCode.usage,
            'sched.unknownHelpTopic',
            `error: no command or help topic "${words.join(' ')}"; topics: ${Object.keys(HELP_TOPICS).join(', ')}${didYouMean(w, near)}`,
          );
        }
        target = next;
      }
      // outputHelp, not helpInformation: it includes the examples and the topics added below.
      target.outputHelp();
    });
  program.addHelpText(
    'after',
    '\nHelp topics:\n' +
      Object.entries(HELP_TOPICS)
        .map(([k, v]) => `  ${name} help ${k.padEnd(12)} ${v.summary}`)
        .join('\n') +
      '\n',
  );
  return program;
}

function resolveGlobals(raw: GlobalInput, env: Env): GlobalOptions {
  return {
    profile: raw.profile ?? (env.SCHED_PROFILE || 'default'),
    profileSource: raw.profile !== undefined ? 'flag' : env.SCHED_PROFILE ? 'env' : 'default',
    baseUrl: raw.baseUrl,
    output: askedFormat(raw) ?? DEFAULT_FORMAT,
    outputGiven: askedFormat(raw) !== undefined,
    color: raw.color !== false,
    input: raw.input !== false,
    timeoutMs: Math.round(raw.timeout * 1000),
    verbose: Boolean(raw.verbose),
    quiet: Boolean(raw.quiet),
    csvBom: Boolean(raw.csvBom) || env.SCHED_CSV_BOM === '1',
  };
}

/** The deepest command the words of argv name (`types list -o yaml` → types list). */
function typedCommand(program: Command, argv: readonly string[]): Command {
  let target = program;
  for (const w of commandWords(argv)) {
    target = target.commands.find((k) => k.name() === w || k.aliases().includes(w)) ?? target;
  }
  return target;
}

/** `sched webhooks add`, as the user typed the path to it. */
function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function resolveIO(deps: RunDeps, g: { color: boolean; noInput: boolean }): IO {
  return typeof deps.io === 'function' ? deps.io(g) : deps.io;
}

/**
 * Writes a typed error as one clear line (plus details) and returns its exit code. The
 * commands it quotes name the program as invoked (`name`, see src/names.ts).
 */
export function reportError(io: IO, e: unknown, env: Env, name = 'sched'): number {
  const red = (s: string) => io.colorErr.red(s);
  const said = (s: string) => asInvoked(s, name);
  if (isSchedError(e)) {
    if (e instanceof QuietExit) return e.exitCode;
    // A reader that left a command that changed nothing (`| head -1`): the quiet Unix stop.
    if (e instanceof OutputFailed && e.quiet) return ExitCode.ok;
    for (const line of errorLines(e, { error: red, hint: (s) => io.colorErr.dim(s) })) {
      io.err(said(line));
    }
    return e.exitCode;
  }
  const msg = messageOf(e);
  io.err(`${red('error:')} unexpected failure: ${msg}`);
  if (env.SCHED_DEBUG && e instanceof Error && e.stack)
    e.stack.split('\n').forEach((l) => io.err(l));
  else io.err(io.colorErr.dim('hint: set SCHED_DEBUG=1 for details, and please report this bug'));
  return ExitCode.failure;
}

/** The flag people coming from other API tools type for the key (Stripe's `--api-key`). */
const KEY_FLAG = '--api-key';

/**
 * An option commander did not know, on the command it reports (its unknown-option error, or a
 * missing required option reported before it): commander leaves it in that command's `args`,
 * after the operands, which are never options. `--api-key` is refused with where the key goes
 * (only the sandbox's own key is an option, and then commander knows it): flags stay in shell
 * history and show in `ps`. An option that is plainly meant is suggested: `-count` for
 * `--count`, a prefix of exactly one (`--sig` for `--signature`), or a near spelling; anything
 * else is said as commander says it.
 */
function unknownOption(c: Command, e: CommanderError): string[] {
  const known = ['commander.unknownOption', 'commander.missingMandatoryOptionValue'];
  const given = known.includes(e.code) ? c.args.find((a) => /^-[^\d]/.test(a)) : undefined;
  const flag = given?.split('=')[0];
  if (flag === KEY_FLAG) {
    throw new UsageError(
      `${KEY_FLAG} is not an option: the API key is never given on the command line (shell history and \`ps\` would keep it)`,
      { hint: 'set SCHED_API_KEY, or run `sched auth login` to store it in a profile' },
    );
  }
  const longs: string[] = [];
  for (let k: Command | null = c; k; k = k.parent) {
    for (const o of k.options) if (o.long && !o.hidden) longs.push(o.long);
  }
  let meant: string | undefined;
  if (flag && longs.includes(`-${flag}`)) meant = `-${flag}`;
  else if (flag?.startsWith('--')) {
    const prefixed = longs.filter((l) => l.startsWith(flag));
    meant = prefixed.length === 1 ? prefixed[0] : nearest(flag, longs);
  }
  return meant
    ? [`error: unknown option '${flag!}'`, `(Did you mean ${meant}?)`]
    : e.message.split('\n');
}

/** Runs one invocation and returns the exit code. Never calls process.exit. */
export async function runCli(argv: string[], deps: RunDeps): Promise<number> {
  const signal = deps.signal ?? new AbortController().signal;
  let io: IO | undefined;
  let exitCode = 0;

  const act: Act =
    (def: CommandDef) =>
    async (...params: unknown[]) => {
      const cmd = params[params.length - 1] as Command;
      // The root's options, typed by GLOBAL_INPUT (commander applied its defaults).
      const raw = program.opts<GlobalInput>();
      const globals = resolveGlobals(raw, deps.env);
      io = resolveIO(deps, { color: globals.color, noInput: !globals.input });
      const ctx = createContext({
        io,
        globals,
        env: deps.env,
        signal,
        version: VERSION,
        prompter: deps.prompter,
        exits: deps.exits,
      });
      try {
        const opts = readInput(cmd, def);
        const mod = await def.load!();
        if (signal.aborted)
          throw new Interrupted('interrupted', { signal: signal.reason as never });
        await mod.run(ctx, opts as never, program);
      } finally {
        await ctx.runDeferred();
      }
    };

  const program = await buildProgram(act, groupAsked(argv), deps.name);
  // Commander writes help to stdout through our io; its errors are said below.
  const early = () =>
    io ?? resolveIO(deps, { color: program.getOptionValue('color') !== false, noInput: true });
  let helpWritten = Promise.resolve();
  let helpFailure: unknown;
  const configureAll = (c: Command) => {
    // Through the gate like every other write: commander's messages quote what was typed
    // (`sched $'--x\e]0;…'`), which may come from a server through a pipeline (xargs).
    c.configureOutput({
      writeOut: (s) => {
        // In order; a failure (a full disk) is reported once the help is done (helpFailure).
        helpWritten = helpWritten
          .then(() => early().out(s))
          .catch((e: unknown) => {
            helpFailure ??= e;
          });
      },
      writeErr: (s) =>
        s
          .trimEnd()
          .split('\n')
          .forEach((line) => early().err(line)),
      outputError: () => {},
    });
    // A usage error ends with the help command of the command it is about, as typed.
    c.exitOverride((e) => {
      if (e.exitCode === 0) throw e;
      // A global option's bad value (`types list -o yaml`) is reported by the program: the
      // help is still that of the command typed.
      const about =
        c === program && e.code === 'commander.invalidArgument' ? typedCommand(program, argv) : c;
      const lines = [...unknownOption(c, e), `(run \`${commandPath(about)} --help\` for usage)`];
      lines[0] = lines[0]!.replace(/^error:/, early().colorErr.red('error:'));
      lines.forEach((line) => early().err(line));
      throw e;
    });
    c.commands.forEach(configureAll);
  };
  configureAll(program);

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      // Our own two lines (the error, then the suggestion); err() writes one line each.
      if (e.code === 'sched.unknownHelpTopic') e.message.split('\n').forEach((l) => early().err(l));
      exitCode = e.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    } else {
      exitCode = reportError(early(), e, deps.env, deps.name);
    }
  }
  await helpWritten;
  if (helpFailure !== undefined) exitCode = reportError(early(), helpFailure, deps.env, deps.name);
  return exitCode;
}
