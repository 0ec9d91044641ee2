// Malformed and hostile input, for every command and flag: each case must end with exit 2 and
// one error line naming the flag or field, before anything is sent (the server behind
// SCHED_BASE_URL records every request and must have none), with no stack trace and no
// secret in the output.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { startFaultServer, f } from '../helpers/fault-server.js';
import {
  API_KEY,
  WEBHOOK_SECRET,
  errorLines,
  expectNoCrash,
  expectNoSecrets,
  run,
  tempDir,
} from './harness.js';
import { runsElsewhere } from '../helpers/skip.js';

vi.setConfig({ maxConcurrency: 16 });

interface Paths {
  dir: string;
  empty: string;
  directory: string;
  unreadable: string;
  binary: string;
  file(name: string): string;
}

interface BadInput {
  /** The command, for grouping. */
  cmd: string;
  what: string;
  argv: (p: Paths) => string[];
  stdin?: string | Buffer;
  env?: Record<string, string | undefined>;
  /** The error line must match (it names the flag or field). */
  error: RegExp;
  /** Lines under the error that must be there (field errors of a sync file). */
  details?: RegExp[];
  /** Needs a file mode 000 to be unreadable (not the case for root). */
  needsPermissions?: boolean;
}

const UUID = '0d5c7a52-9a43-4c55-8d6f-6f4f3b2f9e10';
const HOOK = 'https://example.com/hooks/sched';
const LONG = 'x'.repeat(100_000);
const SENTINEL_PASSWORD = 'pw-distinctive-9f8e';

// --- sync files, each with one kind of mistake (and one with all of them) --------------------

const SYNC_FILES: Record<string, { text: string; fields: RegExp[] }> = {
  'not-json.json': { text: '{"webhooks": [', fields: [/line 1|end of|unexpected/i] },
  'top-array.json': { text: '[]', fields: [/object/] },
  'no-webhooks.json': { text: '{"hooks": []}', fields: [/hooks/] },
  'webhooks-object.json': { text: '{"webhooks": {}}', fields: [/webhooks/] },
  'binary.json': { text: '\u0000\u0001\u0002\u00ff\ufffd{', fields: [/./] },
  'bad-yaml.yaml': { text: 'webhooks:\n  - url: [unclosed\n\tevents: x\n', fields: [/./] },
  'every-mistake.json': {
    text: JSON.stringify({
      webhooks: [
        { events: ['meetingScheduled'], secretEnv: 'SYNC_SECRET' },
        { url: 42, events: ['meetingScheduled'], secretEnv: 'SYNC_SECRET' },
        { url: 'not a url', events: ['meetingScheduled'], secretEnv: 'SYNC_SECRET' },
        { url: 'ftp://example.com/h', events: ['meetingScheduled'], secretEnv: 'SYNC_SECRET' },
        // events left out means every event (issue 33, item 5); null is a mistake.
        { url: 'https://a.example.com/h', events: null, secretEnv: 'SYNC_SECRET' },
        { url: 'https://b.example.com/h', events: [], secretEnv: 'SYNC_SECRET' },
        { url: 'https://c.example.com/h', events: ['meetingBooked'], secretEnv: 'SYNC_SECRET' },
        { url: 'https://d.example.com/h', events: 'meetingScheduled', secretEnv: 'SYNC_SECRET' },
        {
          url: 'https://e.example.com/h',
          events: ['meetingScheduled'],
          secret: WEBHOOK_SECRET,
          secretEnv: 'SYNC_SECRET',
        },
        { url: 'https://f.example.com/h', events: ['meetingScheduled'], secretEnv: 'UNSET_VAR' },
        { url: 'https://g.example.com/h', events: ['meetingScheduled'], secret: '' },
        { url: HOOK, events: ['meetingScheduled'], secretEnv: 'SYNC_SECRET' },
        { url: HOOK, events: ['meetingCancelled'], secretEnv: 'SYNC_SECRET' },
        { url: 'https://h.example.com/h', events: ['meetingScheduled'], secrt: 'x' },
        {
          url: `https://u:${SENTINEL_PASSWORD}@i.example.com/h`,
          events: ['meetingScheduled'],
          secretEnv: 'SYNC_SECRET',
        },
      ],
    }),
    fields: [
      /webhooks\[0\]\.url/,
      /webhooks\[1\]\.url/,
      /webhooks\[2\]\.url/,
      /webhooks\[3\]\.url/,
      /webhooks\[4\]\.events/,
      /webhooks\[5\]\.events/,
      /webhooks\[6\]\.events/,
      /webhooks\[7\]\.events/,
      /webhooks\[8\]/,
      /webhooks\[9\].*UNSET_VAR/,
      /webhooks\[10\]\.secret/,
      /webhooks\[1[12]\]/,
      /webhooks\[13\].*secrt/,
      /webhooks\[14\]\.url: must not contain a user name or password/,
    ],
  },
};

