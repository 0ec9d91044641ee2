// Output formats: each command declares what it prints (table, json, ndjson, csv) in its
// definition; `--json` with another `-o`, or a format the command cannot print, is a usage error
// (exit 2) naming what it prints, found before anything runs. One table over every command.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli.js';
import { definitionOf, type CommandDef } from '../../src/commands/define.js';
import { runSched } from '../helpers/run.js';
import {
  OUTPUT_FORMATS as ALL,
  askedFormat,
  twoFormatsAsked,
  type AskedFormat,
} from '../../src/output/formats.js';

/** Every command that runs, with a command line that parses (placeholders for what it needs). */
async function runnable(): Promise<Array<{ path: string; argv: string[]; def: CommandDef }>> {
  const out: Array<{ path: string; argv: string[]; def: CommandDef }> = [];
  const walk = (c: Command, path: string[]) => {
    const def = definitionOf(c);
    if (def?.load) {
      const args = c.registeredArguments.filter((a) => a.required).map(() => 'x');
      const opts = c.options.filter((o) => o.mandatory).flatMap((o) => [o.long!, 'x']);
      out.push({ path: path.join(' '), argv: [...path, ...args, ...opts], def });
    }
    for (const k of c.commands) walk(k, [...path, k.name()]);
  };
  for (const c of (await buildProgram(() => async () => {})).commands) walk(c, [c.name()]);
  return out;
}

const COMMANDS = await runnable();
// Nothing may run: no config, no key, no server; a request would fail with another code.
const env = {
  SCHED_CONFIG_DIR: '/nonexistent/sched-formats',
  SCHED_BASE_URL: 'http://127.0.0.1:1/api',
};

describe('output formats', () => {
  it('every command that runs declares the formats it prints', () => {
    expect(COMMANDS.length).toBeGreaterThan(15);
    for (const { path, def } of COMMANDS) {
      expect(def.formats, path).toBeDefined();
      expect(def.formats!.length, path).toBeGreaterThan(0);
      expect(def.formats, path).toContain('table');
    }
  });

  it.each(COMMANDS.map((c) => [c.path, c] as const))(
    '%s: --json with -o csv is a usage error naming what it prints',
    async (path, { argv, def }) => {
      const r = await runSched(['--json', '-o', 'csv', ...argv], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `error: --json and -o csv ask for two formats; sched ${path} prints ${def.formats!.join(', ')}\n`,
      );
    },
  );

  const unsupported = COMMANDS.flatMap((c) =>
    ALL.filter((f) => !c.def.formats!.includes(f)).map((f) => [c.path, f, c] as const),
  );
  it.each(unsupported)('%s -o %s: a usage error naming what it prints', async (path, f, c) => {
    const r = await runSched(['-o', f, ...c.argv], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `error: sched ${path} cannot print ${f}; it prints ${c.def.formats!.join(', ')}\n`,
    );
  });

  it('the ones the issue named: events sample -o csv, sig verify -o csv', async () => {
    const sample = await runSched(['events', 'sample', 'meetingScheduled', '-o', 'csv']);
    expect(sample).toMatchObject({ code: 2, stdout: '' });
    expect(sample.stderr).toMatch(/sched events sample cannot print csv; it prints table, json/);
    const verify = await runSched(
      ['sig', 'verify', '--signature', 'x', '--secret', 's', '-o', 'csv'],
      {
        stdin: '{}',
      },
    );
    expect(verify).toMatchObject({ code: 2, stdout: '' });
    // A format it prints still works, and --json -o json is one format.
    const ok = await runSched(['--json', '-o', 'json', 'events', 'sample', 'meetingScheduled']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ event: 'meetingScheduled' });
  });
});

// The one rule both callers use: the global options (cli.ts resolveGlobals) and each command's
// check (define.ts checkOutputFormat).
describe('the format --json and -o ask for', () => {
  it.each<[AskedFormat, string | undefined, boolean]>([
    [{}, undefined, false],
    [{ json: true }, 'json', false],
    [{ output: 'csv' }, 'csv', false],
    [{ json: true, output: 'json' }, 'json', false],
    [{ json: true, output: 'ndjson' }, 'json', true],
    [{ json: false, output: 'table' }, 'table', false],
  ])('%j: %s, two formats asked: %s', (asked, format, two) => {
    expect(askedFormat(asked)).toBe(format);
    expect(twoFormatsAsked(asked)).toBe(two);
  });
});
