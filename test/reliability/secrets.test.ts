// Secrets: where the API key and webhook secrets are kept (file modes), how a damaged or too
// open config file is handled, that a key never goes to a host the user did not configure,
// and that the commands which take a secret never print it. (The fault matrix already runs
// every API command with --verbose under every fault and checks neither secret shows up.)
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  envelope,
  f,
  refusedUrl,
  startFaultServer,
  startProxy,
  type FaultServer,
} from '../helpers/fault-server.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { signPayload } from '../../src/domain/webhooks/signature.js';
import { FORMAT_ROWS, OUTPUT_FORMATS } from '../../src/output/formats.js';
import { DEFAULT_SANDBOX_API_KEY } from '../../src/sandbox/index.js';
import { useFastRetries } from './fast-retry.js';
import {
  API_KEY,
  MASKED_KEY,
  WEBHOOK_SECRET,
  errorLines,
  expectNoCrash,
  expectNoSecrets,
  expectOneError,
  run,
  tempDir,
  type Run,
} from './harness.js';
import { runsElsewhere } from '../helpers/skip.js';

useFastRetries();

const POSIX = process.platform !== 'win32';
const MT = {
  uuid: '3f1c9a4e-8a52-4f0e-9d7b-2c5e6a1b0d11',
  name: 'Intro',
  slug: 'intro',
  duration: 30,
};
const MT_PATH = '/api/users/me/meeting-types';

let srv: FaultServer;
let cfg: Awaited<ReturnType<typeof tempDir>>;

beforeEach(async () => {
  srv = await startFaultServer();
  srv.on('GET', MT_PATH, f.json(200, envelope([MT], { path: MT_PATH })));
  cfg = await tempDir('secrets');
});
afterEach(async () => {
  await srv.close();
  await cfg.remove();
});

const mode = (p: string) => fs.statSync(p).mode & 0o777;
const configFile = () => path.join(cfg.path, 'config.json');

function writeConfig(content: string, fileMode = 0o600): void {
  fs.writeFileSync(configFile(), content, { mode: fileMode });
  fs.chmodSync(configFile(), fileMode);
}

function profileConfig(baseUrl: string, apiKey = API_KEY): string {
  return JSON.stringify({ profiles: { default: { baseUrl, apiKey } } }, null, 2);
}

function clean(r: Run, label: string): void {
  expectNoCrash(r, label);
  expectNoSecrets(r, label);
}