// --- The table ------------------------------------------------------------------------------

const CASES: BadInput[] = [
  // Global options
  ...['0', '-1', 'abc', '', ' ', '1e3', 'Infinity', '99999999'].map((v): BadInput => ({
    cmd: 'global',
    what: `--timeout ${JSON.stringify(v)}`,
    argv: () => ['--timeout', v, 'types', 'list'],
    error: /--timeout/,
  })),
  ...['xml', '', 'JSONN'].map((v): BadInput => ({
    cmd: 'global',
    what: `--output ${JSON.stringify(v)}`,
    argv: () => ['-o', v, 'types', 'list'],
    error: /--output|output format|-o/,
  })),
  ...['', ' ', '../../etc/passwd', 'ünïcødé', 'a b', 'p'.repeat(5000), '-rf'].map(
    (v): BadInput => ({
      cmd: 'global',
      what: `--profile ${JSON.stringify(v.slice(0, 20))} for auth login`,
      argv: () => [`--profile=${v}`, 'auth', 'login', '--with-key'],
      stdin: API_KEY,
      error: /profile/,
    }),
  ),
  ...[
    'not a url',
    '',
    '   ',
    'ftp://example.com/api',
    'javascript:alert(1)',
    'http://exa mple.com/api',
    `http://admin:${SENTINEL_PASSWORD}@example.com/api`,
    `ftp://admin:${SENTINEL_PASSWORD}@example.com/api`,
    `htp//admin:${SENTINEL_PASSWORD}@example.com/api`,
    'https://',
    `http://${LONG}.example.com/api`,
  ].map((v): BadInput => ({
    cmd: 'global',
    what: `--base-url ${JSON.stringify(v.slice(0, 40))}`,
    argv: () => [`--base-url=${v}`, 'types', 'list'],
    error: /base URL/,
  })),
  {
    cmd: 'global',
    what: 'SCHED_BASE_URL with credentials',
    argv: () => ['webhooks', 'ls'],
    env: { SCHED_BASE_URL: `https://user:${SENTINEL_PASSWORD}@example.com/api` },
    error: /SCHED_BASE_URL.*credentials|credentials.*SCHED_BASE_URL/,
  },
  {
    cmd: 'global',
    what: 'an unknown option',
    argv: () => ['types', 'list', '--pgae', '2'],
    error: /--pgae/,
  },

  // Options that take one value, given twice with different values
  ...(
    [
      ['--limit', ['types', 'list', '--limit', '5', '--limit', '6']],
      ['--output', ['-o', 'json', '--output', 'csv', 'types', 'list']],
      ['--timeout', ['--timeout', '3', '--timeout=4', 'webhooks', 'ls']],
      ['--profile', ['--profile', 'a', '--profile', 'b', 'auth', 'status']],
      ['--count', ['link', 'create', 'intro-call', '--count', '2', '--count', '3']],
      ['--port', ['webhooks', 'listen', '--port', '0', '--port', '1']],
      ['--url', ['webhooks', 'rm', '--url', HOOK, '--url', `${HOOK}/2`, '--yes']],
      [
        '--at',
        ['sandbox', 'reschedule', UUID, '--at', '2026-12-01T14:00Z', '--at', '2026-12-02T14:00Z'],
      ],
      ['--secret', ['sig', 'sign', '--secret', 'a', '--secret', 'b']],
    ] as const
  ).map(([flag, argv]): BadInput => ({
    cmd: 'duplicate flags',
    what: argv.join(' '),
    argv: () => [...argv],
    stdin: '{}',
    error: new RegExp(`${flag} was given 2 times with different values`),
  })),

  // types list
  ...['0', '-1', 'abc', '1.5', '', ' ', '1e3', '0x10', '99999999999999999999', '٣'].flatMap(
    (v): BadInput[] =>
      ['--page', '--limit'].map((flag) => ({
        cmd: 'types list',
        what: `${flag} ${JSON.stringify(v)}`,
        argv: () => ['types', 'list', `${flag}=${v}`],
        error: new RegExp(flag),
      })),
  ),
  ...['', 'name:up', 'na me', ':asc', 'name;drop table', 'name:asc:desc', LONG].map(
    (v): BadInput => ({
      cmd: 'types list',
      what: `--sort ${JSON.stringify(v.slice(0, 20))}`,
      argv: () => ['types', 'list', '--sort', v],
      error: /--sort/,
    }),
  ),
  {
    cmd: 'types list',
    what: '--all with --page',
    argv: () => ['types', 'list', '--all', '--page', '2'],
    error: /--page.*--all/,
  },

  // link create
  {
    cmd: 'link create',
    what: 'no meeting type, no terminal',
    argv: () => ['link', 'create'],
    error: /no meeting type given/,
  },
  ...['', '   ', 'intro\tcall', 'a\u0000b', 'x\nrm -rf /', LONG].map((v): BadInput => ({
    cmd: 'link create',
    what: `meeting type ${JSON.stringify(v.slice(0, 20))}`,
    argv: () => ['link', 'create', v],
    error: /meeting[- ]type/,
  })),
  ...['0', '-1', 'abc', '', '1.5', '100001', '1e2'].map((v): BadInput => ({
    cmd: 'link create',
    what: `--count ${JSON.stringify(v)}`,
    argv: () => ['link', 'create', 'intro-call', `--count=${v}`],
    error: /--count/,
  })),
  ...['0', '65', 'x'].map((v): BadInput => ({
    cmd: 'link create',
    what: `--concurrency ${JSON.stringify(v)}`,
    argv: () => ['link', 'create', 'intro-call', `--concurrency=${v}`],
    error: /--concurrency/,
  })),

  // webhooks add
  ...[
    '',
    '   ',
    'example.com/hook',
    'ftp://example.com/hook',
    'https://exa mple.com/hook',
    'https://',
    'https://example.com/ho ok',
    `https://user:${SENTINEL_PASSWORD}@example.com/hook`,
    'https://example.com/hook\nX-Injected: 1',
    `https://example.com/${LONG}`,
  ].map((v): BadInput => ({
    cmd: 'webhooks add',
    what: `--url ${JSON.stringify(v.slice(0, 30))}`,
    argv: () => ['webhooks', 'add', `--url=${v}`, '--no-secret'],
    error: /--url/,
  })),
  ...['', ' ', 'meetingBooked', 'meetingScheduled,bogus', '🙂', 'MEETING_SCHEDULED'].map(
    (v): BadInput => ({
      cmd: 'webhooks add',
      what: `--event ${JSON.stringify(v)}`,
      argv: () => ['webhooks', 'add', '--url', HOOK, `--event=${v}`, '--no-secret'],
      error: /event/,
    }),
  ),
  {
    cmd: 'webhooks add',
    what: 'no --url, no terminal',
    argv: () => ['webhooks', 'add'],
    error: /--url/,
  },
  {
    cmd: 'webhooks add',
    what: 'an empty --secret',
    argv: () => ['webhooks', 'add', '--url', HOOK, '--secret='],
    error: /--secret/,
  },
  {
    cmd: 'webhooks add',
    what: '--secret with --no-secret',
    argv: () => ['webhooks', 'add', '--url', HOOK, '--secret', WEBHOOK_SECRET, '--no-secret'],
    error: /--secret.*--no-secret|only one/,
  },
  ...['', '\n', '\r\n'].map((stdin): BadInput => ({
    cmd: 'webhooks add',
    what: `--secret-stdin with stdin ${JSON.stringify(stdin)}`,
    argv: () => ['webhooks', 'add', '--url', HOOK, '--secret-stdin'],
    stdin,
    error: /secret.*stdin|stdin.*secret/,
  })),
  {
    cmd: 'webhooks add',
    what: '--url given twice with different values',
    argv: () => [
      'webhooks',
      'add',
      '--url',
      HOOK,
      '--url',
      'https://other.example.com/h',
      '--no-secret',
    ],
    error: /--url/,
  },

  // webhooks ls
  ...['0', '-1', ''].flatMap((v): BadInput[] =>
    ['--page', '--limit'].map((flag) => ({
      cmd: 'webhooks ls',
      what: `${flag} ${JSON.stringify(v)}`,
      argv: () => ['webhooks', 'ls', `${flag}=${v}`],
      error: new RegExp(flag),
    })),
  ),
  {
    cmd: 'webhooks ls',
    what: '--all with --page',
    argv: () => ['webhooks', 'ls', '--all', '--page', '1'],
    error: /--page.*--all/,
  },

  // webhooks rm
  ...['not-a-uuid', '', ' ', `${UUID.slice(0, -1)}０`, `${UUID}x`, `'${UUID}'`].map(
    (v): BadInput => ({
      cmd: 'webhooks rm',
      what: `UUID ${JSON.stringify(v)}`,
      argv: () => ['webhooks', 'rm', UUID, v],
      error: /not a webhook UUID/,
    }),
  ),
  {
    cmd: 'webhooks rm',
    what: 'nothing chosen',
    argv: () => ['webhooks', 'rm'],
    error: /UUIDs, --url <url>, or --all/,
  },
  {
    cmd: 'webhooks rm',
    what: 'a UUID and --all',
    argv: () => ['webhooks', 'rm', UUID, '--all', '--yes'],
    error: /--url or --all, not more than one/,
  },
  {
    cmd: 'webhooks rm',
    what: '--all without --yes, no terminal',
    argv: () => ['webhooks', 'rm', '--all'],
    error: /--all.*--yes/,
  },
  {
    cmd: 'webhooks rm',
    what: '--url without --yes, no terminal',
    argv: () => ['webhooks', 'rm', '--url', HOOK],
    error: /--url.*--yes/,
  },
  ...['', 'nope', 'https://exa mple.com/h'].map((v): BadInput => ({
    cmd: 'webhooks rm',
    what: `--url ${JSON.stringify(v)}`,
    argv: () => ['webhooks', 'rm', `--url=${v}`, '--yes'],
    error: /--url/,
  })),

  // webhooks sync
  {
    cmd: 'webhooks sync',
    what: 'no --file',
    argv: () => ['webhooks', 'sync'],
    error: /--file/,
  },
  {
    cmd: 'webhooks sync',
    what: 'an empty --file',
    argv: () => ['webhooks', 'sync', '--file='],
    error: /--file/,
  },
  {
    cmd: 'webhooks sync',
    what: 'a missing file',
    argv: (p) => ['webhooks', 'sync', '--file', p.file('missing.json')],
    error: /missing\.json.*no such file/,
  },
  {
    cmd: 'webhooks sync',
    what: 'a directory',
    argv: (p) => ['webhooks', 'sync', '--file', p.directory],
    error: /directory/,
  },
  {
    cmd: 'webhooks sync',
    what: 'an unreadable file',
    argv: (p) => ['webhooks', 'sync', '--file', p.unreadable],
    error: /permission denied/,
    needsPermissions: true,
  },
  {
    cmd: 'webhooks sync',
    what: 'an empty file',
    argv: (p) => ['webhooks', 'sync', '--file', p.empty],
    error: /empty|webhooks/,
  },
  {
    cmd: 'webhooks sync',
    what: 'empty stdin (--file -)',
    argv: () => ['webhooks', 'sync', '--file', '-'],
    stdin: '',
    error: /stdin|empty|webhooks/,
  },
  ...Object.entries(SYNC_FILES).map(([name, { fields }]): BadInput => ({
    cmd: 'webhooks sync',
    what: `a file with mistakes: ${name}`,
    argv: (p) => ['webhooks', 'sync', '--file', p.file(name)],
    env: { SYNC_SECRET: WEBHOOK_SECRET },
    error: new RegExp(name.replace('.', '\\.')),
    details: name === 'every-mistake.json' ? fields : undefined,
  })),

  // webhooks listen
  ...['70000', '-1', 'abc', ''].map((v): BadInput => ({
    cmd: 'webhooks listen',
    what: `--port ${JSON.stringify(v)}`,
    argv: () => ['webhooks', 'listen', `--port=${v}`],
    error: /port/,
  })),
  ...['nope', 'ftp://example.com/h', '', 'https://exa mple.com/h'].flatMap((v): BadInput[] =>
    ['--register', '--forward-to'].map((flag) => ({
      cmd: 'webhooks listen',
      what: `${flag} ${JSON.stringify(v)}`,
      argv: () => ['webhooks', 'listen', '--port', '0', `${flag}=${v}`],
      error: new RegExp(flag),
    })),
  ),
  {
    cmd: 'webhooks listen',
    what: 'an unknown --event (without --register)',
    argv: () => ['webhooks', 'listen', '--port', '0', '--event', 'meetingSchedule'],
    error: /unknown event "meetingSchedule" \(did you mean "meetingScheduled"\?\)/,
  },
  {
    cmd: 'webhooks listen',
    what: '--forward-to routing an unknown event',
    argv: () => ['webhooks', 'listen', '--port', '0', '--forward-to', 'meetingBooked=' + HOOK],
    error: /--forward-to .*unknown event "meetingBooked"/,
  },
  {
    cmd: 'webhooks listen',
    what: '--forward-to routing an event --event does not keep',
    argv: () => [
      'webhooks',
      'listen',
      '--port',
      '0',
      '--event',
      'meetingCancelled',
      '--forward-to',
      'meetingScheduled=' + HOOK,
    ],
    error:
      /--forward-to meetingScheduled=… would receive nothing: --event keeps only meetingCancelled/,
  },
  {
    cmd: 'webhooks listen',
    what: 'an unknown --event with --register',
    argv: () => [
      'webhooks',
      'listen',
      '--port',
      '0',
      '--register',
      HOOK,
      '--event',
      'meetingBooked',
    ],
    error: /meetingBooked/,
  },
  {
    cmd: 'webhooks listen',
    what: 'an empty --secret',
    argv: () => ['webhooks', 'listen', '--port', '0', '--secret='],
    error: /--secret/,
  },

  // auth login
  ...['', '   \n', '\r\n'].map((stdin): BadInput => ({
    cmd: 'auth login',
    what: `--with-key, stdin ${JSON.stringify(stdin)}`,
    argv: () => ['auth', 'login', '--with-key'],
    stdin,
    error: /no API key on stdin/,
  })),
  {
    cmd: 'auth login',
    what: '--with-key, two words on stdin',
    argv: () => ['auth', 'login', '--with-key'],
    stdin: `${API_KEY} ${API_KEY}`,
    error: /whitespace/,
  },
  {
    cmd: 'auth login',
    what: '--with-key, a huge stdin',
    argv: () => ['auth', 'login', '--with-key'],
    stdin: LONG,
    error: /stdin/,
  },
  {
    cmd: 'auth login',
    what: '--with-key, control characters in the key',
    argv: () => ['auth', 'login', '--with-key'],
    stdin: Buffer.from([0x4b, 0x45, 0x59, 0x00, 0x07, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0x41]),
    error: /key/,
  },
  {
    cmd: 'auth login',
    what: 'no terminal and no --with-key',
    argv: () => ['auth', 'login'],
    error: /cannot ask for the API key/,
  },

  // SCHED_API_KEY that cannot be sent (a CRLF file, a pasted newline)
  ...['\r', '\n', '\u0000', ' '].map((c): BadInput => ({
    cmd: 'global',
    what: `SCHED_API_KEY containing ${JSON.stringify(c)}`,
    argv: () => ['types', 'list'],
    env: { SCHED_API_KEY: `${API_KEY.slice(0, 6)}${c}${API_KEY.slice(6)}` },
    error: /API key contains white space or a control character/,
    details: [/hint: check SCHED_API_KEY/],
  })),

  // sig sign / verify
  {
    cmd: 'sig verify',
    what: 'an empty --signature',
    argv: () => ['sig', 'verify', '--signature=', '--secret', WEBHOOK_SECRET],
    stdin: '{}',
    error: /--signature/,
  },
  {
    cmd: 'sig verify',
    what: 'no --signature',
    argv: () => ['sig', 'verify', '--secret', WEBHOOK_SECRET],
    stdin: '{}',
    error: /--signature/,
  },
  ...(['sign', 'verify'] as const).flatMap((verb): BadInput[] => {
    const base = verb === 'verify' ? ['sig', verb, '--signature', 'abc='] : ['sig', verb];
    return [
      {
        cmd: `sig ${verb}`,
        what: 'an empty --secret',
        argv: () => [...base, '--secret='],
        stdin: '{}',
        error: /--secret/,
      },
      {
        cmd: `sig ${verb}`,
        what: 'no secret, no terminal',
        argv: () => [...base],
        stdin: '{}',
        error: /secret/,
      },
      {
        cmd: `sig ${verb}`,
        what: 'empty stdin',
        argv: () => [...base, '--secret', WEBHOOK_SECRET],
        stdin: '',
        error: /payload from stdin is empty/,
      },
      {
        cmd: `sig ${verb}`,
        what: 'an empty --payload-file',
        argv: (p) => [...base, '--secret', WEBHOOK_SECRET, '--payload-file', p.empty],
        error: /payload from .*empty\.json.* is empty/,
      },
      {
        cmd: `sig ${verb}`,
        what: 'a missing --payload-file',
        argv: (p) => [...base, '--secret', WEBHOOK_SECRET, '--payload-file', p.file('nope.json')],
        error: /payload file.*no such file/,
      },
      {
        cmd: `sig ${verb}`,
        what: 'a directory as --payload-file',
        argv: (p) => [...base, '--secret', WEBHOOK_SECRET, '--payload-file', p.directory],
        error: /payload file.*directory/,
      },
      {
        cmd: `sig ${verb}`,
        what: 'an unreadable --payload-file',
        argv: (p) => [...base, '--secret', WEBHOOK_SECRET, '--payload-file', p.unreadable],
        error: /payload file.*permission denied/,
        needsPermissions: true,
      },
    ];
  }),

  // events
  ...['', 'meetingBooked', 'meetingscheduled2'].map((v): BadInput => ({
    cmd: 'events sample',
    what: `event ${JSON.stringify(v)}`,
    argv: () => ['events', 'sample', v],
    error: /event/,
  })),
  ...['nope', '', 'ftp://example.com/h', 'http://exa mple.com/h'].map((v): BadInput => ({
    cmd: 'events send',
    what: `--to ${JSON.stringify(v)}`,
    argv: () => ['events', 'send', 'meetingScheduled', `--to=${v}`],
    error: /--to/,
  })),
  {
    cmd: 'events send',
    what: 'an unknown event',
    argv: () => ['events', 'send', 'meetingBooked', '--to', HOOK],
    error: /meetingBooked/,
  },
  {
    cmd: 'events send',
    what: 'a missing --payload-file',
    argv: (p) => [
      'events',
      'send',
      'meetingScheduled',
      '--to',
      HOOK,
      '--payload-file',
      p.file('nope.json'),
    ],
    error: /payload file/,
  },

  // sandbox (the server itself)
  ...(
    [
      ['--port', ['sandbox', '--port', '99999']],
      ['--port', ['sandbox', '--port', 'abc']],
      ['--api-key', ['sandbox', '--port', '0', '--api-key', '']],
      ['--api-key', ['sandbox', '--port', '0', '--api-key', '   ']],
      ['--public-url', ['sandbox', '--port', '0', '--public-url', 'nope']],
      ['--public-url', ['sandbox', '--port', '0', '--public-url', 'ftp://example.com']],
      ['--seed-types', ['sandbox', '--port', '0', '--seed-types', '-1']],
    ] as const
  ).map(([flag, argv]): BadInput => ({
    cmd: 'sandbox',
    what: argv.slice(1).join(' '),
    argv: () => [...argv],
    error: new RegExp(flag === '--port' ? 'port' : flag),
  })),
  {
    cmd: 'sandbox',
    what: '--state is a directory',
    argv: (p) => ['sandbox', '--port', '0', '--state', p.directory],
    error: /a-directory/,
  },
  {
    cmd: 'sandbox',
    what: '--state is not a state file',
    argv: (p) => ['sandbox', '--port', '0', '--state', p.file('every-mistake.json')],
    error: /every-mistake\.json/,
  },

  // sandbox book / cancel / reschedule
  ...['', 'bad code!', 'http://127.0.0.1:9/not-a-link', 'http://exa mple.com/s/abc'].map(
    (v): BadInput => ({
      cmd: 'sandbox book',
      what: `link ${JSON.stringify(v)}`,
      argv: () => ['sandbox', 'book', v],
      error: /link|not a valid URL/,
    }),
  ),
  ...['tomorrow', '2026-13-45T99:00:00Z', '2026-02-30T10:00:00Z', ''].map((v): BadInput => ({
    cmd: 'sandbox book',
    what: `--at ${JSON.stringify(v)}`,
    argv: () => ['sandbox', 'book', 'abc123', `--at=${v}`],
    error: /--at/,
  })),
  {
    cmd: 'sandbox book',
    what: 'an unknown --timezone',
    argv: () => ['sandbox', 'book', 'abc123', '--timezone', 'Mars/Olympus_Mons'],
    error: /--timezone/,
  },
  ...['nope', '', UUID.replace(/-/g, '')].map((v): BadInput => ({
    cmd: 'sandbox cancel',
    what: `meeting ${JSON.stringify(v)}`,
    argv: () => ['sandbox', 'cancel', v],
    error: /meeting UUID/,
  })),
  ...['', 'next week'].map((v): BadInput => ({
    cmd: 'sandbox reschedule',
    what: `--at ${JSON.stringify(v)}`,
    argv: () => ['sandbox', 'reschedule', UUID, `--at=${v}`],
    error: /--at/,
  })),

  // completion
  ...['powershell', ''].map((v): BadInput => ({
    cmd: 'completion',
    what: `shell ${JSON.stringify(v)}`,
    argv: () => ['completion', v],
    error: /shell/,
  })),
];

