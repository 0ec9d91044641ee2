// The syntax forms users type, pinned: what each prints on stdout and stderr and its exit code.
// Written before the hand scans of argv left src/cli.ts (issue 39), so that commander's own
// parse, through its public API, is held to answer every form as they did.
import { describe, expect, it } from 'vitest';
import { useConfigDir } from './helpers/config-dir.js';
import { runSched } from './helpers/run.js';
import { OUTPUT_FORMATS } from '../src/output/formats.js';

const config = useConfigDir('sched-syntax-');
/** What `sig sign` prints for this payload and the secret "abc". */
const PAYLOAD = '{"a":1}\n';
const SIGNATURE = 'jIXLw29CnGL3lhIDUUJlBc0zjlpn9MoDATtnE0EctvY=';
/** The format table's names, as commander and our refusals list them. */
const FORMATS = OUTPUT_FORMATS.join(', ');
const USAGE = (path: string) => `(run \`${path} --help\` for usage)\n`;
const KEY_REFUSAL =
  'error: --api-key is not an option: the API key is never given on the command line (shell history and `ps` would keep it)\n' +
  'hint: set SCHED_API_KEY, or run `sched auth login` to store it in a profile\n';

interface Row {
  argv: string[];
  code: number;
  /** Exact text, or a pattern. */
  stdout: string | RegExp;
  stderr: string | RegExp;
}

