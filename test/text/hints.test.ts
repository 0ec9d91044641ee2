// Every suggested command that keeps flags of the invocation, from the one place that builds
// them (src/text/hints.ts), checked against invocations that carry those flags: through each
// caller, so a caller that builds its own command line again fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { runSched } from '../helpers/run.js';
import { loginHint, mcpRestartHint, type Invocation } from '../../src/text/hints.js';
import { noKeyHint, rejectedKeyHint, unknownProfileError } from '../../src/config/sources.js';
import { refusal } from '../../src/mcp/tools.js';
import { AuthError, type UsageError } from '../../src/errors.js';
import { profilesListHint, webhookCreatedHint, webhookRemoveHint } from '../../src/text/hints.js';
import { removeWebhookHint } from '../../src/domain/webhooks/listen/hints.js';
import { ListenerWebhook, type WebhookApi } from '../../src/domain/webhooks/listen/register.js';
import {
  listenNoKnownCause,
  type ListenerSummary,
} from '../../src/domain/webhooks/listen/listener.js';
import { stopFailure } from '../../src/domain/webhooks/listen/render.js';
import { checkMeetingTypeRefs } from '../../src/commands/types/meeting-types.js';
import { linkCreateHint } from '../../src/commands/link/create.js';
import { checkUuid } from '../../src/commands/sandbox/shared.js';
import type { Webhook } from '../../src/api/types.js';
import { asInvoked } from '../../src/names.js';

const BASE = 'https://secure.simplymeet.me/api';
const OTHER = 'http://127.0.0.1:4010/api';

/** `flags`: what a command of the account the invocation reached carries after its words. */
const INVOCATIONS: { name: string; inv: Invocation; login: string; mcp: string; flags: string }[] =
  [
    { name: 'nothing given', inv: {}, login: '`sched auth login`', mcp: '`sched mcp`', flags: '' },
    {
      name: 'the default profile',
      inv: { profile: 'default' },
      login: '`sched auth login`',
      mcp: '`sched mcp`',
      flags: '',
    },
    {
      name: '--profile globex',
      inv: { profile: 'globex' },
      login: '`sched auth login --profile globex`',
      mcp: '`sched mcp --profile globex`',
      flags: ' --profile globex',
    },
    {
      name: '--base-url',
      inv: { baseUrlFlag: OTHER },
      login: `\`sched auth login --base-url ${OTHER}\``,
      mcp: `\`sched mcp --base-url ${OTHER}\``,
      flags: ` --base-url ${OTHER}`,
    },
    {
      name: 'a profile name needing quotes',
      inv: { profile: "o'brien" },
      login: "`sched auth login --profile 'o'\\''brien'`",
      mcp: "`sched mcp --profile 'o'\\''brien'`",
      flags: " --profile 'o'\\''brien'",
    },
    {
      name: '--sandbox (with a profile, which it ignores)',
      inv: { sandbox: true, profile: 'globex' },
      login: '`sched auth login --profile globex`',
      mcp: '`sched mcp --sandbox`',
      flags: ' --profile globex',
    },
  ];

const UUID = '0d5c2e7a-1b2c-4d3e-8f9a-0b1c2d3e4f5a';

/** A `--register` webhook API whose list holds one webhook at `url` already. */
function apiWithWebhookAt(url: string): WebhookApi {
  const hook = { uuid: UUID, url, events: ['meetingScheduled'], secret: null } as Webhook;
  return {
    async *list() {
      yield hook;
    },
    create: async () => ({ ...hook, uuid: 'new' }),
    remove: async () => 'deleted',
  };
}

/**
 * Every suggested command of the account, through the caller that prints it: the invocation's
 * --profile and --base-url follow the command's own words.
 */
const ACCOUNT_HINTS: Array<
  [name: string, hint: (inv: Invocation) => string | Promise<string>, command: string]
