// The sandbox's router on its own: what any handler's failure turns into, and which routes need
// the key. A handler that
// throws something other than an HttpError is a bug; the client gets a plain 500 and the
// log says what happened, and the server keeps serving.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SandboxCore } from '../../src/sandbox/core.js';
import type { SandboxLogEvent } from '../../src/sandbox/log.js';
import { createRequestHandler } from '../../src/sandbox/router.js';

const events: SandboxLogEvent[] = [];
let server: http.Server;
let base: string;

beforeAll(async () => {
  const handler = createRequestHandler(
    {} as SandboxCore,
    [
      {
        method: 'GET',
        path: '/boom',
        handle: () => {
          throw new TypeError('state is not iterable');
        },
      },
      { method: 'GET', path: '/ok', handle: () => ({ status: 204 }) },
      { method: 'GET', path: '/api/x', handle: () => ({ status: 204 }) },
      { method: 'GET', path: '/apix', handle: () => ({ status: 204 }) },
    ],
    { apiKey: 'k', maxBodyBytes: 1024, hostNames: new Set(), log: (e) => events.push(e) },
  );
  server = http.createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('a handler that throws a non-HttpError: 500 JSON, logged, and the server serves on', async () => {
  const r = await fetch(`${base}/boom`);
  expect(r.status).toBe(500);
  expect(await r.json()).toEqual({ code: 500, message: 'Internal server error.' });
  expect(events).toContainEqual({
    type: 'state-error',
    message: 'internal error: state is not iterable',
  });
  expect(events).toContainEqual(
    expect.objectContaining({ type: 'request', method: 'GET', path: '/boom', status: 500 }),
  );
  expect((await fetch(`${base}/ok`)).status).toBe(204);
});

// The path decides which routes need the key: everything under /api, nothing else, with no
// flag on the route that could be forgotten.
it.each([
  ['/api/x', {}, 401],
  ['/api/x', { 'x-api-key': 'wrong' }, 401],
  ['/api/x', { 'x-api-key': 'k' }, 204],
  ['/apix', {}, 204],
  ['/ok', {}, 204],
])('GET %s with %j: %i', async (path, headers, status) => {
  expect((await fetch(`${base}${path}`, { headers })).status).toBe(status);
});
