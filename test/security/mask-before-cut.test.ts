// Issue 16, point 6: text from outside is shortened for display, and a secret inside it must
// be masked BEFORE the cut — otherwise the cut leaves a prefix of the secret that no longer
// matches it ("SECRETKEY_abcdef1234…"). The secret is placed at every offset across the cut,
// for the API key (401 body), a webhook secret (422 body), a --secret value echoed by a
// receiver, and proxy credentials echoed by a proxy.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { runSched } from '../helpers/run.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { f, startFaultServer, startProxy, type FaultServer } from '../helpers/fault-server.js';
import { rawResponse, startRawReceiver } from '../helpers/hostile.js';

const KEY = 'k7Qz9XvB2mWp4RtL8sNc3Hd6';
const WEBHOOK_SECRET = 'wQ8zR2vL5nX9kP3tM7bY4cJ6';
const PROXY_PASSWORD = 'pZ5xN8qK2wR7vT4mL9sB3yH6';

/** The offsets around the 200-character cut, each with the secret straddling it or not. */
const OFFSETS = Array.from({ length: 240 - 160 }, (_, i) => 160 + i);

/** Every window of 6 characters of the secret: none may be shown. */
function leaked(text: string, secret: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 6 <= secret.length; i++) {
    const w = secret.slice(i, i + 6);
    if (text.includes(w)) found.push(w);
  }
  return found;
}

const config = useConfigDir('sched-sec-cut-');
let srv: FaultServer;
beforeAll(async () => {
  srv = await startFaultServer();
});
afterAll(async () => {
  await srv.close();
});

const echo = (offset: number, secret: string) => `${'p'.repeat(offset)}${secret} and more text`;

describe('6. a secret echoed by a server is masked before the message is cut', () => {
  it('the API key in a 401 body, at every offset across the cut (exit 4)', async () => {
    for (const offset of OFFSETS) {
      srv.on('GET', '/api/users/me/meeting-types', f.json(401, { message: echo(offset, KEY) }));
      const r = await runSched(['types', 'list'], {
        env: { SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: KEY, SCHED_CONFIG_DIR: config.path },
      });
      expect(r.code).toBe(4);
      expect(leaked(r.stdout + r.stderr, KEY), `offset ${offset}: ${r.stderr}`).toEqual([]);
    }
  });

  it('a webhook secret in a 422 body, at every offset across the cut (exit 2)', async () => {
    for (const offset of OFFSETS) {
      srv.on(
        'POST',
        '/api/webhooks',
        f.json(422, {
          message: echo(offset, WEBHOOK_SECRET),
          errors: { secret: [echo(offset, WEBHOOK_SECRET)] },
        }),
      );
      const r = await runSched(
        ['webhooks', 'add', '--url', 'https://hooks.example.com/a', '--secret', WEBHOOK_SECRET],
        {
          env: { SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: KEY, SCHED_CONFIG_DIR: config.path },
        },
      );
      expect(r.code).toBe(2);
      expect(leaked(r.stdout + r.stderr, WEBHOOK_SECRET), `offset ${offset}`).toEqual([]);
    }
  });

  it('a --secret value echoed by the receiver of events send, at every offset (exit 1)', async () => {
    for (const offset of OFFSETS) {
      const rx = await startRawReceiver(rawResponse(500, 'Oops', echo(offset, WEBHOOK_SECRET)));
      try {
        for (const how of ['flag', 'env'] as const) {
          const r = await runSched(
            [
              'events',
              'send',
              'meetingScheduled',
              '--to',
              rx.url,
              ...(how === 'flag' ? ['--secret', WEBHOOK_SECRET] : []),
            ],
            { env: how === 'env' ? { SCHED_WEBHOOK_SECRET: WEBHOOK_SECRET } : {} },
          );
          expect(r.code).toBe(1);
          expect(leaked(r.stdout + r.stderr, WEBHOOK_SECRET), `${how} offset ${offset}`).toEqual(
            [],
          );
        }
      } finally {
        await rx.close();
      }
    }
  });

  it('proxy credentials echoed by the proxy, at every offset (exit 4)', async () => {
    // A proxy in front of the fault server, which echoes the password as a hostile API might.
    const tunnel = await startProxy({ host: '127.0.0.1', port: srv.port });
    onTestFinished(() => tunnel.close());
    for (const offset of OFFSETS) {
      srv.on(
        'GET',
        '/api/users/me/meeting-types',
        f.json(401, { message: echo(offset, PROXY_PASSWORD) }),
      );
      const proxy = `http://user:${PROXY_PASSWORD}@${new URL(tunnel.url).host}`;
      const r = await runSched(['types', 'list'], {
        env: {
          SCHED_BASE_URL: 'http://api.example.test/api',
          SCHED_API_KEY: KEY,
          SCHED_CONFIG_DIR: config.path,
          HTTP_PROXY: proxy,
          http_proxy: proxy,
        },
      });
      expect(r.code, r.stderr).toBe(4);
      expect(leaked(r.stdout + r.stderr, PROXY_PASSWORD), `offset ${offset}`).toEqual([]);
    }
  });
});
