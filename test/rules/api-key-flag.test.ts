// `--api-key`, as Stripe's CLI takes it, is refused on every command that has no such option of
// its own, with why (history, `ps`) and where the key goes instead; nothing is sent. The
// sandbox's `--api-key` (the key the local emulator accepts) is an option of its own and works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runSched } from '../helpers/run.js';
import { useConfigDir } from '../helpers/config-dir.js';

let srv: FaultServer;
const config = useConfigDir('sched-api-key-flag-');
beforeAll(async () => {
  srv = await startFaultServer();
  srv.fallback(f.status(500));
});
afterAll(() => srv.close());

const env = () => ({ SCHED_BASE_URL: srv.baseUrl, SCHED_CONFIG_DIR: config.path });

describe('--api-key', () => {
  it.each([
    [['types', 'list', '--api-key', 'sk_live_123']],
    [['link', 'create', 'intro-call', '--api-key=sk_live_123']],
    [['--api-key', 'sk_live_123', 'webhooks', 'ls']],
    [['webhooks', 'add', '--url', 'https://example.com/h', '--api-key', 'sk_live_123']],
    [['auth', 'status', '--api-key', 'sk_live_123']],
    [['api', '/webhooks', '--api-key', 'sk_live_123']],
    [['events', 'sample', 'meetingScheduled', '--api-key', 'sk_live_123']],
  ])('%j: exit 2, why, and where the key goes instead; nothing sent', async (argv) => {
    const before = srv.requests.length;
    const r = await runSched(argv, { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: --api-key is not an option: the API key is never given on the command line ' +
        '(shell history and `ps` would keep it)\n' +
        'hint: set SCHED_API_KEY, or run `sched auth login` to store it in a profile\n',
    );
    expect(r.stderr).not.toContain('sk_live_123');
    expect(r.stdout).toBe('');
    expect(srv.requests.length).toBe(before);
  });

  it("the sandbox's own --api-key still reaches the sandbox command", async () => {
    const r = await runSched(['sandbox', '--api-key', '', '--port', '0'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --api-key must not be empty\n');
  });

  it.each([
    ['book', 'abc'],
    ['cancel', 'abc'],
    ['reschedule', 'abc', '--at', '2026-12-03T11:00:00Z'],
  ])('sandbox %s takes its own --api-key (the key of the sandbox it talks to)', async (...argv) => {
    const r = await runSched(['sandbox', ...argv, '--api-key', 'sandbox_test_key'], {
      env: env(),
    });
    expect(r.stderr).not.toContain('--api-key is not an option');
    expect(r.stderr).not.toContain('sandbox_test_key');
  });

  it('after --, it is an argument, not an option', async () => {
    const r = await runSched(['link', 'create', '--', '--api-key'], { env: env() });
    expect(r.stderr).not.toContain('--api-key is not an option');
  });
});
