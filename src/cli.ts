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
  QuietExit,
  UsageError,
} from './errors.js';
import type { IO } from './io.js';
import { withCsvBom } from './output/csv.js';
import type { Prompter } from './prompt.js';
import { didYouMean, nearest } from './text/suggest.js';
import { asInvoked } from './names.js';
import {
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
import { auth } from './commands/auth/index.js';
import { profiles } from './commands/profiles/index.js';
import { types } from './commands/types/index.js';
import { link } from './commands/link/index.js';
import { webhooks } from './commands/webhooks/index.js';
import { events } from './commands/events/index.js';
import { sig } from './commands/sig/index.js';
import { sandbox } from './commands/sandbox/index.js';
import { api } from './commands/api/index.js';
import { mcp } from './commands/mcp/index.js';
import { complete, completion } from './commands/completion/index.js';

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

/** Every command under `sched`, in the order help lists them. */
export const COMMANDS: readonly CommandDef[] = [
  auth,
  profiles,
  types,
  link,
  webhooks,
  events,
  sig,
  sandbox,
  api,
  mcp,
  completion,
  complete,
];

function visibleNames(c: Command): string[] {
  return c.commands
    .filter((k) => !(k as unknown as { _hidden?: boolean })._hidden)
    .flatMap((k) => [k.name(), ...k.aliases()]);
}

/**
 * Subcommand groups: a help command worded like ours, and a stray word reported as a mistyped
 * subcommand with a suggestion (a group that also runs on its own, like `sandbox`, would
 * otherwise answer "too many arguments").
 */
function polishGroups(c: Command): void {
  for (const group of c.commands) {
    if (group.commands.length === 0) continue;
    group.helpCommand('help [command]', 'Show help for a subcommand');
    group.allowExcessArguments(true);
    group.hook('preAction', (_hooked, action) => {
      if (action !== group || action.args.length === 0) return;
      unknownCommand(group, action.args[0]!);
    });
    polishGroups(group);
  }
}

/**
 * A group that also runs on its own (`sched sandbox` serves) keeps its options to that run: a
 * subcommand's help lists as inherited only the root's global options (not `--port`, nor a
 * second `--api-key`), and refuseGroupOptions refuses the group's options given to one.
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

/**
 * An option of a group that runs on its own (the server's `--port`, `--state`, `--faults`,
 * `--seed` of `sched sandbox`), given to one of its subcommands: commander parses it as the
 * group's, where the subcommand would silently ignore it. A usage error instead; an option
 * both have (`--api-key`) is the subcommand's (readInput reads it from the group).
 */
function refuseGroupOptions(cmd: Command): void {
  const group = cmd.parent;
  if (!group || !definitionOf(group)?.load) return;
  for (const [o, times] of givenCounts.get(group) ?? []) {
    if (times === 0 || cmd.options.some((k) => k.long === o.long)) continue;
    throw new UsageError(
      `${o.long!} is an option of \`${commandPath(group)}\` (the server), not of \`${commandPath(cmd)}\``,
      { hint: `\`${commandPath(cmd)} --help\` lists its options` },
    );
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

/** A usage error ends with the help command of the command it is about, as typed. */
function pointToHelp(c: Command): void {
  c.showHelpAfterError(`(run \`${commandPath(c)} --help\` for usage)`);
  c.commands.forEach(pointToHelp);
}

/** Raw values given on the command line, per command and option (see watchRepeats). */
const givenValues = new WeakMap<Command, Map<Option, string[]>>();
/** How many times each option was given, per command (for exclusive option groups). */
const givenCounts = new WeakMap<Command, Map<Option, number>>();

/** Records every value given to an option, so repeats can be told apart. */
function watchRepeats(c: Command): void {
  const seen = new Map<Option, string[]>();
  const counts = new Map<Option, number>();
  givenValues.set(c, seen);
  givenCounts.set(c, counts);
  for (const o of c.options) {
    c.on(`option:${o.name()}`, (v: unknown) => {
      counts.set(o, (counts.get(o) ?? 0) + 1);
      if (!o.required && !o.optional) return; // a switch given twice means the same
      seen.set(o, [...(seen.get(o) ?? []), String(v)]);
    });
  }
  c.commands.forEach(watchRepeats);
}

/**
 * An option that takes one value, given twice with different values (`--url a --url b`), is
 * ambiguous: commander would silently keep the last. Repeatable options (collected into a
 * list, like --event and --sort) are not concerned.
 */
function checkRepeats(cmd: Command): void {
  for (let c: Command | null = cmd; c; c = c.parent) {
    // watchRepeats covered the whole tree, and every option of ours has a long name.
    for (const [o, values] of givenValues.get(c)!) {
      if (new Set(values).size < 2 || Array.isArray(c.getOptionValue(o.attributeName()))) continue;
      throw new UsageError(
        `${o.long!} was given ${values.length} times with different values; give it once`,
      );
    }
  }
}

/** The root options that take a value (`--profile x`, `-o json`), as commander spells them. */
const VALUE_FLAGS = new Set(
  GLOBAL_INPUT.options
    .filter((o) => /[<[]/.test(o.flags))
    .flatMap((o) => o.flags.split(/[ ,|]+/).filter((w) => w.startsWith('-'))),
);

/**
 * The words of an argv that may name commands, in order, up to `--`: options are skipped, with
 * the word after them when `takesValue` says they take one. The one hand-made scan of argv
 * beside commander, for the two questions asked before it parses (groupAsked, commandReached).
 * Lazy: `takesValue` may depend on what the caller made of the words already given.
 */
function* commandWords(
  argv: readonly string[],
  takesValue: (option: string) => boolean,
): Generator<string> {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return;
    if (!a.startsWith('-')) yield a;
    else if (!a.includes('=') && takesValue(a)) i++;
  }
}

/**
 * The one command group an invocation asks for (`types` in `sched --json types list`), or
 * undefined when it is not plain which (help, completion, a word that names no group, an
 * option we do not know): then the whole tree is built. Building only the group asked for
 * saves start-up (measured: ~10 ms of CPU on Node 24 for `profiles ls`, BENCHMARKS.md); what
 * commander prints for that group is the same either way.
 */
export function groupAsked(argv: readonly string[]): CommandDef | undefined {
  for (const a of commandWords(argv, (o) => VALUE_FLAGS.has(o))) {
    const def = COMMANDS.find((d) => d.name === a || d.aliases?.includes(a));
    // `completion` prints a script of the whole tree; `__complete` needs only itself.
    return def && def !== completion ? def : undefined;
  }
  return undefined;
}

/**
 * The command tree. `act` decides what running a command means (real run, or a test). With
 * `only`, just that group is registered under the root (see groupAsked).
 */
export function buildProgram(act: Act, only?: CommandDef, name = 'sched'): Command {
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

  for (const def of only ? [only] : COMMANDS) register(program, def, act);
  polishGroups(program);
  keepOwnOptions(program);
  pointToHelp(program);
  watchRepeats(program);

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
  let output: OutputFormat = raw.output ?? 'table';
  if (raw.json) output = 'json';
  return {
    profile: raw.profile ?? (env.SCHED_PROFILE || 'default'),
    profileSource: raw.profile !== undefined ? 'flag' : env.SCHED_PROFILE ? 'env' : 'default',
    baseUrl: raw.baseUrl,
    output,
    outputGiven: raw.output !== undefined || Boolean(raw.json),
    color: raw.color !== false,
    input: raw.input !== false,
    timeoutMs: Math.round(raw.timeout * 1000),
    verbose: Boolean(raw.verbose),
    quiet: Boolean(raw.quiet),
    csvBom: Boolean(raw.csvBom) || env.SCHED_CSV_BOM === '1',
  };
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
 * The command an argv reaches (`sched webhooks add --url x` -> add): words that name a
 * subcommand are followed, options are skipped (with their value when they take one).
 */
function commandReached(program: Command, argv: readonly string[]): Command {
  let cmd = program;
  const takesValue = (a: string) => {
    const o = [...cmd.options, ...program.options].find((k) => k.long === a || k.short === a);
    return Boolean(o && (o.required || o.optional)) || a === KEY_FLAG;
  };
  for (const a of commandWords(argv, takesValue)) {
    const next = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a));
    if (!next) break;
    cmd = next;
  }
  return cmd;
}

/**
 * `--api-key` on a command that has no such option (only the sandbox's own key is one): the
 * key is never a flag, since flags stay in shell history and show in `ps`. Said before
 * commander's bare "unknown option", with where the key goes instead.
 */
function refuseKeyFlag(program: Command, argv: readonly string[]): void {
  const end = argv.indexOf('--');
  const given = (end === -1 ? argv : argv.slice(0, end)).some(
    (a) => a === KEY_FLAG || a.startsWith(`${KEY_FLAG}=`),
  );
  if (!given) return;
  const cmd = commandReached(program, argv);
  if (cmd.options.some((o) => o.long === KEY_FLAG)) return;
  throw new UsageError(
    `${KEY_FLAG} is not an option: the API key is never given on the command line (shell history and \`ps\` would keep it)`,
    { hint: 'set SCHED_API_KEY, or run `sched auth login` to store it in a profile' },
  );
}

/**
 * A mistyped command word, said with what the group has. An option the command reached does
 * not have, said before commander parses (which would
 * first report a missing required option: `sig verify --sig X` is not "--signature missing"),
 * when one of its options is plainly meant: `-count` for `--count`, a prefix of exactly one
 * (`--sig` for `--signature`), or a near spelling. Anything else is left to commander.
 */
function catchMistypes(program: Command, argv: readonly string[]): void {
  let cmd = program;
  const chain = () => {
    const opts: Option[] = [];
    for (let c: Command | null = cmd; c; c = c.parent) for (const o of c.options) opts.push(o);
    return opts;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return;
    if (!a.startsWith('-') || a === '-') {
      const next = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a));
      // A group that does not run on its own takes only its commands (commander's own
      // "unknown command" would not say what the group has).
      if (!next && cmd.commands.length > 0 && !definitionOf(cmd)?.load && a !== 'help') {
        unknownCommand(cmd, a);
      }
      cmd = next ?? cmd;
      continue;
    }
    const flag = a.split('=')[0]!;
    const opts = chain();
    const known = opts.find((o) => o.long === flag || o.short === flag);
    if (known) {
      if ((known.required || known.optional) && !a.includes('=')) i++;
      continue;
    }
    if (['-h', '--help', '-V', '--version', KEY_FLAG].includes(flag)) continue;
    const longs = opts.flatMap((o) => (o.long && !o.hidden ? [o.long] : []));
    let meant: string | undefined;
    if (/^-[a-z][a-z0-9-]+$/i.test(flag) && longs.includes(`-${flag}`)) meant = `-${flag}`;
    else if (flag.startsWith('--')) {
      const prefixed = longs.filter((l) => l.startsWith(flag));
      meant = prefixed.length === 1 ? prefixed[0] : nearest(flag, longs);
    }
    if (meant) {
      cmd.error(`error: unknown option '${flag}'\n(Did you mean ${meant}?)`, {
        code: 'commander.unknownOption',
        exitCode: ExitCode.usage,
      });
    }
  }
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
      if (globals.output === 'csv' && globals.csvBom) io = withCsvBom(io);
      checkRepeats(cmd);
      refuseGroupOptions(cmd);
      checkOutputFormat(def, commandPath(cmd), raw);
      const ctx = createContext({
        io,
        globals,
        env: deps.env,
        signal,
        version: VERSION,
        prompter: deps.prompter,
      });
      try {
        const opts = readInput(cmd, def, givenCounts.get(cmd)!);
        const mod = await def.load!();
        if (signal.aborted)
          throw new Interrupted('interrupted', { signal: signal.reason as never });
        await mod.run(ctx, opts as never, program);
      } finally {
        await ctx.runDeferred();
      }
    };

  const program = buildProgram(act, groupAsked(argv), deps.name);
  // Commander writes help to stdout and its errors to stderr through our io.
  const early = () => io ?? resolveIO(deps, { color: !argv.includes('--no-color'), noInput: true });
  const configureAll = (c: Command) => {
    c.exitOverride();
    // Help shown for a missing subcommand (`sched`, `sched webhooks`) is the answer to what
    // was typed, as with gh, docker and kubectl: stdout and exit 0. Commander's help({error:
    // true}), used only for that, would write it to stderr.
    const help = c.help.bind(c);
    c.help = (() => help()) as Command['help'];
    // Through the gate like every other write: commander's messages quote what was typed
    // (`sched $'--x\e]0;…'`), which may come from a server through a pipeline (xargs).
    c.configureOutput({
      writeOut: (s) =>
        void early()
          .out(s)
          .catch(() => {}),
      writeErr: (s) =>
        s
          .replace(/\n$/, '')
          .split('\n')
          .forEach((line) => early().err(line)),
      outputError: (s, write) => write(s.replace(/^error:/, early().colorErr.red('error:'))),
    });
    c.commands.forEach(configureAll);
  };
  configureAll(program);

  try {
    refuseKeyFlag(program, argv);
    catchMistypes(program, argv);
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (
        e.code === 'commander.helpDisplayed' ||
        e.code === 'commander.version' ||
        e.code === 'commander.help'
      ) {
        exitCode = ExitCode.ok;
      } else {
        // Our own two lines (the error, then the suggestion); err() writes one line each.
        if (e.code === 'sched.unknownHelpTopic')
          e.message.split('\n').forEach((l) => early().err(l));
        exitCode = ExitCode.usage;
      }
    } else {
      exitCode = reportError(early(), e, deps.env, deps.name);
    }
  }
  return exitCode;
}
