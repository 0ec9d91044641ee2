// Issue 16: one hostile string through every command's output paths. The list of commands is
// derived from the command tree (buildProgram): a command added without a case here fails the
// first test. Each case runs with stdout/stderr as a pipe (no colour: a CI log) and as a
// colour terminal; whatever the server, receiver, sandbox or file sent, no C0/C1 control,
// escape sequence (but our colours), bidi control or invisible character reaches the terminal,
// and no server text starts a line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { definitionOf } from '../../src/commands/define.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildProgram, runCli } from '../../src/cli.js';
import type { Prompter } from '../../src/prompt.js';
import { createBufferIO, type BufferIO } from '../helpers/buffer-io.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { runSched } from '../helpers/run.js';
import { f } from '../helpers/fault-server.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { mcpSession } from '../helpers/mcp-stdin.js';
import {
  HOSTILE,
  HOSTILE_KEY,
  expectHarmless,
  expectTerminalSafe,
  hostileRoutes,
  hostileValidationBody,
  rawResponse,
  startHostileApi,
  startRawReceiver,
  type RawReceiver,
} from '../helpers/hostile.js';

type HostileApi = Awaited<ReturnType<typeof startHostileApi>>;

interface Case {
  argv: string[];
  stdin?: string;
  /** Routes to answer differently for this case (restored after it). */
  routes?: (api: HostileApi) => void;
  /** Where the command talks to: the hostile API (default) or the sandbox with hostile data. */
  target?: 'api' | 'sandbox';
  /** A long-running command: what to do once it is ready, then it is stopped (Ctrl-C). */
  whenReady?: { ready: RegExp; then?: (stderr: string) => Promise<void> };
}

const config = useConfigDir('sched-sec-every-');
let api: HostileApi;
let sb: TestSandbox;
let rx: RawReceiver;
let syncFile: string;
let recording: string;
let notRecording: string;
let meetingUuid: string;
let linkCodes: string[];

beforeAll(async () => {
  api = await startHostileApi();
  rx = await startRawReceiver(rawResponse(500, `no${HOSTILE.replace(/[\r\n]/g, '')}`, HOSTILE));
  sb = await startTestSandbox({
    meetingTypes: [{ name: `Intro ${HOSTILE}`, description: HOSTILE, slug: 'intro' }],
  });
  // Links and a meeting in the sandbox, for book / cancel / reschedule.
  const typeUuid = [...sb.state.meetingTypesByUuid.keys()][0]!;
  linkCodes = [];
  for (let i = 0; i < 4; i++) {
    const res = await sb.api('/single-use-link', {
      method: 'POST',
      body: JSON.stringify({ meeting_type_uuid: typeUuid }),
    });
    linkCodes.push(((await res.json()) as { code: string }).code);
  }
  const booked = await runSched(
    ['sandbox', 'book', linkCodes.pop()!, '--name', `Eve ${HOSTILE}`, '--json'],
    {
      env: { SCHED_BASE_URL: sb.baseUrl, SCHED_API_KEY: sb.apiKey, SCHED_CONFIG_DIR: config.path },
    },
  );
  meetingUuid = (JSON.parse(booked.stdout) as { uuid: string }).uuid;
  expect(meetingUuid, booked.stdout).toMatch(/^[0-9a-f-]{36}$/);
  syncFile = path.join(config.path, 'hooks.json');
  writeFileSync(
    syncFile,
    JSON.stringify({
      webhooks: [
        { url: 'https://hooks.example.com/a', events: ['meetingScheduled'], secretEnv: 'HOOK' },
      ],
    }),
  );
  // A recording whose every field is hostile text, for `events replay`.
  recording = path.join(config.path, 'capture.ndjson');
  writeFileSync(
    recording,
    JSON.stringify({
      kind: 'sched.webhook-delivery/1',
      receivedAt: HOSTILE,
      method: 'POST',
      path: `/${HOSTILE}`,
      headers: [['user-agent', 'SimplyMeet.me']],
      body: HOSTILE,
      bytes: HOSTILE.length,
      event: HOSTILE,
      uuid: HOSTILE,
      signature: 'missing',
      signatureReason: HOSTILE,
    }) + '\n',
  );
  notRecording = path.join(config.path, 'not-capture.ndjson');
  writeFileSync(notRecording, `{"kind":${JSON.stringify(HOSTILE)}}\n`);
  // A profile whose stored base URL is hostile text (a config file is outside input too).
  writeFileSync(
    path.join(config.path, 'config.json'),
    JSON.stringify({
      profiles: { evil: { baseUrl: `https://x.example/${HOSTILE}`, apiKey: 'k' } },
    }),
    { mode: 0o600 },
  );
});
afterAll(async () => {
  await api.close();
  await rx.close();
  await sb.close();
});

