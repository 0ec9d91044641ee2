// Help pages and usage errors: what a user sees when they ask for help or get a command wrong.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { definitionOf, visibleCommands } from '../src/commands/define.js';
import { buildProgram } from '../src/cli.js';
import { didYouMean } from '../src/text/suggest.js';
import { runSched } from './helpers/run.js';
import { NO_CSV, OUTPUT_FORMATS } from '../src/output/formats.js';

/** Every visible command with its path, root excluded. */
function visible(c: Command, path: string[] = []): Array<[string[], Command]> {
  return visibleCommands(c).flatMap((k) => [
    [[...path, k.name()], k] as [string[], Command],
    ...visible(k, [...path, k.name()]),
  ]);
}

const program = await buildProgram(() => async () => {});

describe('help pages', () => {
  it('gives every command and flag a one-line description', () => {
    for (const [path, cmd] of visible(program)) {
      const where = path.join(' ');
      expect(cmd.description(), where).not.toBe('');
      expect(cmd.description(), where).not.toContain('\n');
      for (const o of cmd.options) {
        expect(o.description, `${where} ${o.flags}`).not.toBe('');
        expect(o.description, `${where} ${o.flags}`).not.toContain('\n');
      }
      for (const a of cmd.registeredArguments) {
        expect(a.description, `${where} <${a.name()}>`).not.toBe('');
      }
    }
  });

  it('shows usage with the command path, aliases, arguments and examples', async () => {
    const rm = await runSched(['webhooks', 'rm', '--help']);
    expect(rm.code).toBe(0);
    expect(rm.stderr).toBe('');
    expect(rm.stdout.split('\n')[0]).toBe('Usage: sched webhooks rm|delete [options] [uuid...]');
    expect(rm.stdout).toMatch(/^Options:$/m);
    expect(rm.stdout).toMatch(/^ {2}-y, --yes +do not ask for confirmation$/m);
    expect(rm.stdout).toMatch(/^Examples:\n(?: {2}\$ .*\n)* {2}\$ sched webhooks rm /m);

    const sample = await runSched(['help', 'events', 'sample']);
    expect(sample.stdout.split('\n')[0]).toBe('Usage: sched events sample [options] <event>');
  });

  it("every command's help shows the global options it inherits and the formats it prints", async () => {
    for (const [path, cmd] of visible(program)) {
      if (path[0] === 'help') continue;
      const r = await runSched([...path, '--help']);
      const where = path.join(' ');
      expect(r.code, where).toBe(0);
      const inherited = r.stdout.split(/^Global Options:$/m)[1] ?? '';
      for (const flag of [
        '--profile <name>',
        '--base-url <url>',
        '--json',
        '-o, --output <format>',
        '-q, --quiet',
      ]) {
        expect(inherited, `${where}: ${flag}`).toContain(flag);
      }
      if (definitionOf(cmd)?.load) {
        expect(r.stdout, where).toMatch(
          /^Output formats: [a-z, ]+ \(-o <format>; --json is -o json\)$/m,
        );
      }
    }
    const verify = await runSched(['sig', 'verify', '--help']);
    expect(verify.stdout).toContain(`\nOutput formats: ${NO_CSV.join(', ')} (`);
    const link = await runSched(['link', 'create', '--help']);
    expect(link.stdout).toContain(`\nOutput formats: ${OUTPUT_FORMATS.join(', ')} (`);
  });

  it('lists the global options on the top-level help, and no hidden command', async () => {
    const r = await runSched(['--help']);
    expect(r.code).toBe(0);
    for (const flag of [
      '--profile <name>',
      '--base-url <url>',
      '--json',
      '-o, --output <format>',
    ]) {
      expect(r.stdout).toContain(flag);
    }
    for (const flag of [
      '--no-color',
      '--no-input',
      '--timeout <seconds>',
      '--verbose',
      '-q, --quiet',
    ]) {
      expect(r.stdout).toContain(flag);
    }
    expect(r.stdout).toContain('sched help environment');
    expect(r.stdout).not.toMatch(/__complete/);
  });

  it('bare `sched` prints the full help on stdout with exit 0 (like gh), even with global options', async () => {
    const full = await runSched(['--help']);
    for (const argv of [[], ['--no-color']]) {
      const r = await runSched(argv);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.stderr, argv.join(' ')).toBe('');
      expect(r.stdout).toMatch(/^Usage: sched \[options\] \[command\]/);
      expect(r.stdout).toContain('sched help environment');
      expect(r.stdout).toBe(full.stdout);
    }
  });

  it('shows a group its subcommands when run without one (stdout, exit 0, as bare `sched`)', async () => {
    const r = await runSched(['webhooks']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Usage: sched webhooks \[options\] \[command\]/);
    for (const sub of ['add', 'ls|list', 'rm|delete', 'sync', 'listen']) {
      expect(r.stdout).toContain(`  ${sub} `);
    }
    expect(r.stdout).toMatch(/ {2}help \[command\] +Show help for a subcommand/);
    expect(r.stdout).toBe((await runSched(['webhooks', '--help'])).stdout);
  });

  it('answers `sched <group> help <command>` like `sched help <group> <command>`', async () => {
    const a = await runSched(['webhooks', 'help', 'add']);
    const b = await runSched(['help', 'webhooks', 'add']);
    expect(a.code).toBe(0);
    expect(a.stdout).toContain('Usage: sched webhooks add');
    expect(a.stdout).toBe(b.stdout);
  });
});

