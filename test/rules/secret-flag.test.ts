// One rule for a webhook secret given on the command line or typed at a prompt
// (src/domain/webhooks/input.ts: secretFlag, nonEmptySecret), one table over every command that takes
// --secret: an empty one is refused with exit 2 and the same words, before anything is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nonEmptySecret } from '../../src/domain/webhooks/input.js';
import { f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runSched } from '../helpers/run.js';
import { useConfigDir } from '../helpers/config-dir.js';

let srv: FaultServer;
const config = useConfigDir('sched-secret-rule-');
beforeAll(async () => {
  srv = await startFaultServer();
  srv.fallback(f.status(500));
});
afterAll(() => srv.close());

const PAYLOAD = '{"event":"meetingScheduled"}';

describe.each([
  ['webhooks add', () => ['webhooks', 'add', '--url', `${srv.url}/hook`, '--secret', '']],
  ['sig sign', () => ['sig', 'sign', '--secret', '']],
  ['sig verify', () => ['sig', 'verify', '--secret', '', '--signature', 'x']],
  [
    'events send',
    () => ['events', 'send', 'meetingScheduled', '--to', `${srv.url}/hook`, '--secret', ''],
  ],
  ['webhooks listen', () => ['webhooks', 'listen', '--port', '0', '--secret', '']],
])('%s', (_name, argv) => {
  it('an empty --secret: exit 2, "--secret is empty", nothing sent', async () => {
    const before = srv.requests.length;
    const r = await runSched(argv(), {
      env: { SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: 'k', SCHED_CONFIG_DIR: config.path },
      stdin: PAYLOAD,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --secret is empty\n');
    expect(r.stdout).toBe('');
    expect(srv.requests.length).toBe(before);
  });
});

describe('nonEmptySecret (every secret prompt)', () => {
  it.each([
    ['', 'the secret cannot be empty'],
    [' ', true],
    ['whsec_x', true],
  ])('%j -> %s', (typed, verdict) => {
    expect(nonEmptySecret(typed)).toBe(verdict);
  });
});
