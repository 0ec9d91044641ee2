// One rule for a webhook URL (src/domain/webhooks/url.ts), one table over every command that takes one:
// the same inputs go through `webhooks add --url`, `webhooks rm --url`, a `webhooks sync` file,
// `webhooks listen --register` and `--forward-to`, and `events send --to`, in-process. Each must
// give the rule's verdict: accepted (the request goes out) or refused with exit 2, the rule's
// own words after the caller's flag or field name, and nothing sent anywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/cli.js';
import {
  MAX_WEBHOOK_URL,
  webhookUrlProblem,
  type WebhookUrlProblem,
} from '../../src/domain/webhooks/url.js';
import { createBufferIO } from '../helpers/buffer-io.js';
import { envelope, f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { runSched } from '../helpers/run.js';

const PASSWORD = 'pw-distinct-7c1e';

let api: FaultServer;
let rx: Receiver;
let dir: string;
let base: string;

beforeAll(async () => {
  api = await startFaultServer();
  rx = await startReceiver();
  base = new URL(rx.url).origin;
  dir = mkdtempSync(path.join(tmpdir(), 'sched-url-rule-'));
});
afterAll(async () => {
  await api.close();
  await rx.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every API call reaches the fault server: lists are empty, creating a webhook fails (500). */
function resetApi(): void {
  api.clear();
  api.on('GET', '/api/webhooks', f.json(200, envelope([])));
  api.on('POST', '/api/webhooks', f.json(500, { code: 500, message: 'not today' }));
}

const env = () => ({
  SCHED_BASE_URL: api.baseUrl,
  SCHED_API_KEY: 'test-key',
  SCHED_CONFIG_DIR: dir,
  SYNC_SECRET: 'sync-secret-value',
});

interface Outcome {
  code: number;
  stderr: string;
  /** Requests that reached the API server or the receiver. */
  reached: number;
}

interface Caller {
  name: string;
  /** How the refusal names what was wrong: `--url must …`, `webhooks[0].url: must …`. */
  prefix: string;
  run(url: string): Promise<Outcome>;
}

async function viaApi(argv: string[]): Promise<Outcome> {
  resetApi();
  const r = await runSched(argv, { env: env() });
  return { code: r.code, stderr: r.stderr, reached: api.requests.length };
}

const CALLERS: Caller[] = [
  {
    name: 'webhooks add --url',
    prefix: '--url ',
    run: (url) => viaApi(['webhooks', 'add', '--url', url, '--no-secret']),
  },
  {
    name: 'webhooks rm --url',
    prefix: '--url ',
    run: (url) => viaApi(['webhooks', 'rm', '--url', url, '--yes']),
  },
  {
    name: 'webhooks sync (file entry)',
    prefix: 'webhooks[0].url: ',
    run: (url) => {
      const file = path.join(dir, 'hooks.json');
      const doc = { webhooks: [{ url, events: ['meetingScheduled'], secretEnv: 'SYNC_SECRET' }] };
      writeFileSync(file, JSON.stringify(doc));
      return viaApi(['webhooks', 'sync', '--file', file, '--dry-run']);
    },
  },
  {
    name: 'webhooks listen --register',
    prefix: '--register ',
    // Registration reaches the API (which answers 500, so the listener stops by itself).
    run: (url) => viaApi(['webhooks', 'listen', '--port', '0', '--register', url]),
  },
  {
    name: 'webhooks listen --forward-to',
    prefix: '--forward-to ',
    run: async (url) => {
      // Accepted means the listener starts; it is stopped as soon as it says so.
      const ac = new AbortController();
      const io = createBufferIO({ env: {} });
      io.stderr.on('data', (c: Buffer) => {
        if (/listening on/.test(c.toString())) ac.abort('SIGINT');
      });
      const code = await runCli(['webhooks', 'listen', '--port', '0', '--forward-to', url], {
        io,
        env: {},
        signal: ac.signal,
      });
      const stderr = io.stderrText();
      return { code, stderr, reached: /listening on/.test(stderr) ? 1 : 0 };
    },
  },
  {
    name: 'events send --to',
    prefix: '--to ',
    run: async (url) => {
      const before = rx.received.length;
      const r = await runSched(['events', 'send', 'meetingScheduled', '--to', url], {
        env: { SCHED_CONFIG_DIR: dir },
      });
      return { code: r.code, stderr: r.stderr, reached: rx.received.length - before };
    },
  },
];

type Verdict = 'ok' | WebhookUrlProblem['reason'];

/** Inputs point at the local receiver, so an accepted `events send` really delivers. */
function inputs(): Array<[string, string, Verdict]> {
  const hook = `${base}/hook`;
  const port = new URL(base).port;
  const longest = `${hook}?pad=${'a'.repeat(MAX_WEBHOOK_URL - hook.length - 5)}`;
  return [
    ['a plain http URL', hook, 'ok'],
    ['a query and a fragment', `${hook}?x=1#top`, 'ok'],
    ['scheme and host in capitals', `HTTP://127.0.0.1:${port}/hook`, 'ok'],
    [`exactly ${MAX_WEBHOOK_URL} characters`, longest, 'ok'],
    [`${MAX_WEBHOOK_URL + 1} characters`, longest + 'a', 'too-long'],
    ['a user name and password', `http://user:${PASSWORD}@127.0.0.1:${port}/hook`, 'credentials'],
    ['a password only', `http://:${PASSWORD}@127.0.0.1:${port}/hook`, 'credentials'],
    ['a user name only', `http://someone@127.0.0.1:${port}/hook`, 'credentials'],
    ['credentials and a leading space', ` http://u:${PASSWORD}@127.0.0.1:${port}/`, 'credentials'],
    ['another scheme', `ftp://127.0.0.1:${port}/hook`, 'not-http'],
    ['a relative path', '/hook', 'not-http'],
    ['no scheme', `127.0.0.1:${port}/hook`, 'not-http'],
    ['a space inside', `${hook}/a b`, 'not-http'],
    ['a leading space', ` ${hook}`, 'not-http'],
    ['a trailing line break', `${hook}\n`, 'not-http'],
    ['a javascript: URL', 'javascript:alert(1)', 'not-http'],
    ['nothing', '', 'not-http'],
  ];
}

describe('the webhook URL rule', () => {
  it('gives each input its verdict', () => {
    for (const [what, url, verdict] of inputs()) {
      expect(webhookUrlProblem(url)?.reason ?? 'ok', what).toBe(verdict);
    }
  });

  for (const caller of CALLERS) {
    it(`${caller.name}: the same verdict and words for every input`, async () => {
      for (const [what, url, verdict] of inputs()) {
        const r = await caller.run(url);
        const label = `${caller.name}, ${what}`;
        expect(r.stderr, label).not.toContain(PASSWORD);
        if (verdict === 'ok') {
          expect(r.code, `${label}: ${r.stderr}`).not.toBe(2);
          expect(r.reached, `${label}: nothing went out`).toBeGreaterThan(0);
        } else {
          const problem = webhookUrlProblem(url)!;
          expect(r.code, `${label}: ${r.stderr}`).toBe(2);
          expect(r.reached, `${label}: something went out`).toBe(0);
          expect(r.stderr, label).toContain(caller.prefix + problem.message);
        }
      }
    });
  }
});
