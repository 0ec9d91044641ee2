// `sched sandbox book|cancel|…` with nothing configured and a bare code go to the default
// sandbox address (DEFAULT_SANDBOX_BASE_URL, http://127.0.0.1:4010/api) with the documented
// key, never the account's. The test does not bind 4010 (someone's own sandbox may run there,
// and a test only talks to ports it opened): it points the default at a server of its own on
// a free port, and test/rules/sandbox-port.test.ts holds the default's value.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runSched } from '../helpers/run.js';
import type * as Defaults from '../../src/defaults.js';

const fakeDefault = vi.hoisted(() => ({ url: '' }));
vi.mock('../../src/defaults.js', async (importOriginal) => {
  const actual = await importOriginal<typeof Defaults>();
  return {
    ...actual,
    get DEFAULT_SANDBOX_BASE_URL() {
      return fakeDefault.url;
    },
  };
});

const MEETING = '4b1d2f0e-2f44-4c1a-9a51-0f3f6a7c8d90';
const keys: Array<string | undefined> = [];
const paths: string[] = [];
const fake = http.createServer((req, res) => {
  keys.push(req.headers['x-api-key'] as string | undefined);
  paths.push(req.url!);
  res
    .writeHead(404, { 'content-type': 'application/json' })
    .end('{"code":404,"message":"Not found."}');
});
let config: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  fakeDefault.url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/api`;
  config = await mkdtemp(join(tmpdir(), 'sched-sb-default-'));
});
afterAll(async () => {
  await new Promise((resolve) => fake.close(resolve));
  await rm(config, { recursive: true, force: true });
});

describe('nothing configured and a bare code: the default sandbox address', () => {
  it('gets the documented key (or --api-key), never the account key', async () => {
    const env = { SCHED_CONFIG_DIR: config, SCHED_BASE_URL: undefined, SCHED_API_KEY: undefined };
    const r = await runSched(['sandbox', 'cancel', MEETING], { env });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(fakeDefault.url);
    // The account's key is for the real service, not for whatever listens on this port.
    const account = await runSched(['sandbox', 'cancel', MEETING], {
      env: { ...env, SCHED_API_KEY: 'sk_account' },
    });
    expect(account.code).toBe(5);
    const own = await runSched(['sandbox', 'cancel', MEETING, '--api-key', 'sk_own'], {
      env: { ...env, SCHED_API_KEY: 'sk_account' },
    });
    expect(own.code).toBe(5);
    expect(keys).toEqual(['sandbox_test_key', 'sandbox_test_key', 'sk_own']);
    expect(paths).toEqual([
      `/api/_sandbox/meetings/${MEETING}/cancel`,
      `/api/_sandbox/meetings/${MEETING}/cancel`,
      `/api/_sandbox/meetings/${MEETING}/cancel`,
    ]);
  });
});
