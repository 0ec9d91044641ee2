// The context closes API clients only after all deferred cleanup ran: cleanup registered before
// the client existed (listen --register deletes its webhook on exit) must still reach the API.
import { afterEach, beforeEach, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createContext } from '../../src/context.js';
import { createBufferIO } from '../helpers/buffer-io.js';
import { f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';

let srv: FaultServer;
let dir: string;
beforeEach(async () => {
  srv = await startFaultServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sched-ctx-'));
});
afterEach(async () => {
  await srv.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('deferred cleanup registered before the client was made can still use it', async () => {
  srv.on('POST', '/api/webhooks', f.json(201, { uuid: 'w1' }));
  srv.on('DELETE', '/api/webhooks/w1', f.status(204));
  const ctx = createContext({
    io: createBufferIO(),
    globals: {
      profile: 'default',
      baseUrl: srv.baseUrl,
      output: 'table',
      color: false,
      input: false,
      timeoutMs: 5000,
      verbose: false,
      quiet: false,
    },
    env: { SCHED_CONFIG_DIR: dir, SCHED_API_KEY: 'key-0123456789abcdef' },
    signal: new AbortController().signal,
    version: 'test',
  });
  let outcome = 'not run';
  ctx.defer(async () => {
    const client = await ctx.api();
    const r = await client.request({ method: 'DELETE', path: '/webhooks/w1' });
    outcome = `deleted ${r.status}`;
  });
  const client = await ctx.api();
  await client.request({ method: 'POST', path: '/webhooks', body: {} });
  await ctx.runDeferred();
  expect(outcome).toBe('deleted 204');
  expect(srv.count('DELETE')).toBe(1);
  // And the client is closed afterwards.
  await expect(client.request({ method: 'GET', path: '/webhooks' })).rejects.toThrow(
    'the command is ending',
  );
});