// --- Running them ---------------------------------------------------------------------------

let files: Awaited<ReturnType<typeof tempDir>>;
let paths: Paths;
/** True when chmod 000 does not stop this process from reading (root). */
let permissionsIgnored = false;

beforeAll(async () => {
  files = await tempDir('bad-input');
  const p = (name: string) => path.join(files.path, name);
  paths = {
    dir: files.path,
    empty: p('empty.json'),
    directory: p('a-directory'),
    unreadable: p('unreadable.json'),
    binary: p('binary.bin'),
    file: p,
  };
  writeFileSync(paths.empty, '');
  mkdirSync(paths.directory);
  writeFileSync(paths.unreadable, '{"webhooks":[]}');
  chmodSync(paths.unreadable, 0o000);
  try {
    readFileSync(paths.unreadable);
    permissionsIgnored = true;
  } catch {
    permissionsIgnored = false;
  }
  for (const [name, { text }] of Object.entries(SYNC_FILES)) writeFileSync(p(name), text);
});

afterAll(async () => {
  await files.remove();
});

function byCommand(): Map<string, BadInput[]> {
  const m = new Map<string, BadInput[]>();
  for (const c of CASES) m.set(c.cmd, [...(m.get(c.cmd) ?? []), c]);
  return m;
}

export const BAD_INPUT_CASES = CASES.length;