describe('config and state files are private', () => {
  it.skipIf(runsElsewhere(!POSIX && 'Windows: no POSIX file modes'))(
    'auth login writes the key to a 0600 file in a 0700 directory, even under umask 000',
    async () => {
      const dir = path.join(cfg.path, 'fresh', 'sched');
      const old = process.umask(0);
      let r: Run;
      try {
        r = await run(['auth', 'login', '--with-key'], {
          env: { SCHED_CONFIG_DIR: dir, SCHED_BASE_URL: srv.baseUrl },
          stdin: API_KEY,
        });
      } finally {
        process.umask(old);
      }
      clean(r, 'login');
      expect(r.code, r.stderr).toBe(0);
      expect(mode(dir).toString(8)).toBe('700');
      expect(mode(path.join(dir, 'config.json')).toString(8)).toBe('600');
      expect(fs.readdirSync(dir)).toEqual(['config.json']); // no lock or temporary file left
    },
  );

  it.skipIf(runsElsewhere(!POSIX && 'Windows: no POSIX file modes'))(
    'a config file and directory open to others are tightened, with a warning, and still used',
    async () => {
      writeConfig(profileConfig(srv.baseUrl), 0o644);
      fs.chmodSync(cfg.path, 0o755);
      const r = await run(['types', 'list'], { env: { SCHED_CONFIG_DIR: cfg.path } });
      clean(r, 'types list');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(MT.slug);
      expect(r.stderr).toMatch(
        /warning: the config directory .* had mode 0755; changed it to 0700/,
      );
      expect(r.stderr).toMatch(/warning: the config file .* had mode 0644; changed it to 0600/);
      expect(mode(cfg.path).toString(8)).toBe('700');
      expect(mode(configFile()).toString(8)).toBe('600');
      expect(srv.requests[0]!.headers['x-api-key']).toBe(API_KEY);
    },
  );

  it.skipIf(runsElsewhere(!POSIX && 'Windows: no POSIX file modes'))(
    'sandbox --state keeps its webhook secrets in a 0600 file, in a directory it makes 0700',
    async () => {
      const state = path.join(cfg.path, 'new', 'dir', 'state.json');
      const stop = new AbortController();
      let base: string | undefined;
      const done = run(['sandbox', '--port', '0', '--state', state, '--json'], {
        env: { SCHED_CONFIG_DIR: cfg.path },
        signal: stop.signal,
        tap: (io) => {
          const poll = setInterval(() => {
            const first = io.stdoutText().split('\n')[0];
            if (first) {
              clearInterval(poll);
              base = (JSON.parse(first) as { baseUrl: string }).baseUrl;
            }
          }, 5);
        },
      });
      for (let i = 0; i < 400 && !base; i++) await new Promise((res) => setTimeout(res, 10));
      expect(base).toBeDefined();
      const res = await fetch(`${base}/webhooks`, {
        method: 'POST',
        headers: { 'x-api-key': DEFAULT_SANDBOX_API_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({
          url: 'https://example.com/h',
          events: ['meetingScheduled'],
          secret: WEBHOOK_SECRET,
        }),
      });
      expect(res.status).toBe(201);
      stop.abort('SIGINT');
      const r = await done;
      clean(r, 'sandbox');
      expect(r.code, r.stderr).toBe(0);
      expect(fs.readFileSync(state, 'utf8')).toContain(WEBHOOK_SECRET);
      expect(mode(state).toString(8)).toBe('600');
      expect(mode(path.dirname(state)).toString(8)).toBe('700');
      expect(mode(path.dirname(path.dirname(state))).toString(8)).toBe('700');
    },
  );

  it('a damaged sandbox state file is reported without quoting it (it holds secrets)', async () => {
    const state = path.join(cfg.path, 'state.json');
    fs.writeFileSync(
      state,
      `{"format":"sched-sandbox-state","version":1,"webhooks":[{"uuid":"x","secret":${WEBHOOK_SECRET}}]}`,
    );
    const r = await run(['sandbox', '--port', '0', '--state', state], {
      env: { SCHED_CONFIG_DIR: cfg.path },
    });
    clean(r, 'sandbox');
    expect(r.code).toBe(2);
    expect(errorLines(r.stderr)).toEqual([expect.stringMatching(/state\.json is not valid JSON/)]);
  });
});

describe('a config file that cannot be used is reported, never crashed on, never wiped', () => {
  const CONTENTS: Record<string, { text: string; error: RegExp }> = {
    'not JSON, with an unquoted key in it': {
      text: `{"profiles":{"default":{"apiKey":${API_KEY}}}}`,
      error: /config file .*config\.json: it is not valid JSON/,
    },
    'cut off after the key': {
      text: `{"profiles":{"default":{"apiKey":"${API_KEY}"`,
      error: /config file .*config\.json: it is not valid JSON/,
    },
    empty: { text: '', error: /config file .*config\.json: it is not valid JSON/ },
    binary: {
      text: '\u0000\u0001\u00ff\ufffdKEYzz9',
      error: /config file .*config\.json: it is not valid JSON/,
    },
    'an array': { text: '[]', error: /config file .* unexpected content: the top level/ },
    'profiles is a list': {
      text: '{"profiles":[]}',
      error: /config file .* unexpected content: "profiles" is not an object/,
    },
    'a key that is a number': {
      text: '{"profiles":{"default":{"apiKey":5}}}',
      error: /config file .* unexpected content: "apiKey" of profile "default"/,
    },
  };
  const COMMANDS: string[][] = [
    ['auth', 'status'],
    ['types', 'list'],
    ['profiles', 'ls'],
    ['webhooks', 'ls', '--verbose'],
    ['auth', 'login', '--with-key'],
    ['auth', 'logout'],
  ];
  for (const [what, { text, error }] of Object.entries(CONTENTS)) {
    for (const argv of COMMANDS) {
      it(`${what}: sched ${argv.join(' ')}`, async () => {
        writeConfig(text);
        const r = await run(argv, {
          env: { SCHED_CONFIG_DIR: cfg.path, SCHED_BASE_URL: srv.baseUrl },
          stdin: API_KEY,
        });
        clean(r, `${what} / ${argv.join(' ')}`);
        expect(r.code, r.stderr).toBe(1);
        const lines = errorLines(r.stderr);
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(error);
        expect(r.stderr).toMatch(/hint: fix it by hand, or move it away/);
        expect(fs.readFileSync(configFile(), 'utf8')).toBe(text);
        expect(srv.requests).toEqual([]);
      });
    }
  }
});

describe('the key goes only to the configured base URL', () => {
  let other: FaultServer;
  beforeEach(async () => {
    other = await startFaultServer();
  });
  afterEach(() => other.close());

  const env = () => ({
    SCHED_CONFIG_DIR: cfg.path,
    SCHED_BASE_URL: srv.baseUrl,
    SCHED_API_KEY: API_KEY,
  });

  it('a redirect to another host is followed without X-API-KEY (GET)', async () => {
    srv.on('GET', MT_PATH, f.redirect(`${other.url}${MT_PATH}?page=1`));
    other.on('GET', MT_PATH, f.json(200, envelope([MT], { path: MT_PATH })));
    const r = await run(['--verbose', 'types', 'list'], { env: env() });
    clean(r, 'types list');
    expect(r.code, r.stderr).toBe(0);
    expect(srv.requests[0]!.headers['x-api-key']).toBe(API_KEY);
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]!.headers['x-api-key']).toBeUndefined();
    expect(r.stderr).toMatch(/-> 302 .*redirect to http:\/\/127\.0\.0\.1:\d+\/api/);
  });

  it('another host that then asks for the key gets an auth error that says why (exit 4)', async () => {
    srv.on('GET', MT_PATH, f.redirect(`${other.url}${MT_PATH}`, 307));
    other.on('GET', MT_PATH, f.json(401, { message: 'API key required' }));
    const r = await run(['types', 'list'], { env: env() });
    clean(r, 'types list');
    expect(r.code).toBe(4);
    expect(errorLines(r.stderr)[0]).toMatch(/key is never sent to another host/);
    expect(other.requests[0]!.headers['x-api-key']).toBeUndefined();
  });

  it('a redirect to another port of the same host is another origin: nothing sent there', async () => {
    srv.on('DELETE', '/api/webhooks/*', (req) => f.redirect(`${other.url}${req.url}`, 307));
    other.fallback(f.status(204));
    const uuid = '0d5c7a52-9a43-4c55-8d6f-6f4f3b2f9e10';
    const r = await run(['webhooks', 'rm', uuid], { env: env() });
    clean(r, 'webhooks rm');
    // A DELETE is only sent to the configured base URL (issue 20): not re-sent to the other port.
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/redirect .*to another host/);
    expect(other.requests).toEqual([]);
  });

  it('a POST answered with a redirect is not re-sent anywhere (exit 1)', async () => {
    srv.on('POST', '/api/webhooks', f.redirect(`${other.url}/api/webhooks`, 307));
    const r = await run(
      ['webhooks', 'add', '--url', 'https://example.com/h', '--secret', WEBHOOK_SECRET],
      { env: env() },
    );
    clean(r, 'webhooks add');
    expect(r.code).toBe(1);
    expect(errorLines(r.stderr)[0]).toMatch(/redirect .*a POST is not re-sent/);
    expect(other.requests).toEqual([]);
    expect(srv.count('POST')).toBe(1);
  });

  it('auth login checks a new key only against the base URL it will store', async () => {
    srv.on('GET', MT_PATH, f.redirect(`${other.url}${MT_PATH}`));
    other.on('GET', MT_PATH, f.json(200, envelope([MT], { path: MT_PATH })));
    const r = await run(['auth', 'login', '--with-key'], {
      env: { SCHED_CONFIG_DIR: cfg.path, SCHED_BASE_URL: srv.baseUrl },
      stdin: API_KEY,
    });
    clean(r, 'auth login');
    expect(other.requests.every((q) => q.headers['x-api-key'] === undefined)).toBe(true);
  });

  it('sandbox book <link URL> never sends the stored profile key to the link host', async () => {
    writeConfig(profileConfig(srv.baseUrl));
    other.on('POST', '/api/_sandbox/book', f.json(404, { message: 'Not found' }));
    const r = await run(['sandbox', 'book', `${other.url}/s/abc123`], {
      env: { SCHED_CONFIG_DIR: cfg.path },
    });
    clean(r, 'sandbox book');
    expect(r.code).toBe(5);
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]!.headers['x-api-key']).toBe(DEFAULT_SANDBOX_API_KEY);
    expect(srv.requests).toEqual([]);
  });
});