> = [
  ['webhookRemoveHint', (inv) => webhookRemoveHint(inv, UUID), `sched webhooks rm ${UUID}`],
  [
    'webhooks add: a webhook nobody has the secret of, left behind',
    (inv) => removeWebhookHint(UUID, inv),
    `sched webhooks rm ${UUID}`,
  ],
  [
    'listen --register: the webhook left behind (the stop)',
    (inv) => {
      const registration = new ListenerWebhook(
        async () => apiWithWebhookAt('x'),
        () => {},
        inv,
      );
      registration.webhook = { uuid: UUID } as Webhook;
      registration.failed = true;
      const summary = { registration, reason: 'signal', counted: 0 } as unknown as ListenerSummary;
      return stopFailure(summary, {
        registerUrl: 'https://a.example/h',
        limit: undefined,
        maxTimeS: undefined,
        invocation: inv,
      })!.hint!;
    },
    `sched webhooks rm ${UUID}`,
  ],
  [
    'listen --register: an older webhook at the same URL',
    async (inv) => {
      const notes: string[] = [];
      const url = 'https://a.example/h';
      const r = new ListenerWebhook(
        async () => apiWithWebhookAt(url),
        (l) => notes.push(l),
        inv,
      );
      const stop = new AbortController().signal;
      await r.register({ url, events: ['meetingScheduled'], secret: 's', stop, interrupt: stop });
      return notes.join('\n');
    },
    `sched webhooks rm ${UUID}`,
  ],
  [
    'listen: an invalid signature no mistake explains',
    (inv) => listenNoKnownCause(inv),
    'sched webhooks add',
  ],
  [
    'webhooks add: a creation of unknown outcome',
    (inv) => webhookCreatedHint(inv),
    'sched webhooks ls',
  ],
  [
    'webhooks add: a creation of unknown outcome (--if-absent)',
    (inv) => webhookCreatedHint(inv),
    'sched webhooks add --if-absent',
  ],
  [
    'a meeting-type reference that cannot be one',
    (inv) => usageHint(() => checkMeetingTypeRefs([''], inv)),
    'sched types list',
  ],
  ['link create: nothing to pick from', (inv) => linkCreateHint(inv), 'sched types list'],
  [
    'link create: nothing to pick from (the example)',
    (inv) => linkCreateHint(inv),
    'sched link create intro-call --count 5 -o csv',
  ],
  [
    'sandbox cancel: not a meeting UUID',
    (inv) => usageHint(() => checkUuid('x', 'meeting', inv)),
    'sched sandbox meetings',
  ],
  [
    'sandbox deliveries --webhook: not a webhook UUID',
    (inv) => usageHint(() => checkUuid('x', 'webhook', inv)),
    'sched webhooks ls',
  ],
];

function usageHint(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as UsageError).hint ?? '';
  }
  throw new Error('no error');
}

describe('hints built from the invocation', () => {
  const rows = INVOCATIONS.flatMap((i) =>
    ACCOUNT_HINTS.map(([caller, hint, command]) => ({ ...i, caller, hint, command })),
  );
  it.each(rows)('$name: $caller', async ({ inv, hint, command, flags }) => {
    // The command with exactly the invocation's flags, then the end of the command line.
    const escaped = `${command}${flags}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(await hint(inv)).toMatch(new RegExp(`${escaped}(\`| >|$)`));
  });

  it('`sched profiles ls` lists every profile: it keeps no flag, as the unknown-profile hint says', () => {
    expect(profilesListHint()).toBe('`sched profiles ls`');
    expect(unknownProfileError('globex', 'flag', []).hint).toContain(
      '; `sched profiles ls` lists them',
    );
  });

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

describe('suggested commands of a real run keep its --base-url and --profile', () => {
  let sb: TestSandbox;
  const config = useConfigDir('sched-hints-');
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(async () => {
    await sb?.close();
  });
  const run = (argv: string[]) =>
    runSched(argv, {
      env: { SCHED_API_KEY: sb.apiKey, SCHED_CONFIG_DIR: config.path },
    });

  it('link create <unknown>: `sched types list --all --base-url …`', async () => {
    const r = await run(['link', 'create', 'no-such-type', '--base-url', sb.baseUrl]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `hint: run \`sched types list --all --base-url ${sb.baseUrl}\` to see the names`,
    );
  });

  it('types get <unknown>: `sched types list --name <text> --base-url …`', async () => {
    const r = await run(['types', 'get', 'no-such-type', '--base-url', sb.baseUrl]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(
      `hint: run \`sched types list --name <text> --base-url ${sb.baseUrl}\` to find it`,
    );
  });

  it('sandbox cancel <not a uuid>: the sandbox commands keep --base-url', async () => {
    const r = await run(['sandbox', 'cancel', 'nope', '--base-url', sb.baseUrl]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`\`sched sandbox meetings --base-url ${sb.baseUrl}\` lists them`);
  });

  it('profiles ls with no profile yet: `sched auth login --profile globex`', async () => {
    const r = await run(['profiles', 'ls', '--profile', 'globex']);
    expect(r.stderr).toMatch(/No profiles yet .*; run `sched auth login --profile globex`\n/);
  });
});
