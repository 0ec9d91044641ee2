// Issue 20, point 1: `sched sandbox book|cancel|reschedule` never send the account's key to a
// host nobody configured. Aimed elsewhere (a link URL, the default sandbox address), they send
// the sandbox's own key: the documented default, or --api-key.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_API_KEY } from '../../src/defaults.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runSched } from '../helpers/run.js';

const ACCOUNT_KEY = 'sk_live_account_key_7f3a';
const MEETING = '4b1d2f0e-2f44-4c1a-9a51-0f3f6a7c8d90';
const config = useConfigDir('sched-sec-key-origin-');

let srv: FaultServer;
beforeEach(async () => {
  srv = await startFaultServer();
  srv.fallback(f.json(404, { code: 404, message: 'Not found.' }));
});
afterEach(() => srv.close());

/** The account is configured for the real service: no profile, no SCHED_BASE_URL. */
const accountEnv = () => ({
  SCHED_CONFIG_DIR: config.path,
  SCHED_BASE_URL: undefined,
  SCHED_API_KEY: ACCOUNT_KEY,
});

const keysSent = () => srv.requests.map((r) => r.headers['x-api-key']);

describe('a sandbox command aimed at a host nobody configured', () => {
  it('book <link URL>: the documented sandbox key, never SCHED_API_KEY', async () => {
    const r = await runSched(['sandbox', 'book', `${srv.url}/s/abc123`], { env: accountEnv() });
    expect(r.code).toBe(5);
    expect(srv.requests.length).toBeGreaterThan(0);
    expect(keysSent()).toEqual(srv.requests.map(() => DEFAULT_SANDBOX_API_KEY));
    expect(r.stdout + r.stderr).not.toContain(ACCOUNT_KEY);
  });

  it('book <link URL> --api-key: the sandbox key given', async () => {
    const r = await runSched(['sandbox', 'book', `${srv.url}/s/abc123`, '--api-key', 'sb-own'], {
      env: accountEnv(),
    });
    expect(r.code).toBe(5);
    expect(keysSent()).toEqual(srv.requests.map(() => 'sb-own'));
  });

  it('a link URL on another host than the profile: the profile key stays home', async () => {
    const home = await startFaultServer();
    try {
      const env = { ...accountEnv(), SCHED_API_KEY: undefined };
      const cfg = { profiles: { default: { baseUrl: home.baseUrl, apiKey: ACCOUNT_KEY } } };
      const { writeFile } = await import('node:fs/promises');
      await writeFile(`${config.path}/config.json`, JSON.stringify(cfg), { mode: 0o600 });
      const r = await runSched(['sandbox', 'book', `${srv.url}/s/abc123`], { env });
      expect(r.code).toBe(5);
      expect(keysSent()).toEqual(srv.requests.map(() => DEFAULT_SANDBOX_API_KEY));
      // The same link URL on the profile's own origin: the profile's key is for that origin.
      home.fallback(f.json(404, { code: 404, message: 'Not found.' }));
      const same = await runSched(['sandbox', 'book', `${home.url}/s/abc123`], { env });
      expect(same.code).toBe(5);
      expect(home.requests.map((q) => q.headers['x-api-key'])).toEqual(
        home.requests.map(() => ACCOUNT_KEY),
      );
    } finally {
      await import('node:fs/promises').then((m) => m.rm(`${config.path}/config.json`));
      await home.close();
    }
  });

  it('SCHED_BASE_URL names the sandbox: its key goes there (the configured origin)', async () => {
    for (const argv of [
      ['sandbox', 'cancel', MEETING],
      ['sandbox', 'reschedule', MEETING, '--at', '2026-12-01T14:00:00Z'],
      ['sandbox', 'book', 'abc123'],
    ]) {
      srv.clear();
      srv.fallback(f.json(404, { code: 404, message: 'Not found.' }));
      const r = await runSched(argv, { env: { ...accountEnv(), SCHED_BASE_URL: srv.baseUrl } });
      expect(r.code).toBe(5);
      expect(keysSent()).toEqual(srv.requests.map(() => ACCOUNT_KEY));
    }
  });

  it('--api-key is what a sandbox command sends, wherever it is aimed', async () => {
    for (const argv of [
      ['sandbox', 'cancel', MEETING, '--api-key', 'sb-own'],
      ['sandbox', 'reschedule', MEETING, '--at', '2026-12-01T14:00:00Z', '--api-key', 'sb-own'],
    ]) {
      srv.clear();
      srv.fallback(f.json(404, { code: 404, message: 'Not found.' }));
      const r = await runSched(argv, { env: { ...accountEnv(), SCHED_BASE_URL: srv.baseUrl } });
      expect(r.code).toBe(5);
      expect(keysSent()).toEqual(srv.requests.map(() => 'sb-own'));
    }
  });
});

describe('a write redirected to another host', () => {
  it('webhooks rm: a DELETE answered 307 to another host is not reported done (exit 1)', async () => {
    const other = await startFaultServer();
    try {
      other.fallback(f.status(204));
      const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e';
      srv.on('DELETE', `/api/webhooks/${uuid}`, f.redirect(`${other.url}/gone/${uuid}`, 307));
      const r = await runSched(['webhooks', 'rm', uuid], {
        env: { ...accountEnv(), SCHED_BASE_URL: srv.baseUrl },
      });
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).not.toMatch(/^deleted/im);
      expect(r.stderr).toMatch(/redirect/);
      expect(r.stderr).toContain(other.url);
      expect(other.count('DELETE')).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('a GET redirected to another host is still followed, without the key', async () => {
    const other = await startFaultServer();
    try {
      other.on('GET', '/elsewhere', f.json(200, { ok: true }));
      srv.on('GET', '/api/thing', f.redirect(`${other.url}/elsewhere`, 302));
      const r = await runSched(['api', '/thing'], {
        env: { ...accountEnv(), SCHED_BASE_URL: srv.baseUrl },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(other.requests[0]!.headers['x-api-key']).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});
