import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildProgram, groupAsked, reportError, runCli, VERSION } from '../src/cli.js';
import { definitionOf } from '../src/commands/define.js';
import { QuietExit, UsageError } from '../src/errors.js';
import { createBufferIO } from './helpers/buffer-io.js';
import { runSched } from './helpers/run.js';
import { envelope } from './helpers/fault-server.js';

/** Every runnable command path (commands with an action of their own), e.g. ["webhooks","add"]. */
function runnableCommands(c: Command, path: string[] = []): string[][] {
  const own = definitionOf(c)?.load ? [path] : [];
  return [...own, ...c.commands.flatMap((k) => runnableCommands(k, [...path, k.name()]))];
}

describe('command tree', () => {
  it('prints the package version', async () => {
    const r = await runSched(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(VERSION);
    expect(r.stderr).toBe('');
  });

  it('shows at least two examples in every command help', async () => {
    const program = await buildProgram(() => async () => {});
    const commands = runnableCommands(program);
    expect(commands.length).toBeGreaterThanOrEqual(20);
    for (const path of commands) {
      const r = await runSched([...path, '--help']);
      expect(r.code, path.join(' ')).toBe(0);
      const examples = r.stdout.split('Examples:')[1] ?? '';
      expect(
        examples.match(/^ {2}\$ .*\bsched\b/gm)?.length ?? 0,
        path.join(' '),
      ).toBeGreaterThanOrEqual(2);
    }
  });

  it('gives every option a long name (repeats, completion and the docs name options by it)', async () => {
    const shortOnly: string[] = [];
    const walk = (c: Command): void => {
      for (const o of c.options) if (!o.long) shortOnly.push(`${c.name()} ${o.flags}`);
      c.commands.forEach(walk);
    };
    walk(await buildProgram(() => async () => {}));
    expect(shortOnly).toEqual([]);
  });

  it('suggests the nearest command for a typo and exits 2', async () => {
    const r = await runSched(['webhooks', 'lss']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'lss'/);
    expect(r.stderr).toMatch(/Did you mean .*ls/);
    expect(r.stdout).toBe('');
  });

  it('rejects an unknown option with exit 2 naming it', async () => {
    const r = await runSched(['types', 'list', '--pgae', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--pgae'/);
    expect(r.stderr).toMatch(/--page/);
  });

  it('rejects non-positive numbers for --limit and --page before anything runs', async () => {
    for (const argv of [
      ['types', 'list', '--limit', '0'],
      ['types', 'list', '--page', '-1'],
      ['types', 'list', '--limit', 'ten'],
    ]) {
      const r = await runSched(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/--(limit|page) must be a whole number/);
    }
  });

  it('rejects an unknown output format and a bad timeout', async () => {
    const a = await runSched(['-o', 'xml', 'types', 'list']);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/table, json, ndjson, csv/);
    const b = await runSched(['--timeout', '0', 'types', 'list']);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/--timeout/);
  });

  it('has help topics for the environment and exit codes', async () => {
    const env = await runSched(['help', 'environment']);
    expect(env.code).toBe(0);
    for (const v of [
      'SCHED_API_KEY',
      'SCHED_BASE_URL',
      'SCHED_PROFILE',
      'SCHED_CONFIG_DIR',
      'SCHED_WEBHOOK_SECRET',
      'NO_COLOR',
      'FORCE_COLOR',
    ]) {
      expect(env.stdout).toContain(v);
    }
    const codes = await runSched(['help', 'exit-codes']);
    expect(codes.stdout).toMatch(/^\s+130\s+interrupted/m);
    const cmd = await runSched(['help', 'webhooks', 'add']);
    expect(cmd.stdout).toContain('Usage: sched webhooks add');
    const bad = await runSched(['help', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no command or help topic "nope"');
    // Below a group, the near names are that group's commands (help topics live at the top).
    const near = await runSched(['help', 'webhooks', 'lss']);
    expect(near.code).toBe(2);
    expect(near.stderr).toMatch(/Did you mean ls\?/);
    expect((await runSched(['help', 'exit-code'])).stderr).toMatch(/Did you mean exit-codes\?/);
    expect((await runSched(['help', 'webhooks', 'exit-code'])).stderr).not.toMatch(/Did you mean/);
  });

  it('a Ctrl-C that lands while the command loads stops it before it runs: exit 130', async () => {
    const r = await runSched(['types', 'list'], {
      // Nothing listens on the discard port: a request would fail with exit 1, not 130.
      env: { SCHED_API_KEY: 'sk_test_x', SCHED_BASE_URL: 'http://127.0.0.1:9' },
      signal: AbortSignal.abort('SIGINT'),
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toBe('error: interrupted\n');
    expect(r.stdout).toBe('');
  });
});

describe('reportError: the last words of a failed command', () => {
  function report(e: unknown, env: Record<string, string | undefined> = {}) {
    const io = createBufferIO();
    const code = reportError(io, e, env);
    return { code, stderr: io.stderrText() };
  }

  it('a typed error: its message, details and hint, and its own exit code', () => {
    const r = report(
      new UsageError('--url is not a URL', { details: ['  got: x'], hint: 'fix it' }),
    );
    expect(r).toEqual({ code: 2, stderr: 'error: --url is not a URL\n    got: x\nhint: fix it\n' });
  });

  it('output cut short on purpose: its code, and not a word', () => {
    expect(report(new QuietExit(141))).toEqual({ code: 141, stderr: '' });
  });

  it('anything else is a bug: one line, exit 1, and where to look', () => {
    const hint = 'hint: set SCHED_DEBUG=1 for details, and please report this bug\n';
    expect(report(new TypeError('x is undefined'))).toEqual({
      code: 1,
      stderr: `error: unexpected failure: x is undefined\n${hint}`,
    });
    // A thrown non-Error is named as it is; SCHED_DEBUG has no stack to show for it.
    expect(report('plain string', { SCHED_DEBUG: '1' })).toEqual({
      code: 1,
      stderr: `error: unexpected failure: plain string\n${hint}`,
    });
  });

  it('SCHED_DEBUG=1 shows the stack instead of the hint', () => {
    const e = new Error('boom');
    const r = report(e, { SCHED_DEBUG: '1' });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: unexpected failure: boom\n${e.stack!}\n`);
    expect(r.stderr).not.toContain('hint:');
  });
});

describe('only the command group asked for is built', () => {
  const name = (argv: string[]) => groupAsked(argv);
  it.each([
    [['types', 'list'], 'types'],
    [['--json', 'types', 'list'], 'types'],
    [['--profile', 'staging', 'link', 'create', 'x'], 'link'],
    [['-o', 'csv', 'webhooks', 'ls'], 'webhooks'],
    [['--timeout=5', 'sig', 'verify'], 'sig'],
    // What the completion scripts run on every TAB: it lists values, not the tree.
    [['--timeout', '2', '__complete', 'meeting-types'], '__complete'],
  ])('%j builds %s alone', (argv, group) => {
    expect(name(argv)).toBe(group);
  });
  it.each([
    [[]],
    [['--help']],
    [['help', 'types']],
    [['completion', 'bash']],
    [['typs', 'list']],
    // "types" is the value of --profile here; "list" names no group.
    [['--profile', 'types', 'list']],
    [['--', 'types']],
  ])('%j builds the whole tree', (argv) => {
    expect(name(argv)).toBeUndefined();
  });

  it('loads each group of the whole tree alone, by its name', async () => {
    const inert = () => async () => {};
    const groups = (await buildProgram(inert)).commands
      .map((c) => c.name())
      .filter((g) => g !== 'help' && g !== 'completion');
    expect(groups.length).toBeGreaterThanOrEqual(11);
    for (const g of groups) {
      expect(name([g])).toBe(g);
      const alone = await buildProgram(inert, g);
      expect(alone.commands.map((c) => c.name())).toEqual([g, 'help']);
    }
  });

  it('the group alone answers like the whole tree (help, a mistyped subcommand)', async () => {
    const help = await runSched(['types', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: sched types/);
    const typo = await runSched(['types', 'lst']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown command 'lst'/);
    expect(typo.stderr).toMatch(/list/);
  });
});

describe('a run in a process that exits after it', () => {
  it('leaves its connections to the exit (process-main); a run in-process closes them', async () => {
    const body = JSON.stringify(envelope([], { path: '/api/users/me/meeting-types' }));
    const server = http.createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const open = () =>
      new Promise<number>((resolve) => server.getConnections((_e, n) => resolve(n)));
    const env = { SCHED_API_KEY: 'exits-test-key-0123456789', SCHED_CONFIG_DIR: '/nonexistent' };
    const run = (exits: boolean) =>
      runCli(['types', 'list', '--json', '--base-url', `http://127.0.0.1:${port}/api`], {
        io: createBufferIO({ env }),
        env,
        exits,
      });
    try {
      expect(await run(true)).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await open()).toBe(1);
      server.closeAllConnections();
      expect(await run(false)).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await open()).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