describe('bad input: exit 2, a message naming the flag or field, nothing sent', () => {
  for (const [cmd, cases] of byCommand()) {
    describe.concurrent(cmd, () => {
      for (const c of cases) {
        it(c.what, async (t) => {
          if (
            runsElsewhere(
              c.needsPermissions &&
                permissionsIgnored &&
                'root: chmod 000 does not stop root reading, so no unreadable file can be made',
            )
          ) {
            t.skip();
          }
          const config = await tempDir('config');
          const srv = await startFaultServer();
          srv.fallback(f.json(500, { message: 'no request should reach the server here' }));
          try {
            const r = await run(c.argv(paths), {
              env: {
                SCHED_CONFIG_DIR: config.path,
                SCHED_BASE_URL: srv.baseUrl,
                SCHED_API_KEY: API_KEY,
                ...c.env,
              },
              stdin: c.stdin ?? '',
              watchdogMs: 8_000,
            });
            const label = `${cmd} ${c.what}`;
            expectNoCrash(r, label);
            expectNoSecrets(r, label);
            expect(r.stdout + r.stderr, label).not.toContain(SENTINEL_PASSWORD);
            expect(r.code, `${label}: exit code; stderr:\n${r.stderr}`).toBe(2);
            const lines = errorLines(r.stderr);
            expect(lines.length, `${label}: one error line in:\n${r.stderr}`).toBe(1);
            expect(lines[0], label).toMatch(c.error);
            expect(lines[0]!.length, `${label}: a readable line`).toBeLessThan(400);
            for (const d of c.details ?? []) expect(r.stderr, label).toMatch(d);
            expect(
              srv.requests.map((q) => `${q.method} ${q.url}`),
              `${label}: requests sent`,
            ).toEqual([]);
          } finally {
            await srv.close();
            await config.remove();
          }
        });
      }
    });
  }
});

