// The tool table of `sched mcp` without a transport or a server: which level lists what, the
// annotations of each tool, the refusals and the argument checks (all before any request: the
// client given here fails the test if asked for), the secret rule and the error wording.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  annotationsOf,
  callTool,
  failureText,
  fitted,
  LIST_BYTES,
  refusal,
  TOOLS,
  toolsFor,
  withoutSecret,
  type Access,
  type ToolDeps,
} from '../../src/mcp/tools.js';
import { AuthError, UsageError } from '../../src/errors.js';
import { NO_KNOWN_CAUSE, signPayload } from '../../src/domain/webhooks/signature.js';
import type { Webhook } from '../../src/api/types.js';

const noApi: ToolDeps = {
  api: () => Promise.reject(new Error('no request may be made')),
  resolveMeetingType: () => Promise.reject(new Error('no lookup may be made')),
  env: {
    SCHED_WEBHOOK_SECRET_HOOK: 'hook-secret-1234',
    SCHED_WEBHOOK_SECRET_EMPTY: '',
    SCHED_WEBHOOK_SECRET_SHORT: 'fifteen-chars-x',
    SCHED_API_KEY: 'sk_live_the-api-key-0001',
    DB_PASSWORD: 'hunter22',
    CI: 'true',
  },
  addSecrets: () => {},
  mask: () => (s) => s,
};

async function fails(name: string, args: unknown, access: Access = 'write', deps = noApi) {
  try {
    await callTool(name, args, { access, deps, signal: new AbortController().signal });
  } catch (e) {
    return failureText(e);
  }
  throw new Error(`${name} did not fail`);
}

describe('the tool list', () => {
  it('is exactly what an assistant is shown (test/fixtures/mcp-tools.json): a change is deliberate', () => {
    const fixture = new URL('../fixtures/mcp-tools.json', import.meta.url);
    expect(JSON.parse(JSON.stringify(TOOLS))).toEqual(JSON.parse(readFileSync(fixture, 'utf8')));
  });
});

describe('levels and annotations', () => {
  it.each([
    [
      'read-only',
      ['list_meeting_types', 'list_webhooks', 'verify_webhook_signature', 'sample_event'],
    ],
    [
      'default',
      [
        'list_meeting_types',
        'create_single_use_link',
        'list_webhooks',
        'verify_webhook_signature',
        'sample_event',
      ],
    ],
    ['write', TOOLS.map((t) => t.name)],
  ] as const)('%s lists %j', (access, names) => {
    expect(toolsFor(access).map((t) => t.name)).toEqual(names);
  });

  it.each([
    // name, readOnly, destructive, idempotent, openWorld (against the service)
    ['list_meeting_types', true, false, true, true],
    ['create_single_use_link', false, false, false, true],
    ['list_webhooks', true, false, true, true],
    ['create_webhook', false, false, false, true],
    ['delete_webhook', false, true, true, true],
    ['verify_webhook_signature', true, false, true, false],
    ['sample_event', true, false, true, false],
  ] as const)(
    '%s: readOnly %s, destructive %s, idempotent %s, openWorld %s',
    (name, ro, de, id, ow) => {
      const def = TOOLS.find((t) => t.name === name)!;
      expect(annotationsOf(def, { sandbox: false })).toEqual({
        title: def.title,
        readOnlyHint: ro,
        destructiveHint: de,
        idempotentHint: id,
        openWorldHint: ow,
      });
      expect(annotationsOf(def, { sandbox: true }).openWorldHint).toBe(false);
    },
  );
});

describe('refusals', () => {
  it.each([
    ['create_webhook', 'default', '--allow-write', 'restart it as `sched mcp --allow-write`'],
    [
      'delete_webhook',
      'read-only',
      '--allow-write',
      'restart it as `sched mcp --allow-write` (without --read-only)',
    ],
    ['create_single_use_link', 'read-only', '--read-only', 'restart it without --read-only'],
  ] as const)('%s under %s names %s', async (name, access, flag, hint) => {
    const text = await fails(name, {}, access);
    expect(text.split('\n')[0]).toContain(flag);
    expect(text).toContain(`hint: ${hint}`);
    expect(refusal(name, access)).toBeInstanceOf(UsageError);
  });

  it('an unknown tool: the nearest name, and the tools there are', async () => {
    expect(await fails('sample_events', {}, 'read-only')).toBe(
      'error: unknown tool "sample_events" (did you mean "sample_event"?)\n' +
        'hint: the tools are list_meeting_types, list_webhooks, verify_webhook_signature, sample_event',
    );
  });
});