const VALID_UUID = '3f1c9a4e-8a52-4f0e-9d7b-2c5e6a1b0d11';
const hostile422 = (method: string, p: string) => (a: HostileApi) =>
  a.on(method, p, f.json(422, hostileValidationBody()));

/** Posts a delivery with hostile content to a `webhooks listen` that printed its URL. */
async function deliverHostile(stderr: string): Promise<void> {
  const url = /listening on (\S+)/.exec(stderr)?.[1];
  if (!url) throw new Error(`no URL in: ${stderr}`);
  const body = JSON.stringify({
    event: `meetingScheduled${HOSTILE}`,
    uuid: HOSTILE,
    data: { uuid: HOSTILE, invitee: { full_name: HOSTILE, email: HOSTILE }, start: HOSTILE },
  });
  await fetch(url + 'hook', {
    method: 'POST',
    body,
    headers: {
      'content-type': `application/json; x=${HOSTILE.replace(/[^\x20-\x7e]/g, '')}`,
      'webhook-signature': 'bm90LWEtc2lnbmF0dXJl',
    },
  });
  await fetch(url, { method: 'PUT', body: 'x' });
}

/** Every leaf command of the tree, and the ways its output paths are exercised. */
const CASES: Record<string, (() => Case)[]> = {
  'auth login': [
    () => ({ argv: ['auth', 'login', '--with-key'], stdin: HOSTILE_KEY }),
    () => ({
      argv: ['auth', 'login', '--with-key'],
      stdin: HOSTILE_KEY,
      routes: (a) => a.on('GET', '/api/users/me/meeting-types', f.json(401, { message: HOSTILE })),
    }),
  ],
  'auth status': [
    () => ({ argv: ['auth', 'status'] }),
    () => ({ argv: ['auth', 'status', '--json'] }),
    () => ({ argv: ['--profile', 'evil', 'auth', 'status'] }),
  ],
  'auth logout': [() => ({ argv: ['auth', 'logout'] })],
  'profiles ls': [
    () => ({ argv: ['profiles', 'ls'] }),
    () => ({ argv: ['profiles', 'ls', '--json'] }),
  ],
  'types list': [
    () => ({ argv: ['types', 'list'] }),
    () => ({ argv: ['types', 'list', '-q'] }),
    () => ({ argv: ['types', 'list', '--json'] }),
    () => ({ argv: ['types', 'list', '-o', 'csv'] }),
    () => ({ argv: ['types', 'list', '-o', 'ndjson', '--all'] }),
    () => ({ argv: ['types', 'list'], routes: hostile422('GET', '/api/users/me/meeting-types') }),
    () => ({
      argv: ['types', 'list', '--verbose'],
      routes: (a) => a.on('GET', '/api/users/me/meeting-types', f.json(503, { message: HOSTILE })),
    }),
  ],
  'types get': [
    () => ({ argv: ['types', 'get', 'intro'] }),
    () => ({ argv: ['types', 'get', 'intro', '--json'] }),
    () => ({ argv: ['types', 'get', 'intro', '-o', 'csv'] }),
    () => ({ argv: ['types', 'get', 'intr'] }),
    () => ({ argv: ['types', 'list', '--name', 'intro'] }),
  ],
  'link create': [
    () => ({ argv: ['link', 'create', VALID_UUID] }),
    () => ({ argv: ['link', 'create', VALID_UUID, '--count', '3', '--json'] }),
    () => ({ argv: ['link', 'create', 'intro'] }),
    () => ({
      argv: ['link', 'create', VALID_UUID],
      routes: hostile422('POST', '/api/single-use-link'),
    }),
  ],
  'webhooks add': [
    () => ({ argv: ['webhooks', 'add', '--url', 'https://hooks.example.com/a'] }),
    () => ({ argv: ['webhooks', 'add', '--url', 'https://hooks.example.com/a', '--json'] }),
    () => ({ argv: ['webhooks', 'add', '--url', 'https://hooks.example.com/a', '--if-absent'] }),
    () => ({
      argv: ['webhooks', 'add', '--url', 'https://hooks.example.com/a', '--no-secret'],
      routes: hostile422('POST', '/api/webhooks'),
    }),
  ],
  api: [
    () => ({ argv: ['api', 'webhooks'] }),
    () => ({ argv: ['api', 'webhooks', '-i'] }),
    () => ({ argv: ['api', 'webhooks', '--paginate', '-o', 'ndjson'] }),
    () => ({
      argv: ['api', 'webhooks', '-f', 'url=https://hooks.example.com/a'],
      routes: hostile422('POST', '/api/webhooks'),
    }),
    () => ({
      argv: ['api', 'users/me/meeting-types', '--verbose'],
      routes: (a) => a.on('GET', '/api/users/me/meeting-types', f.json(503, { message: HOSTILE })),
    }),
  ],
  'webhooks ls': [
    () => ({ argv: ['webhooks', 'ls'] }),
    () => ({ argv: ['webhooks', 'ls', '-q'] }),
    () => ({ argv: ['webhooks', 'ls', '-o', 'csv'] }),
  ],
  'webhooks rm': [
    () => ({ argv: ['webhooks', 'rm', VALID_UUID] }),
    () => ({ argv: ['webhooks', 'rm', '--all', '--yes'] }),
    () => ({ argv: ['webhooks', 'rm', '--all', '--yes', '--json'] }),
    () => ({
      argv: ['webhooks', 'rm', VALID_UUID],
      routes: (a) => a.on('DELETE', '/api/webhooks/*', f.json(500, { message: HOSTILE })),
    }),
  ],
  'webhooks sync': [
    () => ({ argv: ['webhooks', 'sync', '--file', syncFile, '--prune'] }),
    () => ({ argv: ['webhooks', 'sync', '--file', syncFile, '--prune', '--dry-run', '--json'] }),
    () => ({
      argv: ['webhooks', 'sync', '--file', syncFile],
      routes: hostile422('POST', '/api/webhooks'),
    }),
  ],
  'webhooks listen': [
    () => ({
      argv: ['webhooks', 'listen', '--port', '0', '--secret', 'listen-secret-0123456789'],
      whenReady: { ready: /ready/, then: deliverHostile },
    }),
    () => ({
      argv: ['webhooks', 'listen', '--port', '0', '--json'],
      whenReady: { ready: /ready/, then: deliverHostile },
    }),
    () => ({
      argv: ['webhooks', 'listen', '--port', '0', '--register', 'https://public.example.com/h'],
      whenReady: { ready: /ready/ },
    }),
    () => ({
      argv: ['webhooks', 'listen', '--port', '0', '--forward-to', rx.url],
      whenReady: { ready: /ready/, then: deliverHostile },
    }),
  ],
  'events sample': [() => ({ argv: ['events', 'sample', 'meetingScheduled'] })],
  'events send': [
    () => ({ argv: ['events', 'send', 'meetingScheduled', '--to', rx.url] }),
    () => ({ argv: ['events', 'send', 'meetingScheduled', '--to', rx.url, '--json'] }),
  ],
  'events replay': [
    () => ({ argv: ['events', 'replay', recording, '--to', rx.url, '--last', '1'] }),
    () => ({ argv: ['events', 'replay', recording, '--to', rx.url, '--json'] }),
    () => ({ argv: ['events', 'replay', notRecording, '--to', rx.url] }),
  ],
  'sig sign': [() => ({ argv: ['sig', 'sign', '--secret', 's3cret-value'], stdin: HOSTILE })],
  'sig verify': [
    () => ({
      argv: ['sig', 'verify', '--signature', 'AAAA', '--secret', 's3cret-value'],
      stdin: HOSTILE,
    }),
    () => ({
      argv: ['sig', 'verify', '--signature', 'AAAA', '--secret', 's3cret-value', '--json'],
      stdin: HOSTILE,
    }),
  ],
  sandbox: [() => ({ argv: ['sandbox', '--port', '0'], whenReady: { ready: /Ctrl-C/ } })],
  'sandbox book': [
    () => ({ argv: ['sandbox', 'book', linkCodes.pop() ?? 'none'], target: 'sandbox' }),
    () => ({ argv: ['sandbox', 'book', 'c0de'], routes: hostile422('*', '/api/*') }),
  ],
  'sandbox cancel': [
    () => ({ argv: ['sandbox', 'cancel', meetingUuid, '--reason', HOSTILE], target: 'sandbox' }),
    () => ({ argv: ['sandbox', 'cancel', VALID_UUID], routes: hostile422('*', '/api/*') }),
  ],
  'sandbox reschedule': [
    () => ({
      argv: ['sandbox', 'reschedule', meetingUuid, '--at', '2030-01-02T10:00:00Z'],
      target: 'sandbox',
    }),
    () => ({
      argv: ['sandbox', 'reschedule', VALID_UUID, '--at', '2030-01-02T10:00:00Z'],
      routes: hostile422('*', '/api/*'),
    }),
  ],
  'sandbox meetings': [
    () => ({ argv: ['sandbox', 'meetings'], target: 'sandbox' }),
    () => ({ argv: ['sandbox', 'meetings', '-o', 'csv'], target: 'sandbox' }),
    () => ({ argv: ['sandbox', 'meetings'], routes: hostile422('*', '/api/*') }),
  ],
  'sandbox deliveries': [
    () => ({ argv: ['sandbox', 'deliveries'], target: 'sandbox' }),
    () => ({ argv: ['sandbox', 'deliveries', '--json'], target: 'sandbox' }),
    () => ({ argv: ['sandbox', 'deliveries'], routes: hostile422('*', '/api/*') }),
  ],
  completion: [() => ({ argv: ['completion', 'zsh'] })],
  __complete: [
    () => ({ argv: ['__complete', 'meeting-types'] }),
    () => ({ argv: ['__complete', 'webhooks'] }),
    () => ({ argv: ['__complete', 'profiles'] }),
  ],
  help: [() => ({ argv: ['help', 'webhooks', 'sync'] })],
  // stdout is JSON-RPC: the hostile API's text reaches it only inside the tools' results.
  mcp: [
    () => ({ argv: ['mcp'], stdin: mcpSession('list_meeting_types', { all: true }) }),
    () => ({ argv: ['mcp'], stdin: mcpSession('list_webhooks', {}) }),
    () => ({
      argv: ['mcp'],
      stdin: mcpSession('list_meeting_types', {}),
      routes: hostile422('GET', '/api/users/me/meeting-types'),
    }),
  ],
};

