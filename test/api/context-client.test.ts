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

const globals = () =>
  ({
    profile: 'default',
    baseUrl: srv.baseUrl,
    output: 'table',
    color: false,
    input: false,
    timeoutMs: 5000,
    verbose: false,
    quiet: false,
  }) as const;

it('deferred cleanup registered before the client was made can still use it', async () => {
  srv.on('POST', '/api/webhooks', f.json(201, { uuid: 'w1' }));
  srv.on('DELETE', '/api/webhooks/w1', f.status(204));
  const ctx = createContext({
    io: createBufferIO(),
    globals: globals(),
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

it('each secret reaches the output gate once: the key when resolved, proxy passwords at once', async () => {
  srv.on('GET', '/api/webhooks', f.json(200, { echoed: 'key-0123456789abcdef' }));
  const io = createBufferIO();
  const told: string[][] = [];
  const addSecrets = io.addSecrets.bind(io);
  io.addSecrets = (list) => {
    told.push(list.filter((s): s is string => s !== undefined));
    addSecrets(list);
  };
  const ctx = createContext({
    io,
    globals: globals(),
    env: {
      SCHED_CONFIG_DIR: dir,
      // Pasted with a line end: the gate masks the key as it is sent.
      SCHED_API_KEY: 'key-0123456789abcdef\n',
      HTTPS_PROXY: 'http://user:proxy-pass-5678@proxy.example:3128',
      NO_PROXY: '127.0.0.1',
    },
    signal: new AbortController().signal,
    version: 'test',
  });
  const client = await ctx.api();
  await client.request({ method: 'GET', path: '/webhooks' });
  await ctx.api();
  await ctx.runDeferred();
  const calls = (secret: string) => told.filter((list) => list.some((s) => s.includes(secret)));
  expect(calls('key-0123456789abcdef')).toEqual([['key-0123456789abcdef']]);
  expect(calls('proxy-pass-5678')).toHaveLength(1);
  io.err('echo: key-0123456789abcdef proxy-pass-5678');
  expect(io.stderrText()).toBe('echo: **** ****\n');
});