describe('proxies: their credentials are never printed', () => {
  const PROXY_PASSWORD = 'proxypw-distinctive-31';
  const env = (proxy: string) => ({
    SCHED_CONFIG_DIR: cfg.path,
    SCHED_API_KEY: API_KEY,
    HTTPS_PROXY: proxy,
    HTTP_PROXY: proxy,
  });

  it('a proxy that refuses the connection is named as the likely cause (exit 1)', async () => {
    const refused = new URL(await refusedUrl());
    const r = await run(
      ['--verbose', '--base-url', 'https://api.example.com/api', 'types', 'list'],
      {
        env: env(`http://user:${PROXY_PASSWORD}@${refused.host}`),
      },
    );
    clean(r, 'types list');
    expect(r.stdout + r.stderr).not.toContain(PROXY_PASSWORD);
    expectOneError(
      r,
      1,
      /cannot connect to api\.example\.com \(through the proxy\): connection refused/,
    );
    expect(r.stderr).toMatch(/hint: check HTTPS_PROXY/);
  });

  it('a proxy that asks for authentication (407) (exit 1)', async () => {
    // Answers every request (a CONNECT included) with 407.
    const proxy = net.createServer((c) => {
      c.once('data', () =>
        c.end(
          'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\nContent-Length: 0\r\n\r\n',
        ),
      );
      c.on('error', () => {});
    });
    await new Promise<void>((res) => proxy.listen(0, '127.0.0.1', res));
    try {
      const { port } = proxy.address() as net.AddressInfo;
      const r = await run(
        [
          '--verbose',
          '--timeout',
          '3',
          '--base-url',
          'https://api.example.com/api',
          'types',
          'list',
        ],
        { env: env(`http://user:${PROXY_PASSWORD}@127.0.0.1:${port}`) },
      );
      clean(r, 'types list');
      expect(r.stdout + r.stderr).not.toContain(PROXY_PASSWORD);
      expectOneError(r, 1, /proxy/);
    } finally {
      await new Promise<void>((res) => proxy.close(() => res()));
    }
  });

  it('through a working proxy, nothing about it is shown, and the API answers', async () => {
    const proxy = await startProxy({ host: '127.0.0.1', port: srv.port });
    try {
      const r = await run(
        [
          '--verbose',
          '--timeout',
          '3',
          '--base-url',
          'http://api.example.test/api',
          'types',
          'list',
        ],
        {
          env: env(`http://user:${PROXY_PASSWORD}@${new URL(proxy.url).host}`),
        },
      );
      clean(r, 'types list');
      expect(r.stdout + r.stderr).not.toContain(PROXY_PASSWORD);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(MT.slug);
      // It went through the proxy (a tunnel to the host asked for), and only through it.
      expect([...proxy.connects, ...proxy.forwarded]).toEqual(['api.example.test:80']);
    } finally {
      await proxy.close();
    }
  });
});