describe('arguments, checked before any request', () => {
  it.each([
    ['list_meeting_types', 'x', 'list_meeting_types: the arguments must be an object'],
    ['list_meeting_types', { limit: 0 }, 'limit must be from 1 to 100; got 0'],
    ['list_meeting_types', { limit: 101 }, 'limit must be from 1 to 100; got 101'],
    ['list_meeting_types', { page: 1.5 }, 'page must be a whole number'],
    ['list_meeting_types', { all: 'yes' }, 'all must be true or false'],
    ['list_meeting_types', { query: 7 }, 'query must be a string'],
    [
      'list_meeting_types',
      { query: 'x'.repeat(201) },
      'query is too long (at most 200 characters)',
    ],
    ['create_single_use_link', {}, 'create_single_use_link: meeting_type is required'],
    [
      'create_single_use_link',
      { meeting_type: 'a', count: 26 },
      'count must be from 1 to 25; got 26',
    ],
    ['create_webhook', { url: 'ftp://x' }, 'url must be an absolute http(s) URL'],
    ['create_webhook', { url: 'https://x.example/h', events: [] }, 'events is empty'],
    ['create_webhook', { url: 'https://x.example/h', events: 'all' }, 'events must be a list'],
    ['create_webhook', { url: 'https://x.example/h', events: ['nope'] }, 'unknown event "nope"'],
    ['create_webhook', { url: 'https://x.example/h' }, 'a signing secret is needed'],
    [
      'create_webhook',
      { url: 'https://x.example/h', secret_env: 'SCHED_WEBHOOK_SECRET_HOOK', unsigned: true },
      'give secret_env or unsigned, not both',
    ],
    [
      'create_webhook',
      { url: 'https://x.example/h', secret_env: 'hook-secret-1234' },
      'secret_env: "hook-secret-1234" is not an environment variable name',
    ],
    [
      'create_webhook',
      { url: 'https://x.example/h', secret_env: 'SCHED_WEBHOOK_SECRET_EMPTY' },
      'secret_env: environment variable SCHED_WEBHOOK_SECRET_EMPTY is empty in the server process',
    ],
    ['delete_webhook', { uuid: 'abc' }, 'uuid: "abc" is not a webhook UUID'],
    ['verify_webhook_signature', { payload: 'p', signature: ' ' }, 'signature is empty'],
    [
      'verify_webhook_signature',
      { payload: 'p', signature: 's', secret_env: 'SCHED_WEBHOOK_SECRET_UNSET' },
      'secret_env: environment variable SCHED_WEBHOOK_SECRET_UNSET is not set in the server process',
    ],
    ['sample_event', { event: 'meetingBooked' }, 'unknown event "meetingBooked"'],
    ['sample_event', { event: 'x', extra: 1 }, 'sample_event: unknown argument "extra"'],
  ])('%s %j: %s', async (name, args, message) => {
    const text = await fails(name, args);
    expect(text.split('\n')[0]).toContain(message);
  });

  it.each([null, undefined])('arguments %s are none: the required one is named', async (args) => {
    expect(await fails('sample_event', args)).toBe('error: sample_event: event is required');
  });

  it.each([
    ['list_meeting_types', { query: 'x'.repeat(200), limit: 100, page: 1, all: false }],
    ['list_webhooks', { limit: 1, page: 1_000_000 }],
    ['create_single_use_link', { meeting_type: 'a', count: 25 }],
    ['create_single_use_link', { meeting_type: 'a', count: 1 }],
  ])('%s %j passes the checks (and reaches the API)', async (name, args) => {
    expect(await fails(name, args)).toBe('error: unexpected failure: no request may be made');
  });

  it('too many links: the hint says to ask again; a page size over the cap has none', async () => {
    expect(await fails('create_single_use_link', { meeting_type: 'a', count: 0 })).toBe(
      'error: count must be from 1 to 25; got 0\nhint: ask again for the rest: at most 25 per call',
    );
    expect(await fails('list_webhooks', { limit: 101 })).toBe(
      'error: limit must be from 1 to 100; got 101',
    );
  });

  it.each([
    [
      'list_meeting_types',
      { qeury: 'x' },
      'error: list_meeting_types: unknown argument "qeury" (did you mean "query"?)\n' +
        'hint: its arguments are query, page, limit, all',
    ],
    [
      'create_webhook',
      { url: 'https://x.example/h', secret_env: 'not a name' },
      'error: secret_env: "not a name" is not an environment variable name\n' +
        'hint: give the NAME of a variable of the server process, e.g. SCHED_WEBHOOK_SECRET_ORDERS, not the secret',
    ],
    [
      'create_webhook',
      { url: 'https://x.example/h', events: ['meetingScheduled', 1] },
      'error: events must be a list of event names\nhint: e.g. ["meetingScheduled"]; leave it out for all events',
    ],
    [
      'create_webhook',
      { url: 'https://x.example/h', events: [] },
      'error: events is empty\nhint: leave it out to subscribe to every event',
    ],
    [
      'delete_webhook',
      { uuid: 'abc' },
      'error: uuid: "abc" is not a webhook UUID\nhint: list_webhooks shows the UUIDs',
    ],
    [
      'verify_webhook_signature',
      { payload: 'p', signature: '\t' },
      'error: signature is empty\nhint: pass the webhook-signature header value exactly as received',
    ],
  ])('%s %j: the whole error, with the hint that fixes it', async (name, args, text) => {
    expect(await fails(name, args)).toBe(text);
  });

  it('no message quotes a secret it read', async () => {
    const text = await fails('create_webhook', {
      url: 'https://x.example/h',
      secret_env: 'SCHED_WEBHOOK_SECRET_HOOK',
      events: ['nope'],
    });
    expect(text).not.toContain('hook-secret-1234');
  });
});

