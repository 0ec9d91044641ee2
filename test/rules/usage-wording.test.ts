// The wording of usage errors, one row per mistake a user made: each names the command it is
// about (`sched webhooks add --help`), suggests what was plainly meant, and says a field once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSched } from '../helpers/run.js';
import { startSandbox, SandboxError, type Sandbox } from '../../src/sandbox/library.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox?.close());

const ROWS: Array<[what: string, argv: () => string[], stderr: RegExp, not?: RegExp]> = [
  [
    'a usage error points at the help of its own command',
    () => ['webhooks', 'add', '--url'],
    /^error: option '--url <url>' argument missing\n\(run `sched webhooks add --help` for usage\)\n$/,
  ],
  [
    'a long option typed with one dash',
    () => ['link', 'create', 'intro-call', '-count', '2'],
    /^error: unknown option '-count'\n\(Did you mean --count\?\)\n\(run `sched link create --help` for usage\)\n$/,
  ],
  [
    'a word that names no command of a group lists what the group has',
    () => ['types', 'show'],
    /^error: unknown command 'show'; `sched types` has: list, ls, get\n\(run `sched types --help` for usage\)\n$/,
  ],
  [
    'a shortened option is unknown (with the one it starts), not a missing required one',
    () => ['sig', 'verify', '--sig', 'X'],
    /^error: unknown option '--sig'\n\(Did you mean --signature\?\)\n/,
    /required option/,
  ],
  [
    'a wrong fault sent to the sandbox names its field once',
    () => [
      'api',
      '/_sandbox/faults',
      '-X',
      'POST',
      '-F',
      'faults=1',
      '--base-url',
      sandbox.baseUrl,
    ],
    /faults: unknown field "faults" \(known: api, deliveries\)/,
    /faults: faults:/,
  ],
];

describe('usage wording', () => {
  it.each(ROWS)('%s', async (_what, argv, stderr, not) => {
    const r = await runSched(argv(), { env: { SCHED_API_KEY: sandbox.apiKey } });
    expect(r.stderr).toMatch(stderr);
    if (not) expect(r.stderr).not.toMatch(not);
    expect(r.code).toBe(2);
  });

  it('the library says a wrong fault field once too', async () => {
    const e = await startSandbox({ port: 0, faults: { bogus: [] } as never }).catch((x) => x);
    expect(e).toBeInstanceOf(SandboxError);
    expect((e as SandboxError).message).toBe(
      'invalid fault: faults: unknown field "bogus" (known: api, deliveries)',
    );
  });
});
