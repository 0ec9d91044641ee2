// What a user reads when a webhook URL is refused (`webhooks add --url`, in-process): exit 2,
// the flag and the rule's exact words, the hint, and nothing sent. The same rule for every
// caller is tested in test/rules/webhook-url.test.ts; these are its words, written out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { runSched } from '../../helpers/run.js';

let api: FaultServer;
let dir: string;

beforeAll(async () => {
  api = await startFaultServer();
  dir = mkdtempSync(path.join(tmpdir(), 'sched-url-words-'));
});
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

async function add(url: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await runSched(['webhooks', 'add', '--url', url, '--no-secret'], {
    env: { SCHED_BASE_URL: api.baseUrl, SCHED_API_KEY: 'test-key', SCHED_CONFIG_DIR: dir },
  });
  expect(api.requests).toHaveLength(0);
  expect(r.stdout).toBe('');
  return r;
}

describe('a refused webhook URL', () => {
  it('with credentials: said without repeating them, and the URL without them suggested', async () => {
    const r = await add('http://user:pw-secret-4f2a@example.com/hook?x=1');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: --url must not contain a user name or password\n' +
        'hint: webhook URLs are shown to anyone who lists them; use e.g. "http://example.com/hook?x=1" and a signing secret\n',
    );
  });

  it('with credentials and white space around it (a no-break space too): the same words', async () => {
    const r = await add('\u00a0https://u:pw-secret-4f2a@example.com/ ');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: --url must not contain a user name or password\n' +
        'hint: webhook URLs are shown to anyone who lists them; use e.g. "https://example.com/" and a signing secret\n',
    );
  });

  it('not http(s): what was given, and an example', async () => {
    const r = await add('ftp://example.com/hook');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: --url must be an absolute http(s) URL without spaces; got "ftp://example.com/hook"\n' +
        'hint: e.g. https://example.com/hooks/sched\n',
    );
  });

  it('too long: the limit and the length given', async () => {
    const url = `https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`;
    const r = await add(url);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --url must be at most 2048 characters long; got 2049\n');
  });
});
