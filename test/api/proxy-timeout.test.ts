// Issue 20 (smaller): --timeout bounds a proxy CONNECT too. A proxy that accepts the connection
// and never answers CONNECT held every attempt for undici's default 300 s (and Ctrl-C's cleanup
// with it); each attempt now ends after --timeout, and the retries after it.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useConfigDir } from '../helpers/config-dir.js';
import { runSched } from '../helpers/run.js';
import { useFastRetries } from '../reliability/fast-retry.js';

useFastRetries();
const config = useConfigDir('sched-proxy-timeout-');
let proxy: Server;
const held: Socket[] = [];
let connects = 0;
beforeAll(async () => {
  // Reads the CONNECT and never answers it.
  proxy = createServer((s) => {
    connects++;
    held.push(s);
    s.on('error', () => {});
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  held.forEach((s) => s.destroy());
  await new Promise<void>((r) => proxy.close(() => r()));
});

it('a CONNECT the proxy never answers: each attempt ends at --timeout, exit 1', async () => {
  const port = (proxy.address() as { port: number }).port;
  const started = Date.now();
  const r = await runSched(['--timeout', '0.5', 'types', 'list'], {
    env: {
      HTTPS_PROXY: `http://127.0.0.1:${port}`,
      SCHED_BASE_URL: 'https://api.example.com/api',
      SCHED_API_KEY: 'k',
      SCHED_CONFIG_DIR: config.path,
    },
  });
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toMatch(/^error: .*(no answer|timed out|timeout)/im);
  expect(connects).toBeGreaterThan(0);
  // Not a speed target: without the bound one attempt alone takes 300 s.
  expect(Date.now() - started).toBeLessThan(60_000);
}, 90_000);
