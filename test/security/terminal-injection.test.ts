// Issue 16, points 1–5: text from a hostile API server, webhook receiver or sandbox never
// reaches the terminal as escape sequences, controls, bidi or invisible characters, and never
// starts a line of its own. Through the built binary, as a user (or a CI log) sees it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSched } from '../helpers/run.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { envelope, f } from '../helpers/fault-server.js';
import {
  ESC_CLIPBOARD,
  ESC_TITLE,
  HOSTILE,
  HOSTILE_URL,
  HOSTILE_UUID,
  INVISIBLES,
  WORKFLOW_COMMAND,
  expectHarmless,
  hostileRoutes,
  hostileValidationBody,
  hostileWebhook,
  rawResponse,
  spawnServer,
  writeSandboxState,
  startHostileApi,
  startRawReceiver,
} from '../helpers/hostile.js';

type HostileApi = Awaited<ReturnType<typeof startHostileApi>>;
let api: HostileApi;

const config = useConfigDir('sched-sec-inject-');
const env = () => ({ ...api.env, SCHED_CONFIG_DIR: config.path });

beforeAll(async () => {
  api = await startHostileApi();
});
afterAll(async () => {
  await api.close();
});

describe('1. field names of 400/422 errors objects', () => {
  for (const status of [400, 422]) {
    it(`${status}: keys and messages cleaned (types list, webhooks add)`, async () => {
      api.on('GET', '/api/users/me/meeting-types', f.json(status, hostileValidationBody()));
      api.on('POST', '/api/webhooks', f.json(status, hostileValidationBody()));
      try {
        const list = await spawnSched(['types', 'list'], { env: env() });
        expect(list.code).toBe(2);
        expectHarmless(list, `types list ${status}`);
        // The field names are still shown, cleaned: a user needs to know which field is wrong.
        expect(list.stderr).toContain('x');
        expect(list.stderr).toMatch(/bad/);

        const add = await spawnSched(
          ['webhooks', 'add', '--url', 'https://hooks.example.com/a', '--no-secret'],
          { env: env() },
        );
        expect(add.code).toBe(2);
        expectHarmless(add, `webhooks add ${status}`);
      } finally {
        hostileRoutes(api);
      }
    });
  }
});

describe('2. events send: the receiver status text', () => {
  it('a status line with escape sequences is shown cleaned, on stdout and stderr (exit 1)', async () => {
    const rx = await startRawReceiver(
      rawResponse(500, `${ESC_TITLE}${ESC_CLIPBOARD}\u202e nope`, `body ${HOSTILE}`),
    );
    try {
      const r = await spawnSched(['events', 'send', 'meetingScheduled', '--to', rx.url], {
        env: { SCHED_WEBHOOK_SECRET: undefined },
      });
      expect(r.code).toBe(1);
      expect(rx.requests).toHaveLength(1);
      expectHarmless(r, 'events send');
      expect(r.stdout).toMatch(/^500 /);
      expect(r.stderr).toMatch(/receiver answered 500/);
    } finally {
      await rx.close();
    }
  });

  it('a 2xx status text is cleaned too (exit 0)', async () => {
    const rx = await startRawReceiver(rawResponse(200, `OK${ESC_TITLE}\x9b2J`));
    try {
      const r = await spawnSched(['events', 'send', 'meetingScheduled', '--to', rx.url]);
      expect(r.code).toBe(0);
      expectHarmless(r, 'events send 200');
      expect(r.stdout).toMatch(/^200 OK/);
    } finally {
      await rx.close();
    }
  });
});

describe('3. UUIDs and URLs from the API', () => {
  it('webhooks sync: the plan and the progress lines', async () => {
    const fileUrl = 'https://hooks.example.com/kept';
    api.on(
      'GET',
      '/api/webhooks',
      f.json(
        200,
        envelope([
          // Same URL as the file, other events: replaced (old UUID shown in plan and progress).
          hostileWebhook({ url: fileUrl, events: ['meetingCancelled'] }),
          // Not in the file: deleted with --prune.
          hostileWebhook({ uuid: `${HOSTILE_UUID}-2` }),
        ]),
      ),
    );
    const file = path.join(config.path, 'hooks.json');
    writeFileSync(
      file,
      JSON.stringify({
        webhooks: [
          { url: fileUrl, events: ['meetingScheduled'], secret: 'file-secret-0123456789' },
        ],
      }),
    );
    try {
      const dry = await spawnSched(['webhooks', 'sync', '--file', file, '--prune', '--dry-run'], {
        env: env(),
      });
      expect(dry.code, dry.stderr).toBe(0);
      expectHarmless(dry, 'sync --dry-run');
      expect(dry.stderr).toContain('3f1c9a4e-8a52-4f0e-9d7b-2c5e6a1b0d11');

      const real = await spawnSched(['webhooks', 'sync', '--file', file, '--prune'], {
        env: env(),
      });
      expect(real.code, real.stderr).toBe(0);
      expectHarmless(real, 'sync');
      expect(api.count('DELETE')).toBe(2);

      const json = await spawnSched(['webhooks', 'sync', '--file', file, '--prune', '--json'], {
        env: env(),
      });
      expectHarmless(json, 'sync --json');
      // JSON keeps the data exact.
      const parsed = JSON.parse(json.stdout) as { deleted: unknown[] };
      expect(JSON.stringify(parsed)).toContain(JSON.stringify(HOSTILE).slice(1, -1));
    } finally {
      hostileRoutes(api);
    }
  });

  it('webhooks listen --register: the registered and deleted lines', async () => {
    const l = spawnServer(
      ['webhooks', 'listen', '--port', '0', '--register', 'https://public.example.com/hook'],
      env(),
    );
    await l.waitFor(/ready/);
    const code = await l.stop();
    expect(code, l.stderr()).toBe(0); // SIGTERM is listen's normal stop: exit 0 after a clean shutdown
    expect(api.count('POST', '/api/webhooks')).toBeGreaterThan(0);
    expect(api.count('DELETE')).toBeGreaterThan(0);
    expectHarmless({ stdout: l.stdout(), stderr: l.stderr() }, 'listen --register');
    expect(l.stderr()).toMatch(/registered webhook 3f1c9a4e/);
    expect(l.stderr()).toMatch(/deleted webhook 3f1c9a4e/);
  });

  it('the API answering 404 for a hostile path: the URL in the message is clean', async () => {
    const r = await spawnSched(['webhooks', 'rm', '00000000-0000-4000-8000-000000000000'], {
      env: env(),
    });
    expectHarmless(r, 'webhooks rm 404');
  });
});

