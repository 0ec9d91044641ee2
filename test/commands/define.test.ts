// The typed command definitions: the field a flag fills is derived from the flag at compile time
// (so a renamed flag breaks every use of the old name), and it is the field commander fills.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli.js';
import { definitionOf, type InputOf } from '../../src/commands/define.js';
import type { LinkCreateOptions } from '../../src/commands/link/inputs.js';
import type { SandboxServeOptions } from '../../src/commands/sandbox/inputs.js';
import type { WebhooksAddOptions, WebhooksRmOptions } from '../../src/commands/webhooks/inputs.js';
import { runSched } from '../helpers/run.js';

describe('typed options', () => {
  it('derive each field and its type from the definition', () => {
    expectTypeOf<LinkCreateOptions>().toEqualTypeOf<{
      meetingType: string[];
      count: number | undefined;
      concurrency: number;
      yes: true | undefined;
    }>();
    expectTypeOf<WebhooksRmOptions['uuid']>().toEqualTypeOf<string[]>();
    expectTypeOf<WebhooksAddOptions['secret']>().toEqualTypeOf<string | boolean | undefined>();
    expectTypeOf<WebhooksAddOptions['ifAbsent']>().toEqualTypeOf<true | undefined>();
    expectTypeOf<SandboxServeOptions['port']>().toEqualTypeOf<number>();
    expectTypeOf<SandboxServeOptions['host']>().toEqualTypeOf<string>();
    // @ts-expect-error: no such flag, so no such field
    expectTypeOf<LinkCreateOptions['cnt']>().toBeNever();
    expectTypeOf<InputOf<unknown>>().toBeNever();
  });

  it('name every field as commander does, for every option of every command', async () => {
    const program = await buildProgram(() => async () => {});
    const walk = (c: Command): Command[] => [c, ...c.commands.flatMap(walk)];
    const camel = (s: string) => s.replace(/-([a-z])/g, (_, ch: string) => ch.toUpperCase());
    let checked = 0;
    for (const c of walk(program)) {
      for (const o of definitionOf(c)?.input?.options ?? []) {
        const long = /--(?:no-)?([\w-]+)/.exec(o.flags)![1]!;
        const registered = c.options.find((k) => k.flags === o.flags);
        expect(registered?.attributeName(), o.flags).toBe(camel(long));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });
});

describe('exclusive option groups', () => {
  it.each([
    [['--secret', 's3cret', '--no-secret']],
    [['--secret-stdin', '--no-secret']],
    [['--secret', 'a', '--secret', 'a']],
  ])('webhooks add %j is one clear usage error before any request', async (flags) => {
    const r = await runSched(['webhooks', 'add', '--url', 'https://example.com/h', ...flags], {
      env: { SCHED_API_KEY: 'k', SCHED_BASE_URL: 'http://127.0.0.1:9/api' },
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('give only one of --secret, --secret-stdin and --no-secret');
  });
});

// Every option rule declared in a definition (exclusive groups, parsers of options and
// arguments), one row per command that declares one: a usage error (exit 2) before run, so
// before any request (the base URL refuses connections: a request would exit 1).
describe('option rules declared in the definitions', () => {
  const UUID = '0d5c7a52-9a43-4c55-8d6f-6f4f3b2f9e10';
  const rows: Array<[string[], string, string | undefined]> = [
    [['types', 'list', '--all', '--page', '2'], 'give only one of --page and --all', '--all reads'],
    [
      ['webhooks', 'ls', '--page', '1', '--all'],
      'give only one of --page and --all',
      '--all reads',
    ],
    [['webhooks', 'rm'], 'say which webhooks to delete: give their UUIDs', 'sched webhooks ls'],
    [['webhooks', 'rm', UUID, '--all', '--yes'], 'not more than one of them', 'sched webhooks ls'],
    [['webhooks', 'rm', '--url', 'https://e.com/h', '--all'], 'not more than one', undefined],
    [['webhooks', 'rm', UUID, 'x1', 'x2'], 'not a webhook UUID: "x1", "x2"', '--url <url>'],
    [
      ['webhooks', 'rm', '--url', 'ftp://e.com', '--yes'],
      '--url must be an absolute http',
      undefined,
    ],
    [['types', 'list', '--sort', 'name:sideways'], 'invalid --sort "name:sideways"', undefined],
    [['webhooks', 'sync', '--file', ' '], '--file needs a path (or - for stdin)', undefined],
  ];
  it.each(rows)('%j', async (argv, message, hint) => {
    const r = await runSched(argv, {
      env: { SCHED_API_KEY: 'k', SCHED_BASE_URL: 'http://127.0.0.1:9/api' },
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
    if (hint) expect(r.stderr).toMatch(new RegExp(`hint:.*${hint.replace(/[-<>]/g, '.')}`));
  });

  it('hands run the parsed values: sort pairs, UUIDs lower-cased once each', async () => {
    expectTypeOf<WebhooksRmOptions['url']>().toEqualTypeOf<string | undefined>();
    const program = await buildProgram(() => async () => {});
    const types = program.commands.find((c) => c.name() === 'types')!;
    const list = types.commands.find((c) => c.name() === 'list')!;
    const sort = list.options.find((o) => o.long === '--sort')!;
    const once = sort.parseArg!('name:DESC', undefined as never);
    expect(sort.parseArg!('slug', once as never)).toEqual([
      ['name', 'desc'],
      ['slug', 'asc'],
    ]);
    const rm = definitionOf(
      program.commands
        .find((c) => c.name() === 'webhooks')!
        .commands.find((c) => c.name() === 'rm')!,
    )!;
    const parse = rm.input!.args[0]!.parse as (v: string[]) => string[];
    expect(parse([UUID.toUpperCase(), UUID])).toEqual([UUID]);
  });
});