describe('auth status shows at most the last 4 characters of the key', () => {
  const KEYS: Array<[string, string]> = [
    [API_KEY, MASKED_KEY],
    ['short-key-12', '****12'],
    ['tiny-key', '****'],
  ];
  for (const [key, shown] of KEYS) {
    for (const output of OUTPUT_FORMATS) {
      it(`${key.length}-character key, -o ${output}`, async () => {
        const r = await run(['--verbose', '-o', output, 'auth', 'status'], {
          env: { SCHED_CONFIG_DIR: cfg.path, SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: key },
        });
        expectNoCrash(r, 'auth status');
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain(shown);
        const visible = r.stdout + r.stderr;
        for (let n = 5; n <= key.length; n++) {
          expect(visible, `shows ${n} characters of the key`).not.toContain(key.slice(-n));
        }
        expect(visible).not.toContain(key.slice(0, 5));
      });
    }
  }

  it('from a profile, and when the API rejects it (exit 4)', async () => {
    writeConfig(profileConfig(srv.baseUrl));
    srv.on('GET', MT_PATH, f.json(401, { message: `bad key ${API_KEY}` }));
    const r = await run(['--verbose', '--json', 'auth', 'status'], {
      env: { SCHED_CONFIG_DIR: cfg.path },
    });
    clean(r, 'auth status');
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({
      keySource: 'profile',
      key: MASKED_KEY,
      valid: false,
    });
  });
});