async function leafCommands(): Promise<string[]> {
  const out: string[] = [];
  const walk = (c: Command, prefix: string[]) => {
    for (const k of c.commands) {
      const p = [...prefix, k.name()];
      // What runs: a command with a loader, and the built-in help (the groups only show help).
      if (definitionOf(k)?.load || k.commands.length === 0) out.push(p.join(' '));
      walk(k, p);
    }
  };
  walk(await buildProgram(() => async () => {}), []);
  return out.sort();
}

/** Answers every prompt with its default (a decline for confirmations). */
const politePrompter: Prompter = {
  select: (_m, choices) => Promise.resolve(choices[0]!.value),
  checkbox: () => Promise.resolve([]),
  input: (_m, o) => Promise.resolve(o?.default ?? ''),
  password: () => Promise.resolve(HOSTILE_KEY),
  confirm: (_m, o) => Promise.resolve(o?.default ?? false),
};

async function runCase(c: Case, tty: boolean): Promise<{ stdout: string; stderr: string }> {
  const base =
    c.target === 'sandbox'
      ? { SCHED_BASE_URL: sb.baseUrl, SCHED_API_KEY: sb.apiKey }
      : { ...api.env };
  const env = { ...base, SCHED_CONFIG_DIR: config.path, HOOK: 'hook-secret-0123456789' };
  c.routes?.(api);
  const ac = new AbortController();
  let io: BufferIO | undefined;
  let poll: NodeJS.Timeout | undefined;
  const watchdog = setTimeout(() => ac.abort('SIGINT'), 10_000);
  if (c.whenReady) {
    const w = c.whenReady;
    let started = false;
    poll = setInterval(() => {
      const err = io?.stderrText() ?? '';
      if (started || !w.ready.test(err)) return;
      started = true;
      void (w.then ? w.then(err) : Promise.resolve())
        .catch(() => {})
        .finally(() => setTimeout(() => ac.abort('SIGINT'), 100));
    }, 10);
  }
  try {
    await runCli(c.argv, {
      io: (g) =>
        (io ??= createBufferIO({
          stdin: c.stdin ?? '',
          tty,
          env,
          color: g.color,
          noInput: g.noInput,
          columns: 100,
        })),
      env,
      signal: ac.signal,
      prompter: politePrompter,
    });
  } finally {
    clearTimeout(watchdog);
    if (poll) clearInterval(poll);
    hostileRoutes(api);
  }
  return { stdout: io?.stdoutText() ?? '', stderr: io?.stderrText() ?? '' };
}

describe('one hostile string through every command', () => {
  it('every command of the tree has cases here', async () => {
    expect(Object.keys(CASES).sort()).toEqual(await leafCommands());
  });

  for (const [name, cases] of Object.entries(CASES)) {
    it(`sched ${name}`, async () => {
      for (const make of cases) {
        for (const tty of [false, true]) {
          const c = make();
          const r = await runCase(c, tty);
          const label = `${c.argv.join(' ')} (${tty ? 'colour terminal' : 'pipe'})`;
          if (c.argv.includes('csv')) {
            // RFC 4180 CSV carries a line break inside a quoted field as data (the contract
            // and test/text/sanitize.test.ts keep it): terminal-safe, but not one line.
            expectTerminalSafe(r.stdout, `${label}: stdout`, { colour: tty });
            expectHarmless({ stdout: '', stderr: r.stderr }, label, { colour: tty });
          } else {
            expectHarmless(r, label, { colour: tty });
          }
        }
      }
    });
  }
});
