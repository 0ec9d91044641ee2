// Process behaviour of the built binary (bin/sched.js through src/main.ts): Ctrl-C and
// SIGTERM in the middle of long work report what was done and exit 130/143 without losing a
// result or leaving a registered webhook behind; a second Ctrl-C quits at once; a closed pipe
// ends quietly; concurrent logins keep every profile.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { BIN } from '../helpers/run.js';
import { envelope, f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { API_KEY, errorLines, expectNoCrash, expectNoSecrets, tempDir } from './harness.js';
import { until } from '../helpers/until.js';

vi.setConfig({ maxConcurrency: 4 });

interface Spawned {
  child: ResultPromise;
  stdout(): string;
  stderr(): string;
}

let cfg: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  cfg = await tempDir('process');
});
afterAll(() => cfg.remove());

function spawn(argv: string[], env: Record<string, string> = {}, input?: string): Spawned {
  const child = execa(process.execPath, [BIN, ...argv], {
    env: { NO_COLOR: '1', SCHED_CONFIG_DIR: cfg.path, ...env },
    extendEnv: true,
    reject: false,
    input,
    timeout: 30_000,
  }) as ResultPromise;
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  return { child, stdout: () => out, stderr: () => err };
}

const lines = (s: string) => s.split('\n').filter((l) => l !== '');

// --- Ctrl-C and SIGTERM during long work -----------------------------------------------------

interface LongJob {
  name: string;
  /** Starts what the job talks to; returns the env and a cleanup. */
  start(): Promise<{ env: Record<string, string>; close(): Promise<void>; state: JobState }>;
  argv: string[];
  /** When to send the signal. */
  ready(s: Spawned, state: JobState): boolean;
  /** What must hold after the process ended. */
  check(s: Spawned, state: JobState, code: number): Promise<void> | void;
  /**
   * A server, for which a signal is the normal end: exit 0 after a clean stop instead of
   * 130/143 (which mean work cut short).
   */
  server?: boolean;
}

interface JobState {
  srv?: FaultServer;
  sb?: TestSandbox;
  minted: string[];
  deleted: string[];
}