const ROWS: Record<string, Row> = {
  // Values: --opt=v, -o json, -ojson, --output=x, global options before or after the command.
  '--opt=v': {
    argv: ['sig', 'sign', '--secret=abc'],
    code: 0,
    stdout: `${SIGNATURE}\n`,
    stderr: '',
  },
  '--opt v': {
    argv: ['sig', 'sign', '--secret', 'abc'],
    code: 0,
    stdout: `${SIGNATURE}\n`,
    stderr: '',
  },
  '-o json after': {
    argv: ['sig', 'sign', '--secret', 'abc', '-o', 'json'],
    code: 0,
    stdout: `{"signature":"${SIGNATURE}"}\n`,
    stderr: '',
  },
  '-o json before': {
    argv: ['-o', 'json', 'sig', 'sign', '--secret', 'abc'],
    code: 0,
    stdout: `{"signature":"${SIGNATURE}"}\n`,
    stderr: '',
  },
  '-ojson': {
    argv: ['sig', 'sign', '--secret', 'abc', '-ojson'],
    code: 0,
    stdout: `{"signature":"${SIGNATURE}"}\n`,
    stderr: '',
  },
  '--output=json': {
    argv: ['sig', '--output=json', 'sign', '--secret', 'abc'],
    code: 0,
    stdout: `{"signature":"${SIGNATURE}"}\n`,
    stderr: '',
  },
  '--json': {
    argv: ['--json', 'sig', 'sign', '--secret=abc'],
    code: 0,
    stdout: `{"signature":"${SIGNATURE}"}\n`,
    stderr: '',
  },
  '-q and -o json grouped (-qojson)': {
    argv: ['sig', 'sign', '--secret', 'abc', '-qojson'],
    code: 0,
    stdout: `{"signature":"${SIGNATURE}"}\n`,
    stderr: '',
  },
  'a bad value': {
    argv: ['-o', 'xml', 'sig', 'sign', '--secret', 'abc'],
    code: 2,
    stdout: '',
    stderr:
      `error: option '-o, --output <format>' argument 'xml' is invalid. must be one of ${FORMATS}\n` +
      USAGE('sched sig sign'),
  },
  "a bad value after the command: its help, not the program's": {
    argv: ['types', 'list', '-o', 'yaml'],
    code: 2,
    stdout: '',
    stderr:
      `error: option '-o, --output <format>' argument 'yaml' is invalid. must be one of ${FORMATS}\n` +
      USAGE('sched types list'),
  },
  "a bad value after a global option's value that names a command": {
    // "types" is the profile's name here: the usage is the program's (no command was typed).
    argv: ['--profile', 'types', '-o', 'yaml'],
    code: 2,
    stdout: '',
    stderr:
      "error: option '-o, --output <format>' argument 'yaml' is invalid. must be one of table, json, ndjson, csv\n" +
      USAGE('sched'),
  },
  'a bad value with no command': {
    argv: ['-o', 'yaml'],
    code: 2,
    stdout: '',
    stderr:
      `error: option '-o, --output <format>' argument 'yaml' is invalid. must be one of ${FORMATS}\n` +
      USAGE('sched'),
  },
  'two formats': {
    argv: ['--json', '-o', 'csv', 'profiles', 'ls'],
    code: 2,
    stdout: '',
    stderr:
      `error: --json and -o csv ask for two formats; sched profiles ls prints ${FORMATS}\n` +
      'hint: --json is -o json: give one of them\n',
  },
  // --no-*: a negated switch, and one of an exclusive group.
  '--no-color': {
    argv: ['sig', 'sign', '--no-color', '--secret', 'abc'],
    code: 0,
    stdout: `${SIGNATURE}\n`,
    stderr: '',
  },
  '--no-secret with --secret': {
    argv: ['webhooks', 'add', '--url', 'https://example.com/h', '--no-secret', '--secret', 'x'],
    code: 2,
    stdout: '',
    stderr: 'error: give only one of --secret, --secret-stdin and --no-secret\n',
  },
  '--no-input': {
    argv: ['--no-input', 'sig', 'sign'],
    code: 2,
    stdout: '',
    stderr: /^error: .*secret/,
  },
  // `--`: what follows is an argument, never an option.
  '-- then an option word': {
    argv: ['profiles', 'ls', '--', '--json'],
    code: 2,
    stdout: '',
    stderr:
      "error: too many arguments for 'ls'. Expected 0 arguments but got 1.\n" +
      USAGE('sched profiles ls'),
  },
  // (commander reads the words after a leading `--` as the command, as it always has)
  '-- before the command': {
    argv: ['--', 'profiles', 'ls'],
    code: 0,
    stdout: '',
    stderr: /^No profiles yet /,
  },
  // Repeats: one value given twice is fine, two values are ambiguous; lists collect.
  'a repeat, same value': {
    argv: ['sig', 'sign', '--secret', 'abc', '--secret=abc'],
    code: 0,
    stdout: `${SIGNATURE}\n`,
    stderr: '',
  },
  'a repeat, two values': {
    argv: ['sig', 'sign', '--secret', 'abc', '--secret', 'abd'],
    code: 2,
    stdout: '',
    stderr: 'error: --secret was given 2 times with different values; give it once\n',
  },
  'a global repeat, before and after': {
    argv: ['--profile', 'a', 'profiles', 'ls', '--profile', 'b'],
    code: 2,
    stdout: '',
    stderr: 'error: --profile was given 2 times with different values; give it once\n',
  },
  'a switch twice': {
    argv: ['sig', 'sign', '-q', '--secret', 'abc', '--quiet'],
    code: 0,
    stdout: `${SIGNATURE}\n`,
    stderr: '',
  },
  'a list option, repeated': {
    argv: [
      'webhooks',
      'add',
      '--url',
      'https://example.com/h',
      '--event',
      'nope',
      '--event',
      'meetingScheduled',
    ],
    code: 2,
    stdout: '',
    stderr: /^error: .*nope/,
  },
  'a value option of an exclusive group, twice': {
    argv: ['webhooks', 'add', '--url', 'https://example.com/h', '--secret', 'x', '--secret', 'x'],
    code: 2,
    stdout: '',
    stderr: 'error: give only one of --secret, --secret-stdin and --no-secret\n',
  },
  // Unknown options and commands.
  'an unknown option': {
    argv: ['profiles', 'ls', '--bogus'],
    code: 2,
    stdout: '',
    stderr: "error: unknown option '--bogus'\n" + USAGE('sched profiles ls'),
  },
  'an unknown option before the command': {
    argv: ['--bogus', 'profiles', 'ls'],
    code: 2,
    stdout: '',
    stderr: "error: unknown option '--bogus'\n" + USAGE('sched'),
  },
  'an unknown option on a group': {
    argv: ['webhooks', '--bogus', 'ls'],
    code: 2,
    stdout: '',
    stderr: "error: unknown option '--bogus'\n" + USAGE('sched webhooks'),
  },
  'an unknown command': {
    argv: ['profles', 'ls'],
    code: 2,
    stdout: '',
    stderr:
      "error: unknown command 'profles'; `sched` has: auth, profiles, types, link, webhooks, events, sig, sandbox, api, mcp, completion, help\n" +
      '(Did you mean profiles?)\n' +
      USAGE('sched'),
  },
  'an unknown subcommand': {
    argv: ['webhooks', 'lss'],
    code: 2,
    stdout: '',
    stderr:
      "error: unknown command 'lss'; `sched webhooks` has: add, ls, list, rm, delete, sync, listen\n" +
      '(Did you mean ls?)\n' +
      USAGE('sched webhooks'),
  },
  'an unknown subcommand of a group that runs': {
    argv: ['sandbox', 'bok'],
    code: 2,
    stdout: '',
    stderr:
      "error: unknown command 'bok'; `sched sandbox` has: book, cancel, reschedule, meetings, deliveries\n" +
      '(Did you mean book?)\n' +
      USAGE('sched sandbox'),
  },
  'a mistyped subcommand after a global option': {
    argv: ['--profile', 'x', 'types', 'lst'],
    code: 2,
    stdout: '',
    stderr:
      /^error: unknown command 'lst'; `sched types` has: list, ls, get\n\(Did you mean list\?\)\n/,
  },
  // Mistyped options: a near spelling, a prefix of one, a single dash; said before a
  // missing required option.
  'a near spelling': {
    argv: ['profiles', 'ls', '--jsn'],
    code: 2,
    stdout: '',
    stderr: "error: unknown option '--jsn'\n(Did you mean --json?)\n" + USAGE('sched profiles ls'),
  },
  'a near spelling before the command': {
    argv: ['--jsn', 'profiles', 'ls'],
    code: 2,
    stdout: '',
    stderr: "error: unknown option '--jsn'\n(Did you mean --json?)\n" + USAGE('sched'),
  },
  'a prefix, before a missing required option': {
    argv: ['sig', 'verify', '--sig', 'X'],
    code: 2,
    stdout: '',
    stderr:
      "error: unknown option '--sig'\n(Did you mean --signature?)\n" + USAGE('sched sig verify'),
  },
  'a prefix with =': {
    argv: ['sig', 'verify', '--sig=X'],
    code: 2,
    stdout: '',
    stderr:
      "error: unknown option '--sig'\n(Did you mean --signature?)\n" + USAGE('sched sig verify'),
  },
  'a single dash': {
    argv: ['link', 'create', 'intro', '-count', '2'],
    code: 2,
    stdout: '',
    stderr:
      "error: unknown option '-count'\n(Did you mean --count?)\n" + USAGE('sched link create'),
  },
  'a missing required option': {
    argv: ['sig', 'verify', '--secret', 'abc'],
    code: 2,
    stdout: '',
    stderr:
      "error: required option '--signature <sig>' not specified\n" + USAGE('sched sig verify'),
  },
  'an unknown option, no suggestion, before a missing required option': {
    argv: ['sig', 'verify', '--zzzzzzzz'],
    code: 2,
    stdout: '',
    stderr:
      "error: required option '--signature <sig>' not specified\n" + USAGE('sched sig verify'),
  },
  // --api-key: refused wherever it is, except where it is the sandbox's own key.
  '--api-key after the command': {
    argv: ['types', 'list', '--api-key', 'sk_live_x'],
    code: 2,
    stdout: '',
    stderr: KEY_REFUSAL,
  },
  '--api-key= before the command': {
    argv: ['--api-key=sk_live_x', 'types', 'list'],
    code: 2,
    stdout: '',
    stderr: KEY_REFUSAL,
  },
  '--api-key before a missing required option': {
    argv: ['sig', 'verify', '--api-key', 'sk_live_x'],
    code: 2,
    stdout: '',
    stderr: KEY_REFUSAL,
  },
  '--api-key on a group': {
    argv: ['webhooks', '--api-key', 'k', 'ls'],
    code: 2,
    stdout: '',
    stderr: KEY_REFUSAL,
  },
  "--api-key of the sandbox's verbs": {
    argv: ['sandbox', 'book', '--api-key', 'k'],
    code: 2,
    stdout: '',
    stderr: "error: missing required argument 'code-or-url'\n" + USAGE('sched sandbox book'),
  },
  // An option of `sched sandbox` (the server) given to one of its verbs.
  'a server option after a verb': {
    argv: ['sandbox', 'book', 'x', '--port', '5'],
    code: 2,
    stdout: '',
    stderr:
      'error: --port is an option of `sched sandbox` (the server), not of `sched sandbox book`\n' +
      'hint: `sched sandbox book --help` lists its options\n',
  },
  'a server option before a verb': {
    argv: ['sandbox', '--seed', '3', 'meetings'],
    code: 2,
    stdout: '',
    stderr:
      'error: --seed is an option of `sched sandbox` (the server), not of `sched sandbox meetings`\n' +
      'hint: `sched sandbox meetings --help` lists its options\n',
  },
  'a mistyped server option': {
    argv: ['sandbox', '--sed', '4'],
    code: 2,
    stdout: '',
    stderr: "error: unknown option '--sed'\n(Did you mean --seed?)\n" + USAGE('sched sandbox'),
  },
  // Help and version: the answer to what was typed, on stdout, exit 0.
  nothing: { argv: [], code: 0, stdout: /^Usage: sched \[options\] \[command\]\n/, stderr: '' },
  'a group alone': {
    argv: ['webhooks'],
    code: 0,
    stdout: /^Usage: sched webhooks \[options\] \[command\]\n/,
    stderr: '',
  },
  '--help': {
    argv: ['--help'],
    code: 0,
    stdout: /^Usage: sched \[options\] \[command\]\n/,
    stderr: '',
  },
  '-h on a verb': {
    argv: ['sig', 'sign', '-h'],
    code: 0,
    stdout: /^Usage: sched sig sign \[options\]\n/,
    stderr: '',
  },
  'help <group> <verb>': {
    argv: ['help', 'sig', 'sign'],
    code: 0,
    stdout: /^Usage: sched sig sign \[options\]\n/,
    stderr: '',
  },
  '<group> help <verb>': {
    argv: ['sig', 'help', 'sign'],
    code: 0,
    stdout: /^Usage: sched sig sign \[options\]\n/,
    stderr: '',
  },
  '<group> help': {
    argv: ['webhooks', 'help'],
    code: 0,
    stdout: /^Usage: sched webhooks \[options\] \[command\]\n/,
    stderr: '',
  },
  '<group> help <a mistyped verb>': {
    argv: ['webhooks', 'help', 'lss'],
    code: 2,
    stdout: '',
    stderr:
      "error: unknown command 'lss'; `sched webhooks` has: add, ls, list, rm, delete, sync, listen\n" +
      '(Did you mean ls?)\n' +
      USAGE('sched webhooks'),
  },
  '-V': { argv: ['-V'], code: 0, stdout: /^\d+\.\d+\.\d+/, stderr: '' },
};

describe('the syntax forms users type', () => {
  it.each(Object.entries(ROWS))('%s', async (_name, row) => {
    const r = await runSched(row.argv, {
      env: { SCHED_CONFIG_DIR: config.path },
      stdin: PAYLOAD,
    });
    const check = (got: string, want: string | RegExp, what: string) =>
      typeof want === 'string' ? expect(got, what).toBe(want) : expect(got, what).toMatch(want);
    check(r.stderr, row.stderr, 'stderr');
    check(r.stdout, row.stdout, 'stdout');
    expect(r.code, 'exit code').toBe(row.code);
  });
});