describe('commands that take a webhook secret never print it', () => {
  const payload = Buffer.from('{"event":"meetingScheduled","payload":{"uuid":"x"}}');
  const env = () => ({ SCHED_CONFIG_DIR: cfg.path });

  it('sig sign and sig verify (valid, invalid, the secret given as the signature)', async () => {
    const good = signPayload(WEBHOOK_SECRET, payload);
    const cases: Array<[string[], number]> = [
      [['sig', 'sign', '--secret', WEBHOOK_SECRET], 0],
      [['sig', 'verify', '--secret', WEBHOOK_SECRET, '--signature', good], 0],
      [['sig', 'verify', '--secret', WEBHOOK_SECRET, '--signature', 'AAAA'], 1],
      [['sig', 'verify', '--secret', WEBHOOK_SECRET, '--signature', WEBHOOK_SECRET], 1],
      [['sig', 'verify', '--secret', `${WEBHOOK_SECRET} `, '--signature', good], 1],
      [['--json', 'sig', 'verify', '--secret', 'wrong-secret', '--signature', good], 1],
    ];
    for (const [argv, code] of cases) {
      const r = await run(argv, { env: env(), stdin: payload });
      clean(r, argv.join(' '));
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(code);
    }
  });

  it('events send --secret, with --verbose, to a receiver that echoes the request', async () => {
    srv.on('POST', '/hook', (req) => f.json(400, { received: req.headers, body: req.body }));
    const r = await run(
      [
        '--verbose',
        'events',
        'send',
        'meetingScheduled',
        '--to',
        `${srv.url}/hook`,
        '--secret',
        WEBHOOK_SECRET,
      ],
      { env: env() },
    );
    clean(r, 'events send');
    expect(r.code).toBe(1);
    expect(srv.requests[0]!.headers['webhook-signature']).toBeDefined();
  });

  it('webhooks listen: a delivery signed with another secret is diagnosed without showing either', async () => {
    const stop = new AbortController();
    let url: string | undefined;
    const done = run(['webhooks', 'listen', '--port', '0', '--secret', WEBHOOK_SECRET], {
      env: env(),
      signal: stop.signal,
      tap: (io) => {
        const poll = setInterval(() => {
          const m = /listening on (http:\/\/\S+)/.exec(io.stderrText());
          if (m) {
            clearInterval(poll);
            url = m[1];
          }
        }, 5);
      },
    });
    for (let i = 0; i < 400 && !url; i++) await new Promise((res) => setTimeout(res, 10));
    const other = `${WEBHOOK_SECRET.slice(0, -1)}X`;
    for (const sig of [
      signPayload(other, payload),
      WEBHOOK_SECRET,
      signPayload(WEBHOOK_SECRET, payload),
    ]) {
      const res = await fetch(url!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'webhook-signature': sig },
        body: payload,
      });
      expect(res.status).toBe(200);
    }
    await new Promise((res) => setTimeout(res, 100));
    stop.abort('SIGINT');
    const r = await done;
    clean(r, 'webhooks listen');
    expect(r.code).toBe(0); // 130 before: Ctrl-C is a server's normal end
    expect(r.stdout).toMatch(/signature INVALID[\s\S]*signature INVALID[\s\S]*signature valid/);
  });

  it('webhooks add --secret-stdin and sync: not in any output format', async () => {
    srv.on('GET', '/api/webhooks', f.json(200, envelope([])));
    srv.on('POST', '/api/webhooks', (req) => {
      const body = JSON.parse(req.body) as Record<string, unknown>;
      return f.json(201, {
        uuid: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
        created_at: 'now',
        ...body,
      });
    });
    const file = path.join(cfg.path, 'hooks.yaml');
    fs.writeFileSync(
      file,
      'webhooks:\n  - url: https://example.com/h\n    events: [meetingScheduled]\n    secretEnv: HOOK_SECRET\n',
    );
    const base = {
      SCHED_CONFIG_DIR: cfg.path,
      SCHED_BASE_URL: srv.baseUrl,
      SCHED_API_KEY: API_KEY,
    };
    // (--json and -o ndjson print the webhook object the API returned, as the contract says:
    // the service echoes the secret the user gave, once.)
    for (const output of OUTPUT_FORMATS.filter((o) => !FORMAT_ROWS[o].data)) {
      const r = await run(
        [
          '--verbose',
          '-o',
          output,
          'webhooks',
          'add',
          '--url',
          'https://example.com/h',
          '--secret-stdin',
        ],
        { env: base, stdin: WEBHOOK_SECRET },
      );
      clean(r, `add -o ${output}`);
      expect(r.code, r.stderr).toBe(0);
    }
    for (const output of OUTPUT_FORMATS) {
      const r = await run(['--verbose', '-o', output, 'webhooks', 'sync', '--file', file], {
        env: { ...base, HOOK_SECRET: WEBHOOK_SECRET },
      });
      clean(r, `sync -o ${output}`);
      expect(r.code, r.stderr).toBe(0);
    }
    expect(
      srv.requests.filter((q) => q.method === 'POST').every((q) => q.body.includes(WEBHOOK_SECRET)),
    ).toBe(true);
  });
});

describe('the sandbox as a whole', () => {
  it('a key for another base URL is not accepted, and not echoed in the 401', async () => {
    const sb = await startTestSandbox();
    try {
      const r = await run(['--verbose', 'types', 'list'], {
        env: { SCHED_CONFIG_DIR: cfg.path, SCHED_BASE_URL: sb.baseUrl, SCHED_API_KEY: API_KEY },
      });
      clean(r, 'types list');
      expect(r.code).toBe(4);
    } finally {
      await sb.close();
    }
  });
});