const SIGNALS = [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const;

const MT_PATH = '/api/users/me/meeting-types';

const JOBS: LongJob[] = [
  {
    name: 'link create --count 500 against a slow server',
    async start() {
      const srv = await startFaultServer();
      const state: JobState = { srv, minted: [], deleted: [] };
      srv.on('POST', '/api/single-use-link', () => {
        const code = `c${state.minted.length}`;
        state.minted.push(`https://secure.simplymeet.me/s/${code}`);
        return f.delay(150, f.json(200, { code, url: state.minted[state.minted.length - 1] }));
      });
      return {
        env: { SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: API_KEY },
        close: () => srv.close(),
        state,
      };
    },
    argv: ['link', 'create', '3f1c9a4e-8a52-4f0e-9d7b-2c5e6a1b0d11', '--count', '500'],
    ready: (s, st) => st.minted.length >= 12 && lines(s.stdout()).length >= 4,
    check(s, st) {
      // Every link the server minted is printed: none lost, none invented. (Printed in request
      // order; minted in arrival order, which concurrent requests may swap.)
      expect([...lines(s.stdout())].sort()).toEqual([...st.minted].sort());
      const m = /interrupted: created (\d+) of 500 links/.exec(s.stderr());
      expect(m, s.stderr()).not.toBeNull();
      expect(Number(m![1])).toBe(st.minted.length);
      expect(st.minted.length).toBeLessThan(500);
    },
  },
  {
    name: 'types list --all with a slow server',
    async start() {
      const srv = await startFaultServer();
      const state: JobState = { srv, minted: [], deleted: [] };
      srv.on('GET', MT_PATH, (req) => {
        const page = Number(req.query.get('page'));
        const items = Array.from({ length: 50 }, (_, i) => ({
          uuid: `00000000-0000-4000-8000-${String(page * 100 + i).padStart(12, '0')}`,
          name: `Type ${page}.${i}`,
          slug: `t-${page}-${i}`,
          duration: 30,
        }));
        return f.delay(
          200,
          f.json(200, envelope(items, { page, pages: 40, limit: 50, total: 2000, path: MT_PATH })),
        );
      });
      return {
        env: { SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: API_KEY },
        close: () => srv.close(),
        state,
      };
    },
    argv: ['types', 'list', '--all', '-o', 'ndjson'],
    ready: (s) => lines(s.stdout()).length >= 100,
    check(s) {
      const out = lines(s.stdout());
      // Whole pages, each line a whole object, in order.
      expect(out.length % 50).toBe(0);
      expect(out.length).toBeLessThan(2000);
      out.forEach((l, i) =>
        expect((JSON.parse(l) as { slug: string }).slug).toBe(
          `t-${Math.floor(i / 50) + 1}-${i % 50}`,
        ),
      );
    },
  },
  {
    name: 'webhooks rm --all --yes with slow deletes',
    async start() {
      const srv = await startFaultServer();
      const hooks = Array.from({ length: 40 }, (_, i) => ({
        uuid: `0d5c7a52-9a43-4c55-8d6f-${String(i).padStart(12, '0')}`,
        url: `https://example.com/h${i}`,
        events: ['meetingScheduled'],
        secret: null,
        created_at: 'now',
      }));
      const state: JobState = { srv, minted: [], deleted: [] };
      srv.on('GET', '/api/webhooks', f.json(200, envelope(hooks, { limit: 50 })));
      srv.on('DELETE', '/api/webhooks/*', (req) => {
        state.deleted.push(req.path.split('/').pop()!);
        return f.delay(150, f.status(204));
      });
      return {
        env: { SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: API_KEY },
        close: () => srv.close(),
        state,
      };
    },
    argv: ['webhooks', 'rm', '--all', '--yes'],
    ready: (s, st) => st.deleted.length >= 8,
    check(s, st) {
      // What is printed as deleted is exactly what the server was asked to delete.
      expect([...lines(s.stdout())].sort()).toEqual([...st.deleted].sort());
      expect(s.stderr()).toMatch(
        new RegExp(`interrupted: deleted ${st.deleted.length} of 40 webhooks`),
      );
    },
  },
  {
    name: 'webhooks listen --register (against the sandbox)',
    async start() {
      const sb = await startTestSandbox();
      return {
        env: { ...sb.env },
        close: () => sb.close(),
        state: { sb, minted: [], deleted: [] },
      };
    },
    argv: ['webhooks', 'listen', '--port', '0', '--register', 'https://tunnel.example.com/hook'],
    server: true,
    ready: (s) => /ready; Ctrl-C to stop/.test(s.stderr()),
    async check(s, st) {
      expect(s.stderr()).toMatch(/registered webhook ([0-9a-f-]{36})/);
      expect(s.stderr()).toMatch(/deleted webhook [0-9a-f-]{36}\n$/);
      const res = await st.sb!.api('/webhooks');
      const body = (await res.json()) as { _embedded: { items: unknown[] } };
      expect(body._embedded.items).toEqual([]);
    },
  },
];

// Each case mostly waits on a slow server; its own server, sandbox and process keep it apart.
describe.concurrent(
  'a signal during long work: report what was done, exit 130/143, leave nothing behind',
  () => {
    for (const job of JOBS) {
      for (const [signal, cutShort] of SIGNALS) {
        // listen was 130/143 before: a server stopped by a signal has ended normally.
        const code = job.server ? 0 : cutShort;
        it(`${job.name}: ${signal} -> ${code}`, async () => {
          const started = await job.start();
          try {
            const s = spawn(['--timeout', '10', ...job.argv], started.env);
            await until(() => job.ready(s, started.state), 'the work to be under way', s.stderr, {
              timeoutMs: 15_000,
            });
            s.child.kill(signal);
            const r = await s.child;
            const all = { stdout: s.stdout(), stderr: s.stderr() };
            expect(r.exitCode, all.stderr).toBe(code);
            expect(all.stdout + all.stderr).not.toContain('\n    at ');
            expect(all.stderr).not.toMatch(/unexpected failure|EPIPE|ERR_/);
            expectNoSecrets(all, job.name);
            // At most one error line, and it says the command was interrupted.
            for (const l of errorLines(all.stderr)) expect(l).toMatch(/interrupted/);
            expect(errorLines(all.stderr).length).toBeLessThanOrEqual(1);
            await job.check(s, started.state, code);
            // Nothing more reaches the server once the process has gone.
            const count = started.state.srv?.requests.length;
            await new Promise((res) => setTimeout(res, 300));
            expect(started.state.srv?.requests.length).toBe(count);
          } finally {
            await started.close();
          }
        });
      }
    }

    for (const [signal] of SIGNALS) {
      // Exit 0 (130/143 before): the listener stops cleanly once its webhook is deleted.
      const code = 0;
      it(`listen --register: ${signal} while the webhook is being created still deletes it`, async () => {
        const srv = await startFaultServer();
        try {
          const uuid = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
          srv.on('GET', '/api/webhooks', f.json(200, envelope([])));
          // The service creates it, but answers slowly.
          srv.on(
            'POST',
            '/api/webhooks',
            f.delay(
              800,
              f.json(201, { uuid, url: 'https://t.example.com/h', events: [], secret: 's' }),
            ),
          );
          srv.on('DELETE', '/api/webhooks/*', f.status(204));
          const s = spawn(
            ['webhooks', 'listen', '--port', '0', '--register', 'https://t.example.com/h'],
            {
              SCHED_BASE_URL: srv.baseUrl,
              SCHED_API_KEY: API_KEY,
            },
          );
          await until(() => srv.count('POST') === 1, 'the POST', s.stderr, { timeoutMs: 15_000 });
          s.child.kill(signal);
          const r = await s.child;
          expect(r.exitCode, s.stderr()).toBe(code);
          expect(srv.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
            'GET /api/webhooks',
            'POST /api/webhooks',
            `DELETE /api/webhooks/${uuid}`,
          ]);
          expect(s.stderr()).toMatch(new RegExp(`deleted webhook ${uuid}\n$`));
          expect(errorLines(s.stderr())).toEqual([]);
        } finally {
          await srv.close();
        }
      });
    }

    it('webhooks add: Ctrl-C while the POST is unanswered says it may have been created', async () => {
      const srv = await startFaultServer();
      try {
        srv.on('POST', '/api/webhooks', f.hang());
        const s = spawn(['webhooks', 'add', '--url', 'https://t.example.com/h', '--no-secret'], {
          SCHED_BASE_URL: srv.baseUrl,
          SCHED_API_KEY: API_KEY,
        });
        await until(() => srv.count('POST') === 1, 'the POST', s.stderr, { timeoutMs: 15_000 });
        s.child.kill('SIGINT');
        const r = await s.child;
        expect(r.exitCode).toBe(130);
        expect(errorLines(s.stderr())).toEqual([
          'error: interrupted while waiting for the answer to POST /webhooks: it may have been processed',
        ]);
        expect(s.stderr()).toMatch(/hint: check with `sched webhooks ls`/);
        expect(srv.count('POST')).toBe(1);
      } finally {
        await srv.close();
      }
    });

    it.each([
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const)(
      'a second %s quits at once (%d), even with requests in flight',
      async (signal, code) => {
        const srv = await startFaultServer();
        try {
          srv.on('POST', '/api/single-use-link', f.hang());
          const s = spawn(
            ['link', 'create', '3f1c9a4e-8a52-4f0e-9d7b-2c5e6a1b0d11', '--count', '50'],
            {
              SCHED_BASE_URL: srv.baseUrl,
              SCHED_API_KEY: API_KEY,
            },
          );
          await until(() => srv.count('POST') >= 4, 'requests in flight', s.stderr, {
            timeoutMs: 15_000,
          });
          s.child.kill(signal);
          await until(() => /Stopping/.test(s.stderr()), 'the stopping note', s.stderr, {
            timeoutMs: 15_000,
          });
          s.child.kill(signal);
          const r = await s.child;
          expect(r.exitCode).toBe(code);
          expect(s.stderr()).not.toContain('\n    at ');
        } finally {
          await srv.close();
        }
      },
    );
  },
);

// --- A closed pipe ----------------------------------------------------------------------------

describe('writing to a closed pipe ends quietly', () => {
  let srv: FaultServer;
  beforeAll(async () => {
    srv = await startFaultServer();
    srv.on('GET', MT_PATH, (req) => {
      const page = Number(req.query.get('page'));
      const items = Array.from({ length: 50 }, (_, i) => ({
        uuid: `00000000-0000-4000-8000-${String(page * 100 + i).padStart(12, '0')}`,
        name: `Type ${page}.${i} ${'x'.repeat(200)}`,
        slug: `t-${page}-${i}`,
        duration: 30,
      }));
      return f.json(
        200,
        envelope(items, { page, pages: 200, limit: 50, total: 10_000, path: MT_PATH }),
      );
    });
  });
  afterAll(() => srv.close());

  const PIPES: Array<[string, string]> = [
    ['types list --all -o ndjson | head -1', 'types list --all -o ndjson'],
    ['types list --all | head -1', 'types list --all'],
    ['types list --all -o csv | head -2', 'types list --all -o csv'],
    ['events sample meetingScheduled | head -c 10', 'events sample meetingScheduled'],
    ['completion bash | head -1', 'completion bash'],
  ];
  for (const [what, args] of PIPES) {
    it(what, async () => {
      const head = what.split('| ')[1]!;
      const r = await execa(
        'bash',
        [
          '-c',
          `node "${BIN}" ${args} | ${head} >/dev/null; echo "sched exit \${PIPESTATUS[0]}" >&2`,
        ],
        {
          env: {
            NO_COLOR: '1',
            SCHED_CONFIG_DIR: cfg.path,
            SCHED_BASE_URL: srv.baseUrl,
            SCHED_API_KEY: API_KEY,
          },
          reject: false,
          timeout: 20_000,
        },
      );
      const stderr = String(r.stderr);
      expect(stderr).toMatch(/sched exit 0\n?$/);
      expect(stderr.replace(/sched exit \d+\n?$/, '')).toBe('');
      expect(srv.count('GET')).toBeLessThan(200 * 5);
    });
  }
});

// --- Concurrent logins --------------------------------------------------------------------------

describe('concurrent auth login runs', () => {
  it('eight logins at once leave a valid config file with all eight profiles', async () => {
    const srv = await startFaultServer();
    const dir = await tempDir('concurrent-login');
    try {
      srv.on('GET', MT_PATH, f.delay(20, f.json(200, envelope([], { path: MT_PATH }))));
      const runs = Array.from({ length: 8 }, (_, i) =>
        execa(process.execPath, [BIN, '--profile', `p${i}`, 'auth', 'login', '--with-key'], {
          env: { NO_COLOR: '1', SCHED_CONFIG_DIR: dir.path, SCHED_BASE_URL: srv.baseUrl },
          input: `${API_KEY}-${i}`,
          reject: false,
          timeout: 20_000,
        }),
      );
      const results = await Promise.all(runs);
      for (const r of results) {
        expect(r.exitCode, String(r.stderr)).toBe(0);
        expectNoCrash({
          code: 0,
          stdout: String(r.stdout),
          stderr: String(r.stderr),
          hung: false,
          aborted: false,
        });
      }
      const config = JSON.parse(fs.readFileSync(path.join(dir.path, 'config.json'), 'utf8')) as {
        profiles: Record<string, { apiKey: string }>;
      };
      expect(Object.keys(config.profiles).sort()).toEqual(
        Array.from({ length: 8 }, (_, i) => `p${i}`),
      );
      for (let i = 0; i < 8; i++) expect(config.profiles[`p${i}`]!.apiKey).toBe(`${API_KEY}-${i}`);
      expect(fs.readdirSync(dir.path)).toEqual(['config.json']);
    } finally {
      await srv.close();
      await dir.remove();
    }
  });
});
