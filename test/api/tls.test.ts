// NODE_EXTRA_CA_CERTS: undici (like node:https) uses Node's default TLS context, which loads
// the extra CA file at process start. The client passes no `ca` of its own (that would replace
// the default store), so a private CA works by setting the variable. Proven on the built binary
// because the variable is read only when a process starts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSched } from '../helpers/run.js';
import { envelope, f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';

const tlsDir = fileURLToPath(new URL('../fixtures/tls/', import.meta.url));
let srv: FaultServer;
let dir: string;

beforeAll(async () => {
  srv = await startFaultServer({
    tls: {
      key: fs.readFileSync(path.join(tlsDir, 'server.key')),
      cert: fs.readFileSync(path.join(tlsDir, 'server.pem')),
    },
  });
  srv.on(
    'GET',
    '/api/users/me/meeting-types',
    f.json(200, envelope([], { path: '/api/users/me/meeting-types' })),
  );
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sched-tls-'));
});
afterAll(async () => {
  await srv.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a private CA', () => {
  const env = (extra: Record<string, string | undefined>) => ({
    SCHED_CONFIG_DIR: dir,
    SCHED_API_KEY: 'tls-test-key-0123456789',
    NODE_EXTRA_CA_CERTS: undefined,
    ...extra,
  });

  it('without NODE_EXTRA_CA_CERTS: one clear TLS line, exit 1, nothing reaches the server', async () => {
    const r = await spawnSched(['auth', 'status', '--base-url', srv.baseUrl], { env: env({}) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/TLS error talking to 127\.0\.0\.1:\d+/);
    expect(r.stderr).toContain('NODE_EXTRA_CA_CERTS');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(srv.count()).toBe(0);
  });

  it('with NODE_EXTRA_CA_CERTS pointing at the CA: the key is checked over TLS', async () => {
    const r = await spawnSched(['auth', 'status', '--json', '--base-url', srv.baseUrl], {
      env: env({ NODE_EXTRA_CA_CERTS: path.join(tlsDir, 'ca.pem') }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: true, keySource: 'env' });
    expect(srv.count()).toBe(1);
  });
});