describe('secret_env: only variables whose names begin with SCHED_WEBHOOK_SECRET', () => {
  const RULE =
    'is not allowed: a tool may read only variables whose names begin with SCHED_WEBHOOK_SECRET\n' +
    'hint: put the secret in the "env" of the server\'s configuration as SCHED_WEBHOOK_SECRET_<NAME> ' +
    '(e.g. SCHED_WEBHOOK_SECRET_ORDERS), restart the server and pass that name';
  const callers = [
    ['create_webhook', { url: 'https://x.example/h' }],
    ['verify_webhook_signature', { payload: 'body', signature: 'a-guess' }],
  ] as const;

  it.each(
    callers.flatMap(([tool, args]) =>
      [
        'SCHED_API_KEY',
        'DB_PASSWORD',
        'CI',
        'sched_webhook_secret_x',
        'X_SCHED_WEBHOOK_SECRET',
      ].map((name) => [tool, name, args] as const),
    ),
  )('%s refuses %s, naming the rule, reading nothing', async (tool, name, args) => {
    const added: string[] = [];
    const deps = { ...noApi, addSecrets: (l: readonly string[]) => added.push(...l) };
    const text = await fails(tool, { ...args, secret_env: name }, 'write', deps);
    expect(text).toBe(`error: secret_env: "${name}" ${RULE}`);
    expect(added).toEqual([]);
  });

  it('create_webhook refuses a secret under 16 characters; verify accepts it', async () => {
    expect(
      await fails('create_webhook', {
        url: 'https://x.example/h',
        secret_env: 'SCHED_WEBHOOK_SECRET_SHORT',
      }),
    ).toBe(
      'error: secret_env: the secret in SCHED_WEBHOOK_SECRET_SHORT is shorter than 16 characters, too weak for a new webhook\n' +
        'hint: put a longer one in SCHED_WEBHOOK_SECRET_SHORT (e.g. the output of `openssl rand -base64 32`) and restart the server',
    );
    // 16 characters pass the check (and reach the API).
    expect(
      await fails('create_webhook', {
        url: 'https://x.example/h',
        secret_env: 'SCHED_WEBHOOK_SECRET_HOOK',
      }),
    ).toBe('error: unexpected failure: no request may be made');
    const r = await callTool(
      'verify_webhook_signature',
      {
        payload: 'body',
        signature: signPayload('fifteen-chars-x', 'body'),
        secret_env: 'SCHED_WEBHOOK_SECRET_SHORT',
      },
      { access: 'read-only', deps: noApi, signal: new AbortController().signal },
    );
    expect(r.structured).toEqual({ valid: true, reason: null });
  });

  it('verify never tells a guess of the secret from another wrong value', async () => {
    const verdict = async (signature: string) =>
      (
        await callTool(
          'verify_webhook_signature',
          { payload: 'body', signature, secret_env: 'SCHED_WEBHOOK_SECRET_HOOK' },
          { access: 'read-only', deps: noApi, signal: new AbortController().signal },
        )
      ).structured;
    const right = await verdict('hook-secret-1234');
    expect(right).toEqual({ valid: false, reason: NO_KNOWN_CAUSE });
    expect(await verdict('hook-secret-9999')).toEqual(right);
  });

  it('the schema says the rule to the client', () => {
    for (const t of TOOLS) {
      const se = t.inputSchema.properties.secret_env;
      if (se) expect(se.pattern).toBe('^SCHED_WEBHOOK_SECRET[A-Za-z0-9_]*$');
    }
  });
});

