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
      count: number;
      concurrency: number;
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

  it('name every field as commander does, for every option of every command', () => {
    const program = buildProgram(() => async () => {});
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