describe('4. the sandbox and webhook URLs with control characters', () => {
  const sbConfig = useConfigDir('sched-sec-sandbox-');

  it('refuses them (422) and its delivery log of a stored one stays clean', async () => {
    const state = path.join(sbConfig.path, 'state.json');
    const hookUrl = `http://127.0.0.1:9/${ESC_TITLE}${INVISIBLES}\n${WORKFLOW_COMMAND}`;
    writeSandboxState(state, {
      linkCodes: ['hostile1'],
      webhooks: [{ uuid: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', url: hookUrl }],
    });
    const sb = spawnServer(['sandbox', '--port', '0', '--state', state, '--json'], {
      SCHED_CONFIG_DIR: sbConfig.path,
    });
    try {
      await sb.waitFor(/\n/, 'stdout');
      const info = JSON.parse(sb.stdout().split('\n')[0]!) as { baseUrl: string; apiKey: string };
      const post = (url: string) =>
        fetch(`${info.baseUrl}/webhooks`, {
          method: 'POST',
          headers: { 'x-api-key': info.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ url, events: ['meetingScheduled'] }),
        });
      for (const bad of [
        `https://hooks.example.com/${ESC_TITLE}`,
        'https://hooks.example.com/a\x00b',
        'https://hooks.example.com/\x9b2J',
        'https://hooks.example.com/\u202eabc',
        'https://hooks.example.com/\u200b',
      ]) {
        const res = await post(bad);
        expect(res.status, JSON.stringify(bad)).toBe(422);
      }
      expect((await post('https://hooks.example.com/fine?a=1')).status).toBe(201);

      const book = await spawnSched(['sandbox', 'book', 'hostile1'], {
        env: { SCHED_BASE_URL: info.baseUrl, SCHED_API_KEY: info.apiKey },
      });
      expect(book.code, book.stderr).toBe(0);
      expectHarmless(book, 'sandbox book');
      await sb.waitFor(/delivery meetingScheduled/);
    } finally {
      await sb.stop();
    }
    expectHarmless({ stdout: sb.stdout(), stderr: sb.stderr() }, 'sandbox log');
  });
});

describe('5. bidi and invisible characters', () => {
  it('in API error messages, on every format', async () => {
    const srv = await startHostileApi();
    srv.on(
      'GET',
      '/api/users/me/meeting-types',
      f.json(500, { message: `broken \u202eevil${INVISIBLES} ${HOSTILE}` }),
    );
    try {
      for (const extra of [[], ['--json'], ['-o', 'csv']]) {
        const r = await spawnSched(['types', 'list', ...extra], {
          env: { ...srv.env, SCHED_CONFIG_DIR: config.path },
        });
        expect(r.code).toBe(1);
        expectHarmless(r, `types list 500 ${extra.join(' ')}`);
        expect(r.stderr).toContain('broken');
      }
    } finally {
      await srv.close();
    }
  });

  it('in a table, TSV, quiet lines and JSON from hostile data', async () => {
    for (const argv of [
      ['types', 'list'],
      ['types', 'list', '-q'],
      ['types', 'list', '--json'],
      ['types', 'list', '-o', 'ndjson'],
      ['webhooks', 'ls'],
      ['webhooks', 'ls', '--json'],
    ]) {
      const r = await spawnSched(argv, { env: env() });
      expect(r.code, r.stderr).toBe(0);
      expectHarmless(r, argv.join(' '));
    }
    // JSON keeps the data: every hostile character comes back after parsing.
    const r = await spawnSched(['webhooks', 'ls', '--json'], { env: env() });
    expect((JSON.parse(r.stdout) as Array<{ url: string }>)[0]!.url).toBe(HOSTILE_URL);
  });
});

describe('3. webhooks rm --all: the confirmation list', () => {
  it('hostile UUIDs and URLs are listed cleaned, one line each, on a terminal', async () => {
    const { runSched } = await import('../helpers/run.js');
    for (const answer of [false, true]) {
      const asked: string[] = [];
      const r = await runSched(['webhooks', 'rm', '--all'], {
        env: env(),
        tty: true,
        prompter: {
          confirm: (message) => {
            asked.push(message);
            return Promise.resolve(answer);
          },
          select: () => Promise.reject(new Error('not asked')),
          checkbox: () => Promise.reject(new Error('not asked')),
          input: () => Promise.reject(new Error('not asked')),
          password: () => Promise.reject(new Error('not asked')),
        },
      });
      expect(asked).toHaveLength(1);
      expect(r.code === 0).toBe(answer);
      expect(r.stderr).toContain('3f1c9a4e-8a52-4f0e-9d7b-2c5e6a1b0d11');
      expectHarmless(r, `rm --all (answer ${answer})`, { colour: true });
    }
  });
});
