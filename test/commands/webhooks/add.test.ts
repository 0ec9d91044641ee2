// `sched webhooks add` in-process against the sandbox: local validation before any request,
// the secure default (a generated secret printed once, on stdout only), --secret-stdin,
// --no-secret, --if-absent, the interactive path, and output shapes.
import { describe, expect, it } from 'vitest';
import { runSched, type RunOptions } from '../../helpers/run.js';
import type { Choice } from '../../../src/prompt.js';
import { f, startFaultServer } from '../../helpers/fault-server.js';
import { fakePrompter, useSandbox } from '../../helpers/command-harness.js';
import { EVENT_NAMES } from '../../../src/api/types.js';

const URL_A = 'https://hooks.example.com/sched';
const ALL = [...EVENT_NAMES];
const GIVEN = 'my-own_SECRET-value-1234';

const h = useSandbox();
const add = (args: string[], opts: RunOptions = {}) => h.run(['webhooks', 'add', ...args], opts);

const posts = () => h.sb.requests.filter((r) => r.method === 'POST');
const stored = () => [...h.sb.state.webhooks.values()];

describe('webhooks add: local validation (no request at all)', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['a relative URL', ['--url', '/hooks'], /--url must be an absolute http\(s\) URL/],
    ['a non-http scheme', ['--url', 'ftp://example.com/x'], /--url must be an absolute http/],
    ['a URL with a space', ['--url', 'https://example.com/a b'], /without spaces/],
    ['garbage', ['--url', 'not a url'], /--url must be/],
    [
      'an unknown event',
      ['--url', URL_A, '--event', 'meetingBooked'],
      new RegExp(`unknown event "meetingBooked"; allowed: ${EVENT_NAMES.join(', ')}`),
    ],
    [
      'two secret options',
      ['--url', URL_A, '--secret', 'x', '--no-secret'],
      /only one of --secret, --secret-stdin and --no-secret/,
    ],
    [
      '--secret and --secret-stdin',
      ['--url', URL_A, '--secret', 'x', '--secret-stdin'],
      /only one/,
    ],
    ['an empty --secret', ['--url', URL_A, '--secret', ''], /--secret is empty/],
    ['no --url without a terminal', [], /--url is required/],
  ];
  for (const [what, args, message] of cases) {
    it(`${what}: exit 2`, async () => {
      const r = await add(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
      expect(h.sb.requests).toHaveLength(0);
    });
  }

  it('--secret-stdin from a terminal, or more than 64 KiB of it: exit 2', async () => {
    const tty = await add(['--url', URL_A, '--secret-stdin'], {
      tty: true,
      env: { NO_COLOR: '1' },
    });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toContain(
      'error: --secret-stdin reads the secret from a pipe or a file, not a terminal\n',
    );
    const huge = await add(['--url', URL_A, '--secret-stdin'], {
      stdin: 'x'.repeat(64 * 1024 + 1),
    });
    expect(huge.code).toBe(2);
    expect(huge.stderr).toBe('error: the secret on stdin is too long (more than 64 KiB)\n');
    expect(h.sb.requests).toHaveLength(0);
  });

  it('an empty secret on stdin: exit 2', async () => {
    const r = await add(['--url', URL_A, '--secret-stdin'], { stdin: '\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('empty');
    expect(h.sb.requests).toHaveLength(0);
  });
});

describe('webhooks add: secure by default', () => {
  it('generates a strong secret, sends it, prints it once on stdout and never on stderr', async () => {
    const r = await add(['--url', URL_A]);
    expect(r.code).toBe(0);
    expect(posts()).toHaveLength(1);
    const body = posts()[0]!.body as { url: string; events: string[]; secret: string };
    expect(body.url).toBe(URL_A);
    expect(body.events).toEqual(ALL);
    expect(body.secret).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
    const row = r.stdout.trimEnd().split('\t');
    expect(row).toHaveLength(5);
    expect(row[0]).toBe(stored()[0]!.uuid);
    expect(row[4]).toBe(body.secret);
    expect(r.stderr).not.toContain(body.secret);
    expect(r.stderr).toMatch(/Store the signing secret now/);
  });

  it('two runs make two different secrets', async () => {
    await add(['--url', URL_A]);
    await add(['--url', URL_A + '/2']);
    const [a, b] = stored();
    expect(a!.secret).not.toBe(b!.secret);
  });

  it('on a terminal: shown clearly as a field, with the warning on stderr', async () => {
    const r = await add(['--url', URL_A], { tty: true, env: { NO_COLOR: '1' } });
    const secret = stored()[0]!.secret!;
    expect(r.stdout).toMatch(new RegExp(`^SECRET\\s+${secret}$`, 'm'));
    expect(r.stdout).toMatch(/^URL\s+https:\/\/hooks\.example\.com\/sched$/m);
    expect(r.stderr).not.toContain(secret);
  });

  it('--quiet prints just the generated secret, and stderr keeps only what matters', async () => {
    const r = await add(['--url', URL_A, '-q']);
    expect(r.stdout).toBe(stored()[0]!.secret + '\n');
    // No instructions for the secret (it is what stdout holds), no note of other webhooks.
    expect(r.stderr).toBe('');
    const other = await add(['--url', URL_A, '--event', 'meetingCancelled', '--if-absent', '-q']);
    expect(other.code).toBe(0);
    expect(other.stderr).toBe('');
    // What changes the meaning of stdout, or is a risk, is still said.
    const again = await add(['--url', URL_A, '--event', 'meetingCancelled', '--if-absent', '-q']);
    expect(again.stdout).toBe(stored()[1]!.uuid + '\n');
    expect(again.stderr).toBe(
      `A webhook for this URL with these events already exists (${stored()[1]!.uuid}); nothing was created.\n`,
    );
    const unsigned = await add(['--url', `${URL_A}/u`, '--no-secret', '-q']);
    expect(unsigned.stderr).toBe(
      'This webhook is unsigned: a receiver cannot tell its deliveries from forged ones.\n',
    );
  });

  it('--json prints the webhook object the API returned, secret included', async () => {
    const r = await add(['--url', URL_A, '--event', 'meetingCancelled', '--json']);
    expect(r.code).toBe(0);
    const w = JSON.parse(r.stdout) as Record<string, unknown>;
    const s = stored()[0]!;
    expect(w).toEqual({ ...s });
    expect(Object.keys(w).sort()).toEqual(['created_at', 'events', 'secret', 'url', 'uuid']);
    expect(w.events).toEqual(['meetingCancelled']);
    expect(r.stderr).not.toContain(s.secret!);
  });
});

describe('webhooks add: SCHED_WEBHOOK_SECRET', () => {
  const ENV = 'env-secret-for-hooks-42';
  const secretSent = (i: number) => (posts()[i]!.body as { secret?: string }).secret;

  it('is used when set, as sig, events send and listen use it; never echoed', async () => {
    const r = await add(['--url', URL_A], { env: { SCHED_WEBHOOK_SECRET: ENV } });
    expect(r.code).toBe(0);
    expect(secretSent(0)).toBe(ENV);
    expect(r.stdout + r.stderr).not.toContain(ENV);
    expect(r.stderr).toContain('Signing with the secret from SCHED_WEBHOOK_SECRET.');
    expect(r.stderr).not.toMatch(/Store the signing secret/);
    // Quiet: the new UUID, as for any given secret.
    const q = await add(['--url', URL_A + '/q', '-q'], { env: { SCHED_WEBHOOK_SECRET: ENV } });
    expect(q.stdout).toBe(stored()[1]!.uuid + '\n');
  });

  it('precedence: --secret > --secret-stdin > SCHED_WEBHOOK_SECRET > generated; --no-secret wins', async () => {
    const env = { SCHED_WEBHOOK_SECRET: ENV };
    await add(['--url', URL_A + '/1', '--secret', GIVEN], { env });
    await add(['--url', URL_A + '/2', '--secret-stdin'], { env, stdin: 'from-stdin-1\n' });
    await add(['--url', URL_A + '/3', '--no-secret'], { env });
    await add(['--url', URL_A + '/4'], { env: { SCHED_WEBHOOK_SECRET: '' } });
    expect([0, 1, 2].map(secretSent)).toEqual([GIVEN, 'from-stdin-1', undefined]);
    expect(secretSent(3)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('on a terminal, the secret question is not asked when it is set', async () => {
    const r = await add([], {
      tty: true,
      env: { SCHED_WEBHOOK_SECRET: ENV, NO_COLOR: '1' },
      prompter: fakePrompter({
        input: () => Promise.resolve(URL_A),
        checkbox: <T>(_m: string, choices: ReadonlyArray<Choice<T>>) =>
          Promise.resolve(choices.map((c) => c.value)),
      }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(secretSent(0)).toBe(ENV);
  });
});

describe('webhooks add: given secrets and no secret', () => {
  it('--secret: sent as given and never echoed outside --json', async () => {
    const r = await add(['--url', URL_A, '--secret', GIVEN]);
    expect(r.code).toBe(0);
    expect((posts()[0]!.body as { secret: string }).secret).toBe(GIVEN);
    expect(r.stdout + r.stderr).not.toContain(GIVEN);
    expect(r.stdout.trimEnd().split('\t')).toHaveLength(4);
    const q = await add(['--url', URL_A + '/q', '--secret', GIVEN, '-q']);
    expect(q.stdout).toBe(stored()[1]!.uuid + '\n');
  });

  it('--secret-stdin: one trailing newline stripped, the rest kept', async () => {
    const r = await add(['--url', URL_A, '--secret-stdin'], { stdin: ` ${GIVEN}\n` });
    expect(r.code).toBe(0);
    expect((posts()[0]!.body as { secret: string }).secret).toBe(` ${GIVEN}`);
    expect(r.stdout + r.stderr).not.toContain(GIVEN);
    await add(['--url', URL_A + '/crlf', '--secret-stdin'], { stdin: `${GIVEN}\r\n` });
    expect((posts()[1]!.body as { secret: string }).secret).toBe(GIVEN);
  });

  it('--no-secret: no secret in the request, a warning about unsigned deliveries', async () => {
    const r = await add(['--url', URL_A, '--no-secret']);
    expect(r.code).toBe(0);
    expect(posts()[0]!.body).toEqual({ url: URL_A, events: ALL });
    expect(stored()[0]!.secret).toBeNull();
    expect(r.stderr).toMatch(/unsigned/);
  });

  it('events: repeatable, comma-separated, case forgiven, duplicates collapsed', async () => {
    const r = await add([
      '--url',
      URL_A,
      '--event',
      'meetingrescheduled',
      '--event',
      'meetingScheduled,meetingScheduled',
    ]);
    expect(r.code).toBe(0);
    expect((posts()[0]!.body as { events: string[] }).events).toEqual([
      'meetingScheduled',
      'meetingRescheduled',
    ]);
  });

  it('a URL the API rejects (422) is exit 2 with the field message', async () => {
    const srv = await startFaultServer();
    try {
      srv.on(
        'POST',
        '/api/webhooks',
        f.json(422, {
          message: 'Invalid arguments',
          errors: { url: ['This value is not a valid URL.'] },
        }),
      );
      const r = await runSched(['webhooks', 'add', '--url', URL_A], {
        env: h.envFor(srv.baseUrl),
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('url: This value is not a valid URL.');
      expect(r.stdout).toBe('');
      expect(srv.count('POST')).toBe(1);
    } finally {
      await srv.close();
    }
  });
});

describe('webhooks add --if-absent', () => {
  it('prints the existing webhook and creates nothing when URL and events match', async () => {
    const first = await add(['--url', URL_A, '--event', 'meetingScheduled', '--json']);
    const existing = JSON.parse(first.stdout) as { uuid: string };
    h.sb.requests.length = 0;
    const r = await add([
      '--url',
      'https://HOOKS.example.com/sched',
      '--event',
      'meetingScheduled',
      '--if-absent',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(posts()).toHaveLength(0);
    const shown = JSON.parse(r.stdout) as { uuid: string; secret: unknown };
    expect(shown.uuid).toBe(existing.uuid);
    expect(shown.secret).toBeNull();
    expect(r.stderr).toMatch(/already exists.*nothing was created/);
    expect(stored()).toHaveLength(1);
  });

  it('looks through every page', async () => {
    for (let i = 0; i < 23; i++) await add(['--url', `${URL_A}/${i}`, '--no-secret']);
    const target = `${URL_A}/22`;
    h.sb.requests.length = 0;
    const r = await add(['--url', target, '--no-secret', '--if-absent', '-q']);
    expect(r.code).toBe(0);
    expect(posts()).toHaveLength(0);
    expect(r.stdout.trim()).toBe(stored().find((w) => w.url === target)!.uuid);
  });

  it('creates one when the events differ, with a note', async () => {
    await add(['--url', URL_A, '--event', 'meetingScheduled']);
    h.sb.requests.length = 0;
    const r = await add(['--url', URL_A, '--if-absent']);
    expect(r.code).toBe(0);
    expect(posts()).toHaveLength(1);
    expect(r.stderr).toContain(
      'Note: a webhook for this URL already exists with other events; creating another one.',
    );
    expect(stored()).toHaveLength(2);
    // Two at the URL now, neither with exactly these events.
    const again = await add(['--url', URL_A, '--event', 'meetingCancelled', '--if-absent']);
    expect(again.stderr).toContain(
      'Note: 2 webhooks for this URL already exist with other events; creating another one.',
    );
    expect(stored()).toHaveLength(3);
  });
});

describe('webhooks add on a terminal without --url', () => {
  it('asks the URL, the events (all checked) and the secret mode', async () => {
    const asked: string[] = [];
    let offered: Choice<string>[] = [];
    const prompter = fakePrompter({
      input: async (m, o) => {
        asked.push(m);
        expect(o?.validate?.('not a url')).not.toBe(true);
        return URL_A;
      },
      checkbox: async <T>(m: string, choices: Choice<T>[]) => {
        asked.push(m);
        offered = choices as unknown as Choice<string>[];
        return [choices[2]!.value];
      },
      select: async <T>(m: string, choices: Choice<T>[]) => {
        asked.push(m);
        return choices[0]!.value; // generate
      },
    });
    const r = await add([], { tty: true, prompter, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(asked).toHaveLength(3);
    expect(offered.map((c) => [c.value, c.checked])).toEqual(ALL.map((e) => [e, true]));
    const w = stored()[0]!;
    expect([w.url, w.events]).toEqual([URL_A, ['meetingRescheduled']]);
    expect(r.stdout).toContain(w.secret!);
  });

  it('asks only what the flags did not say; "enter" asks a masked secret', async () => {
    const asked: string[] = [];
    const prompter = fakePrompter({
      input: async (m) => (asked.push(m), URL_A),
      select: async <T>(m: string, choices: Choice<T>[]) => (asked.push(m), choices[1]!.value),
      password: async (m) => (asked.push(m), GIVEN),
    });
    const r = await add(['--event', 'meetingCancelled'], { tty: true, prompter });
    expect(r.code).toBe(0);
    expect(asked).toEqual(['Webhook URL (absolute http or https)', 'Signing secret', 'Secret']);
    expect(stored()[0]!.secret).toBe(GIVEN);
    expect(r.stdout + r.stderr).not.toContain(GIVEN);
  });

  it('--no-input on a terminal: exit 2, no prompt', async () => {
    const r = await add(['--no-input'], { tty: true, prompter: fakePrompter({}) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--url is required');
  });
});

describe('webhooks add when stdout fails (issue 40)', () => {
  const deletes = () => h.sb.requests.filter((r) => r.method === 'DELETE');

  it.each([
    ['a full disk', 'ENOSPC'],
    ['a reader that left', 'EPIPE'],
  ])(
    'a generated secret that reached nobody (%s): the webhook is deleted and that is said; the secret never on stderr',
    async (_what, code) => {
      const r = await add(['--url', URL_A], { stdoutFails: { code, writes: 0 } });
      expect(r.code).toBe(1);
      expect(posts()).toHaveLength(1);
      expect(deletes()).toHaveLength(1);
      const uuid = deletes()[0]!.pathname.split('/').pop()!;
      expect(stored()).toEqual([]);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^error: could not write to stdout \\(.*${code}\\): the new webhook \\S+ was deleted, since its signing secret could not be kept$`,
        ),
      );
      expect(lines[0]).toContain(`the new webhook ${uuid} was deleted`);
      // The secret the sandbox was sent is nowhere in what the user saw.
      const sent = (posts()[0]!.body as { secret: string }).secret;
      expect(sent.length).toBeGreaterThan(20);
      expect(r.stderr).not.toContain(sent);
    },
  );

  it('a secret the user gave: the webhook stays, and the error says it was created', async () => {
    const r = await add(['--url', URL_A, '--secret', GIVEN], {
      stdoutFails: { code: 'ENOSPC', writes: 0 },
    });
    expect(r.code).toBe(1);
    expect(deletes()).toHaveLength(0);
    const [hook] = stored();
    expect(r.stderr).toBe(
      `error: could not write to stdout (no space left on the device, ENOSPC): webhook ${hook!.uuid} was created\n`,
    );
  });
});
