// Over real HTTP: the fields callers test (code, status, outcomeUnknown, request) arrive on the
// errors request() throws, so nobody has to read a message to tell the cases apart.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/client.js';
import { Interrupted } from '../../src/errors.js';
import { f, refusedUrl, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { failure } from '../helpers/failure.js';

let srv: FaultServer;
const clients: ApiClient[] = [];

function client(baseUrl = srv.baseUrl, timeoutMs = 5_000): ApiClient {
  const c = createApiClient({
    baseUrl,
    apiKey: 'sk_test_fields_key',
    timeoutMs,
    userAgent: 'sched/test',
    retry: { baseDelayMs: 1 },
  });
  clients.push(c);
  return c;
}

beforeEach(async () => {
  srv = await startFaultServer();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await srv.close();
});

describe('error fields from request()', () => {
  it('a POST that times out after it was sent: outcome unknown, code timeout, the request', async () => {
    srv.on('POST', '/api/single-use-link', f.hang());
    const e = await failure(
      client(srv.baseUrl, 300).request({ method: 'POST', path: '/single-use-link', body: {} }),
    );
    expect(e).toMatchObject({
      code: 'timeout',
      outcomeUnknown: true,
      status: undefined,
      exitCode: 1,
      request: { method: 'POST', url: `${srv.baseUrl}/single-use-link` },
    });
    expect(srv.count()).toBe(1);
  });

  it('Ctrl-C while a POST waits for its answer: Interrupted with outcomeUnknown', async () => {
    srv.on('POST', '/api/webhooks', f.hang());
    const ctl = new AbortController();
    const p = client().request({ method: 'POST', path: '/webhooks', body: {}, signal: ctl.signal });
    setTimeout(() => ctl.abort('SIGINT'), 50);
    const e = await failure(p);
    expect(e).toBeInstanceOf(Interrupted);
    expect(e).toMatchObject({ code: 'interrupted', outcomeUnknown: true, exitCode: 130 });
  });

  it('Ctrl-C during a GET: Interrupted, nothing unknown', async () => {
    srv.on('GET', '/api/webhooks', f.hang());
    const ctl = new AbortController();
    const p = client().request({ method: 'GET', path: '/webhooks', signal: ctl.signal });
    setTimeout(() => ctl.abort('SIGINT'), 50);
    expect(await failure(p)).toMatchObject({ code: 'interrupted', outcomeUnknown: false });
  });

  it('a refused POST was never sent: code network, outcome known', async () => {
    const base = await refusedUrl();
    const e = await failure(client(base).request({ method: 'POST', path: '/webhooks', body: {} }));
    expect(e).toMatchObject({ code: 'network', outcomeUnknown: false, status: undefined });
  });

  it.each([
    [422, 'invalid_request', 2],
    [400, 'invalid_request', 2],
    [401, 'auth', 4],
    [404, 'not_found', 5],
    [409, 'http_4xx', 1],
    [429, 'rate_limited', 1],
    [500, 'http_5xx', 1],
  ])('POST answered %i: code %s, the status, exit %i', async (status, code, exitCode) => {
    srv.on('POST', '/api/webhooks', f.json(status, { message: 'no' }));
    const e = await failure(client().request({ method: 'POST', path: '/webhooks', body: {} }));
    expect(e).toMatchObject({ code, status, exitCode, outcomeUnknown: false });
  });
});
