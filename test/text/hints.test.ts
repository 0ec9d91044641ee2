// Every suggested command that keeps flags of the invocation, from the one place that builds
// them (src/text/hints.ts), checked against invocations that carry those flags: through each
// caller, so a caller that builds its own command line again fails here.
import { describe, expect, it } from 'vitest';
import { loginHint, mcpRestartHint, type Invocation } from '../../src/text/hints.js';
import { noKeyHint, rejectedKeyHint, unknownProfileError } from '../../src/config/sources.js';
import { refusal } from '../../src/mcp/tools.js';
import { AuthError } from '../../src/errors.js';
import { asInvoked } from '../../src/names.js';

const BASE = 'https://secure.simplymeet.me/api';
const OTHER = 'http://127.0.0.1:4010/api';

const INVOCATIONS: { name: string; inv: Invocation; login: string; mcp: string }[] = [
  { name: 'nothing given', inv: {}, login: '`sched auth login`', mcp: '`sched mcp`' },
  {
    name: 'the default profile',
    inv: { profile: 'default' },
    login: '`sched auth login`',
    mcp: '`sched mcp`',
  },
  {
    name: '--profile globex',
    inv: { profile: 'globex' },
    login: '`sched auth login --profile globex`',
    mcp: '`sched mcp --profile globex`',
  },
  {
    name: '--base-url',
    inv: { baseUrlFlag: OTHER },
    login: `\`sched auth login --base-url ${OTHER}\``,
    mcp: `\`sched mcp --base-url ${OTHER}\``,
  },
  {
    name: 'a profile name needing quotes',
    inv: { profile: "o'brien" },
    login: "`sched auth login --profile 'o'\\''brien'`",
    mcp: "`sched mcp --profile 'o'\\''brien'`",
  },
  {
    name: '--sandbox (with a profile, which it ignores)',
    inv: { sandbox: true, profile: 'globex' },
    login: '`sched auth login --profile globex`',
    mcp: '`sched mcp --sandbox`',
  },
];

describe('hints built from the invocation', () => {
  it.each(INVOCATIONS)('$name: login and mcp restart commands', ({ inv, login, mcp }) => {
    expect(loginHint(inv)).toBe(login);
    expect(mcpRestartHint(inv, 'default')).toBe(mcp);
    expect(mcpRestartHint(inv, 'allow-write')).toBe(mcp.replace(/`$/, ' --allow-write`'));
  });

  it.each(INVOCATIONS)('$name: every mcp refusal keeps the flags', ({ inv, mcp }) => {
    const write = mcp.replace(/`$/, ' --allow-write`');
    expect(refusal('create_webhook', 'default', inv).hint).toBe(`restart it as ${write}`);
    expect(refusal('delete_webhook', 'read-only', inv).hint).toBe(
      `restart it as ${write} (without --read-only)`,
    );
    expect(refusal('create_single_use_link', 'read-only', inv).hint).toBe(
      `restart it without --read-only (${mcp}) to mint links`,
    );
    // The sandbox's refusal never names a command that leaves it.
    if (inv.sandbox) expect(refusal('create_webhook', 'default', inv).hint).toContain('--sandbox');
  });

  const sources = (profile: string, flag?: string) => ({
    profile,
    baseUrl: flag ?? BASE,
    baseUrlSource: flag ? ('flag' as const) : ('default' as const),
    storedBaseUrl: undefined,
    envOverridesProfileKey: false,
  });

  it.each([
    ['default', undefined, '`sched auth login`'],
    ['globex', undefined, '`sched auth login --profile globex`'],
    ['globex', OTHER, `\`sched auth login --profile globex --base-url ${OTHER}\``],
  ] as const)('profile %s, --base-url %s: the key hints name %s', (profile, flag, login) => {
    expect(noKeyHint(sources(profile, flag))).toBe(`run ${login} or set SCHED_API_KEY`);
    for (const keySource of ['profile', 'command'] as const) {
      expect(rejectedKeyHint({ ...sources(profile), keySource, keyCommand: 'k' })).toContain(
        loginHint({ profile }),
      );
    }
    expect(unknownProfileError(profile, 'flag', []).hint).toContain(loginHint({ profile }));
  });

  it('the program name as invoked replaces `sched` in each suggested command', () => {
    const hint = new AuthError('no API key', { hint: noKeyHint(sources('globex')) }).hint!;
    expect(asInvoked(hint, 'schedcli')).toBe(
      'run `schedcli auth login --profile globex` or set SCHED_API_KEY',
    );
  });
});
