// Requests never go somewhere unexpected: when SCHED_BASE_URL or SCHED_API_KEY overrides what
// the profile stores, every command that creates or deletes says so on stderr before its first
// write, naming the variable and the URL actually used — one table over every writing command.
// Commands that only read say nothing; nothing is said when nothing is overridden.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../../src/cli.js';
import { createBufferIO } from '../helpers/buffer-io.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { runSched, type RunResult } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';

const STORED_URL = 'https://secure.simplymeet.me/api';
const config = useConfigDir('sched-override-');
let sb: TestSandbox;

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** Env with a stored profile "default" (another base URL, another key) and both overrides set. */
function env(overrides = true): Record<string, string> {
  return {
    SCHED_CONFIG_DIR: config.path,
    ...(overrides ? sb.env : {}),
  };
}

beforeEach(async () => {
  // The profile stores the real service; the environment still points at the sandbox.
  writeFileSync(
    path.join(config.path, 'config.json'),
    JSON.stringify({
      profiles: { default: { baseUrl: STORED_URL, apiKey: 'stored-key-0123456789' } },
    }),
    { mode: 0o600 },
  );
});

async function api<T>(p: string, init?: RequestInit): Promise<T> {
  return (await (await sb.api(p, init)).json()) as T;
}
async function newWebhook(url: string): Promise<string> {
  const w = await api<{ uuid: string }>('/webhooks', {
    method: 'POST',
    body: JSON.stringify({ url, events: ['meetingScheduled'] }),
  });
  return w.uuid;
}
async function newLink(): Promise<string> {
  const types = await api<{ _embedded: { items: Array<{ uuid: string }> } }>(
    '/users/me/meeting-types',
  );
  const link = await api<{ code: string }>('/single-use-link', {
    method: 'POST',
    body: JSON.stringify({ meeting_type_uuid: types._embedded.items[0]!.uuid }),
  });
  return link.code;
}
async function newMeeting(): Promise<string> {
  const booked = await api<{ meeting: { uuid: string } }>('/_sandbox/book', {
    method: 'POST',
    body: JSON.stringify({ code: await newLink() }),
  });
  return booked.meeting.uuid;
}

/** `webhooks listen --register`: runs until its webhook exists, then Ctrl-C. */
async function listenRegister(e: Record<string, string>): Promise<RunResult> {
  const ac = new AbortController();
  const io = createBufferIO({ env: e });
  const url = `https://tunnel.example.test/hook-${Date.now()}`;
  const done = runCli(['webhooks', 'listen', '--port', '0', '--register', url], {
    io,
    env: e,
    signal: ac.signal,
  });
  let code: number | undefined;
  void done.then((c) => (code = c));
  await until(
    () => /ready/.test(io.stderrText()) || code !== undefined,
    'the listener',
    io.stderrText,
  );
  ac.abort('SIGINT');
  return { code: await done, stdout: io.stdoutText(), stderr: io.stderrText() };
}

type Row = [what: string, run: (e: Record<string, string>) => Promise<RunResult>];
const run = (argv: () => Promise<string[]> | string[]) => async (e: Record<string, string>) =>
  runSched(await argv(), { env: e });

const WRITING: Row[] = [
  [
    'webhooks add',
    run(() => ['webhooks', 'add', '--url', 'https://a.example.test/h', '--no-secret']),
  ],
  [
    'webhooks rm <uuid>',
    run(async () => ['webhooks', 'rm', await newWebhook('https://b.example.test/h')]),
  ],
  [
    'webhooks rm --url --yes',
    run(async () => {
      await newWebhook('https://c.example.test/h');
      return ['webhooks', 'rm', '--url', 'https://c.example.test/h', '--yes'];
    }),
  ],
  [
    'webhooks sync',
    run(() => {
      const file = path.join(config.path, 'hooks.json');
      writeFileSync(
        file,
        JSON.stringify({
          webhooks: [
            {
              url: 'https://d.example.test/h',
              events: ['meetingCancelled'],
              secret: 'sync-secret-0123456789',
            },
          ],
        }),
      );
      return ['webhooks', 'sync', '--file', file];
    }),
  ],
  ['link create', run(() => ['link', 'create', 'intro-call'])],
  ['sandbox book', run(async () => ['sandbox', 'book', await newLink()])],
  ['sandbox cancel', run(async () => ['sandbox', 'cancel', await newMeeting()])],
  [
    'sandbox reschedule',
    run(async () => ['sandbox', 'reschedule', await newMeeting(), '--at', '2030-01-15T15:00:00Z']),
  ],
  ['webhooks listen --register', listenRegister],
  [
    'api -X POST (a raw write)',
    run(() => [
      'api',
      'webhooks',
      '-f',
      'url=https://g.example.test/h',
      '-f',
      'events[]=meetingCancelled',
    ]),
  ],
  [
    'api -X DELETE',
    run(async () => [
      'api',
      '-X',
      'DELETE',
      `webhooks/${await newWebhook('https://h.example.test/h')}`,
    ]),
  ],
];

const READING: Row[] = [
  ['types list', run(() => ['types', 'list'])],
  ['webhooks ls', run(() => ['webhooks', 'ls'])],
  ['api (a GET)', run(() => ['api', 'webhooks'])],
  ['api --paginate', run(() => ['api', 'users/me/meeting-types', '--paginate'])],
  [
    'webhooks sync --dry-run',
    run(() => {
      const file = path.join(config.path, 'dry.json');
      writeFileSync(
        file,
        JSON.stringify({
          webhooks: [
            {
              url: 'https://e.example.test/h',
              events: ['meetingCancelled'],
              secret: 'sync-secret-0123456789',
            },
          ],
        }),
      );
      return ['webhooks', 'sync', '--file', file, '--dry-run'];
    }),
  ],
];

const BASE_NOTE = () =>
  `note: SCHED_BASE_URL is set in the environment and overrides profile "default" (${STORED_URL}): requests go to ${sb.baseUrl}\n`;
const KEY_NOTE = () =>
  `note: SCHED_API_KEY is set in the environment and overrides the key stored in profile "default": its key is sent to ${sb.baseUrl}\n`;

describe('override notes', () => {
  it.each(WRITING)(
    '%s says what the environment overrides, once, before writing',
    async (_, go) => {
      const r = await go(env());
      expect([0, 130]).toContain(r.code);
      expect(r.stderr).toContain(BASE_NOTE());
      expect(r.stderr).toContain(KEY_NOTE());
      expect(r.stderr.split(BASE_NOTE()).length).toBe(2);
    },
  );

  it.each(READING)('%s (only reads) says nothing about it', async (_, go) => {
    const r = await go(env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('note: SCHED_');
  });

  it('nothing is said when the environment agrees with the profile', async () => {
    writeFileSync(
      path.join(config.path, 'config.json'),
      JSON.stringify({ profiles: { default: { baseUrl: sb.baseUrl, apiKey: sb.apiKey } } }),
    );
    const r = await runSched(
      ['webhooks', 'add', '--url', 'https://f.example.test/h', '--no-secret'],
      {
        env: env(),
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('note: SCHED_');
  });
});