describe('binary payloads for sig sign and sig verify', () => {
  // Every byte value, invalid UTF-8, NULs, a BOM and CRLF: signatures are over the bytes.
  const payload = Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
    Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0x28]),
    Buffer.from('\r\n\u0000{"event":"meetingScheduled"}\r\n'),
  ]);
  const big = Buffer.alloc(3 * 1024 * 1024, 0xa5);
  const sig = (b: Buffer) => createHmac('sha256', WEBHOOK_SECRET).update(b).digest('base64');

  const CASES: Array<{ what: string; body: Buffer; argv: string[]; code: number; out: RegExp }> = [
    {
      what: 'sign, stdin',
      body: payload,
      argv: ['sig', 'sign'],
      code: 0,
      out: new RegExp(`^${sig(payload).replace(/[+/]/g, '\\$&')}\n$`),
    },
    {
      what: 'verify, valid',
      body: payload,
      argv: ['sig', 'verify', '--signature', sig(payload)],
      code: 0,
      out: /^valid\n$/,
    },
    {
      what: 'verify, valid, 3 MB',
      body: big,
      argv: ['sig', 'verify', '--signature', sig(big)],
      code: 0,
      out: /^valid\n$/,
    },
    {
      what: 'verify, one byte changed',
      body: Buffer.concat([
        payload.subarray(0, 100),
        Buffer.from([payload[100]! ^ 1]),
        payload.subarray(101),
      ]),
      argv: ['sig', 'verify', '--signature', sig(payload)],
      code: 1,
      out: /^invalid\n$/,
    },
    {
      what: 'verify --json, invalid',
      body: payload,
      argv: ['--json', 'sig', 'verify', '--signature', sig(big)],
      code: 1,
      out: /^\{"valid":false,"reason":"[^"]+"\}\n$/,
    },
    {
      what: 'verify, binary garbage as the signature',
      body: payload,
      argv: [
        'sig',
        'verify',
        '--signature',
        payload.subarray(0, 60).toString('latin1').split('\u0000').join(''),
      ],
      code: 1,
      out: /^invalid\n$/,
    },
  ];
  for (const c of CASES) {
    for (const via of ['stdin', 'file'] as const) {
      it(`${c.what} (${via})`, async () => {
        const config = await tempDir('config');
        const file = path.join(config.path, 'payload.bin');
        writeFileSync(file, c.body);
        try {
          const r = await run(
            [
              ...c.argv,
              '--secret',
              WEBHOOK_SECRET,
              ...(via === 'file' ? ['--payload-file', file] : []),
            ],
            { env: { SCHED_CONFIG_DIR: config.path }, stdin: via === 'stdin' ? c.body : '' },
          );
          expectNoCrash(r, c.what);
          expectNoSecrets(r, c.what);
          expect(r.code, r.stderr).toBe(c.code);
          expect(r.stdout).toMatch(c.out);
          // Diagnoses never copy raw bytes of the payload to the terminal.
          // eslint-disable-next-line no-control-regex
          expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
          if (c.code !== 0) expect(errorLines(r.stderr)).toHaveLength(1);
        } finally {
          await config.remove();
        }
      });
    }
  }
});
