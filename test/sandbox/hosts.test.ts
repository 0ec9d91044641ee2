// DNS rebinding: the sandbox answers only requests whose Host is one of its own names. A page
// on evil.example that rebinds its name to 127.0.0.1 sends `Host: evil.example`, and gets a
// 403 before anything (the key check, the console, a booking page) is reached.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostAllowed, hostOf, ownHostNames } from '../../src/sandbox/hosts.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

/** A GET with the Host header we choose (fetch does not let a caller set it). */
function getWithHost(
  sb: TestSandbox,
  path: string,
  host: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: sb.port,
        path,
        headers: { host, 'x-api-key': sb.apiKey },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ publicUrl: 'https://tunnel.example.com' });
});
afterAll(() => sb.close());

describe('the Host header', () => {
  it.each([
    ['evil.example', 'evil.example'],
    ['evil.example:4010', 'evil.example'],
    ['127.0.0.1.evil.example', '127.0.0.1.evil.example'],
    ['localhost.evil.example', 'localhost.evil.example'],
  ])('Host: %s is refused with 403, naming it and the names that work', async (host, named) => {
    for (const path of ['/api/webhooks', '/', '/s/abc123']) {
      const r = await getWithHost(sb, path, host.replace('4010', String(sb.port)));
      expect(r.status).toBe(403);
      const body = JSON.parse(r.body) as { message: string };
      expect(body.message).toContain(`Host "${named}`);
      expect(body.message).toContain('DNS rebinding');
      expect(body.message).toContain('localhost');
    }
    // Nothing was served: not even recorded as a request that reached a route.
    expect(sb.requests.filter((q) => q.headers.host?.includes('evil'))).toEqual([]);
  });

  it.each([
    ['127.0.0.1:PORT'],
    ['localhost:PORT'],
    ['LOCALHOST.'],
    ['tunnel.example.com'],
    ['10.1.2.3:PORT'],
    ['[::1]:PORT'],
  ])('Host: %s is answered', async (host) => {
    const r = await getWithHost(sb, '/api/webhooks', host.replace('PORT', String(sb.port)));
    expect(r.status).toBe(200);
  });

  it('hostOf takes the name out of every form of Host', () => {
    expect(hostOf('Example.COM:80')).toBe('example.com');
    expect(hostOf('[::1]:4010')).toBe('::1');
    expect(hostOf('[::1')).toBe('[::1');
    expect(hostOf('host.example.')).toBe('host.example');
  });

  it('a wildcard listener also answers to the machine name; no Host header passes', async () => {
    const { hostname } = await import('node:os');
    expect(ownHostNames('0.0.0.0', 'http://127.0.0.1:1').has(hostname().toLowerCase())).toBe(true);
    expect(ownHostNames('127.0.0.1', 'http://127.0.0.1:1').has(hostname().toLowerCase())).toBe(
      hostname().toLowerCase() === 'localhost',
    );
    expect(hostAllowed(undefined, new Set())).toBe(true);
  });
});
