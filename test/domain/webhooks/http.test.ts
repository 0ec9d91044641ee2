// postRaw: one POST of raw bytes, as a webhook sender makes it. What it sent, what it kept of
// the answer. How it words every way of getting no answer: test/api/receiver-words.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRaw } from '../../../src/domain/webhooks/http.js';
import { f, startFaultServer, type FaultServer } from '../../helpers/fault-server.js';

const tlsDir = fileURLToPath(new URL('../../fixtures/tls', import.meta.url));
let srv: FaultServer;
let tls: FaultServer;
beforeAll(async () => {
  srv = await startFaultServer();
  tls = await startFaultServer({
    tls: {
      key: fs.readFileSync(path.join(tlsDir, 'server.key')),
      cert: fs.readFileSync(path.join(tlsDir, 'server.pem')),
    },
  });
});
afterAll(async () => {
  await srv.close();
  await tls.close();
});

const post = (url: string, extra: Partial<Parameters<typeof postRaw>[0]> = {}) =>
  postRaw({
    url: new URL(url),
    body: Buffer.from('{"a":1}'),
    headers: { 'content-type': 'application/json' },
    timeoutMs: 5_000,
    ...extra,
  });

describe('postRaw', () => {
  it('sends the bytes with exactly the headers given (an undefined one left out)', async () => {
    srv.on('POST', '/hook', f.text(202, 'accepted'));
    const r = await post(`${srv.url}/hook`, {
      headers: { 'content-type': 'application/json', 'x-left-out': undefined, 'x-two': ['a', 'b'] },
    });
    expect(r).toMatchObject({ ok: true, status: 202, statusText: 'Accepted' });
    const got = srv.requests.at(-1)!;
    expect(got.body).toBe('{"a":1}');
    expect(got.headers['content-length']).toBe('7');
    expect(got.headers['x-two']).toBe('a, b');
    expect(got.headers).not.toHaveProperty('x-left-out');
  });

  it('keeps only the first keepResponseBytes of the answer', async () => {
    srv.on('POST', '/long', f.text(200, 'x'.repeat(100_000)));
    const r = await post(`${srv.url}/long`, { keepResponseBytes: 10 });
    expect(r.ok && r.body.toString()).toBe('x'.repeat(10));
  });

  it('over https: a certificate it cannot trust is a network failure naming its code', async () => {
    tls.on('POST', '/hook', f.status(204));
    const r = await post(`${tls.url}/hook`);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.kind).toBe('network');
    expect(!r.ok && r.message).toMatch(
      /\((SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|DEPTH_ZERO_SELF_SIGNED_CERT)\)$/,
    );
    expect(tls.count('POST', '/hook')).toBe(0);
  });

  it('a signal already aborted: no request, "interrupted"', async () => {
    const before = srv.requests.length;
    const r = await post(`${srv.url}/hook`, { signal: AbortSignal.abort() });
    expect(r).toMatchObject({ ok: false, kind: 'aborted', message: 'interrupted' });
    // Give a request that slipped out the time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(srv.requests.length).toBe(before);
  });

  it('a host name that does not resolve', async () => {
    const r = await post('http://no-such-host.invalid/hook');
    expect(r).toMatchObject({ ok: false, kind: 'network' });
    // EAI_AGAIN where the machine has no resolver at all.
    expect(!r.ok && r.message).toMatch(
      /^the host name does not resolve \((ENOTFOUND|EAI_AGAIN)\)$/,
    );
  });
});
