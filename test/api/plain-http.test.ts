// An https:// base URL for a server that speaks plain HTTP (the sandbox, a local proxy): OpenSSL
// says only "wrong version number"; the user is told the server speaks plain HTTP and to use
// http://, once (not retried: it will not change).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { runSched } from '../helpers/run.js';
import { useConfigDir } from '../helpers/config-dir.js';

/** A plain HTTP server as most are: a TLS hello is bad HTTP, answered 400. */
let srv: net.Server;
let port = 0;
let connections = 0;
const config = useConfigDir('sched-plain-http-');
beforeAll(async () => {
  srv = net.createServer((socket) => {
    connections++;
    socket.once('data', () =>
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'),
    );
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  port = (srv.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => srv.close(() => r())));

describe('https:// against a plain-HTTP server', () => {
  it('says the server speaks plain HTTP and to use http://; exit 1, not retried', async () => {
    const r = await runSched(['types', 'list', '--base-url', `https://127.0.0.1:${port}/api`], {
      env: { SCHED_API_KEY: 'k', SCHED_CONFIG_DIR: config.path },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: 127\\.0\\.0\\.1:${port} speaks plain HTTP, not HTTPS: the TLS handshake got an HTTP answer \\(ERR_SSL_[A-Z_]+\\)\\n` +
          `hint: use http://127\\.0\\.0\\.1:${port}/… rather than https://127\\.0\\.0\\.1:${port}/… \\(in --base-url, SCHED_BASE_URL or the profile\\)\\n$`,
      ),
    );
    expect(connections).toBe(1);
  });
});