describe('usage errors', () => {
  /** Every usage error: exit 2, nothing on stdout, the message and a pointer to --help. */
  async function usageError(argv: string[]): Promise<string> {
    const r = await runSched(argv);
    expect(r.code, argv.join(' ')).toBe(2);
    expect(r.stdout, argv.join(' ')).toBe('');
    return r.stderr;
  }

  it('names a missing argument', async () => {
    expect(await usageError(['events', 'sample'])).toMatch(
      /^error: missing required argument 'event'\n\(run `sched events sample --help` for usage\)\n$/,
    );
    expect(await usageError(['sandbox', 'cancel'])).toMatch(
      /missing required argument 'meeting-uuid'/,
    );
  });

  it('names an option whose value is missing', async () => {
    expect(await usageError(['webhooks', 'listen', '--port'])).toMatch(
      /^error: option '--port <n>' argument missing/,
    );
    expect(await usageError(['-o'])).toMatch(/option '-o, --output <format>' argument missing/);
  });

  it('names a required option that was not given', async () => {
    expect(await usageError(['webhooks', 'sync'])).toMatch(
      /required option '--file <path>' not specified/,
    );
    expect(await usageError(['events', 'send', 'meetingScheduled'])).toMatch(
      /required option '--to <url>' not specified/,
    );
  });

  it('suggests the nearest command for a mistyped one, at every level', async () => {
    expect(await usageError(['webhook'])).toMatch(
      /^error: unknown command 'webhook'; `sched` has: auth, .*\n\(Did you mean webhooks\?\)/,
    );
    expect(await usageError(['sig', 'verfy'])).toMatch(/\(Did you mean verify\?\)/);
    // sandbox runs on its own too: a stray word is still a mistyped subcommand.
    expect(await usageError(['sandbox', 'boook'])).toMatch(
      /^error: unknown command 'boook'; `sched sandbox` has: book, .*\n\(Did you mean book\?\)/,
    );
    expect(await usageError(['help', 'webhoks'])).toMatch(
      /no command or help topic "webhoks".*\n\(Did you mean webhooks\?\)/,
    );
    expect(await usageError(['help', 'exit-code'])).toMatch(/\(Did you mean exit-codes\?\)/);
  });

  it('suggests the nearest flag, global ones included', async () => {
    expect(await usageError(['webhooks', 'add', '--evnt', 'x'])).toMatch(
      /^error: unknown option '--evnt'\n\(Did you mean --event\?\)/,
    );
    expect(await usageError(['--jsn', 'types', 'list'])).toMatch(/\(Did you mean --json\?\)/);
    expect(await usageError(['types', 'list', '--qiet'])).toMatch(/\(Did you mean --quiet\?\)/);
  });

  it('does not invent a suggestion for a word unlike any command', async () => {
    const err = await usageError(['frobnicate']);
    expect(err).toMatch(/unknown command 'frobnicate'/);
    expect(err).not.toMatch(/Did you mean/);
  });

  it('rejects arguments a command does not take', async () => {
    expect(await usageError(['auth', 'login', 'extra'])).toMatch(/too many arguments for 'login'/);
  });
});

describe('didYouMean', () => {
  it('picks the closest candidate within a small distance, counting a swap as one edit', () => {
    expect(didYouMean('lsit', ['ls', 'list', 'listen'])).toBe('\n(Did you mean list?)');
    expect(didYouMean('webhoks', ['webhooks', 'events'])).toBe('\n(Did you mean webhooks?)');
    expect(didYouMean('zzz', ['ls', 'add'])).toBe('');
    expect(didYouMean('x', ['ls'])).toBe('');
  });
});