describe('the tools that need no account', () => {
  const call = (name: string, args: unknown, deps: ToolDeps = noApi) =>
    callTool(name, args, { access: 'read-only', deps, signal: new AbortController().signal });

  it('verify: valid with the secret the variable holds, which is added to the masked secrets', async () => {
    const added: string[] = [];
    const deps = { ...noApi, addSecrets: (l: readonly string[]) => added.push(...l) };
    const ok = await call(
      'verify_webhook_signature',
      {
        payload: 'body',
        signature: ` ${signPayload('hook-secret-1234', 'body')}\n`,
        secret_env: 'SCHED_WEBHOOK_SECRET_HOOK',
      },
      deps,
    );
    expect(ok.structured).toEqual({ valid: true, reason: null });
    expect(ok.text).toBe(
      'valid: the signature matches the payload (secret from SCHED_WEBHOOK_SECRET_HOOK)',
    );
    expect(added).toEqual(['hook-secret-1234']);
    const bad = await call(
      'verify_webhook_signature',
      { payload: 'body', signature: 'x', secret_env: 'SCHED_WEBHOOK_SECRET_HOOK' },
      deps,
    );
    expect(bad.structured.valid).toBe(false);
    expect(bad.text).toBe(`invalid: ${String(bad.structured.reason)}`);
    // Signed with another secret: no known mistake explains it (the payload was checked).
    const other = await call(
      'verify_webhook_signature',
      {
        payload: 'body',
        signature: signPayload('another-secret', 'body'),
        secret_env: 'SCHED_WEBHOOK_SECRET_HOOK',
      },
      deps,
    );
    expect(other.structured).toEqual({ valid: false, reason: NO_KNOWN_CAUSE });
  });

  it('sample: the payload as structured content, and its exact JSON in the text', async () => {
    const r = await call('sample_event', { event: ' MeetingCancelled ' });
    expect(r.structured.event).toBe('meetingCancelled');
    const json = JSON.stringify(r.structured);
    expect(r.text).toBe(
      `A sample meetingCancelled delivery body (${Buffer.byteLength(json)} bytes, compact JSON as the service sends it):\n${json}`,
    );
  });
});

describe('results and failures', () => {
  it('withoutSecret: a secret the service sent becomes ****; null and absent stay', () => {
    const w = { uuid: 'u', url: 'https://x', events: [], created_at: '' } as unknown as Webhook;
    expect(withoutSecret({ ...w, secret: 's3cret-value' })).toEqual({ ...w, secret: '****' });
    expect(withoutSecret({ ...w, secret: null })).toEqual({ ...w, secret: null });
    expect(withoutSecret(w)).toBe(w);
  });

  it('failureText: the CLI words, details indented, the hint last; a bug says so', () => {
    expect(failureText(new UsageError('bad', { details: ['one', 'two'], hint: 'do x' }))).toBe(
      'error: bad\n  one\n  two\nhint: do x',
    );
    expect(failureText(new AuthError('no key'))).toBe(
      'error: no key\nhint: run `sched auth login` or set SCHED_API_KEY',
    );
    expect(failureText(new TypeError('oops'))).toBe('error: unexpected failure: oops');
  });
});

describe('fitted: the byte bound of a listing', () => {
  it('keeps items while their JSON and a separator fit in LIST_BYTES, exactly', () => {
    // Each item costs 16 bytes ("xxxxxxxxxxxxx" and one): LIST_BYTES holds exactly 30,720.
    const item = 'x'.repeat(13);
    const fit = LIST_BYTES / (JSON.stringify(item).length + 1);
    expect(fit).toBe(30_720);
    const listing = (n: number) => ({
      items: Array.from({ length: n }, () => item),
      page: 1,
      pages: 1,
      total: n,
      hasMore: false,
      truncated: false,
    });
    const whole = fitted(listing(fit), (s) => s);
    expect(whole).toEqual(listing(fit));
    const cut = fitted(listing(fit + 500), (s) => s);
    expect(cut.items).toHaveLength(fit);
    expect(cut).toMatchObject({ hasMore: true, truncated: true, total: fit + 500 });
    expect(cut.note).toBe(
      `only the first ${fit} fit in one result (about 1 MiB): read by page with a smaller limit`,
    );
  });
});
