// The bundle as users run it (bin/sched.js + dist/): the library entry loads nothing of the CLI,
// and the bundled HTTP stack goes through an HTTP CONNECT proxy and trusts a private CA given
// by NODE_EXTRA_CA_CERTS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSched } from '../helpers/run.js';
import {
  envelope,
  f,
  startFaultServer,
  startProxy,
  type FaultServer,
  type TestProxy,
} from '../helpers/fault-server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tlsDir = path.join(root, 'test', 'fixtures', 'tls');
const HOST = 'api.sched-test.invalid';
const TYPES = '/api/users/me/meeting-types';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sched-bundle-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const env = (extra: Record<string, string | undefined> = {}) => ({
  SCHED_CONFIG_DIR: dir,
  SCHED_API_KEY: 'bundle-test-key-0123456789',
  NODE_EXTRA_CA_CERTS: undefined,
  HTTP_PROXY: undefined,
  HTTPS_PROXY: undefined,
  http_proxy: undefined,
  https_proxy: undefined,
  NO_PROXY: undefined,
  no_proxy: undefined,
  ...extra,
});

describe('dist/', () => {
  const files = fs
    .readdirSync(path.join(root, 'dist'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ name: f, text: fs.readFileSync(path.join(root, 'dist', f), 'utf8') }));

  const byName = new Map(files.map((f) => [f.name, f.text]));
  /** Every file `entry` loads when imported: its static imports, followed. */
  const staticClosure = (entry: string): Set<string> => {
    const seen = new Set<string>();
    const visit = (name: string) => {
      if (seen.has(name)) return;
      seen.add(name);
      const text = byName.get(name) ?? '';
      for (const m of text.matchAll(
        /^(?:import|export)\b[^;]*?from\s*"(\.[^"]+)"|^import\s*"(\.[^"]+)"/gm,
      )) {
        visit(path.posix.normalize(path.posix.join(path.posix.dirname(name), m[1] ?? m[2]!)));
      }
    };
    visit(entry);
    return seen;
  };

  it('the MCP SDK is loaded by `sched mcp` alone: no other entry or command chunk holds a byte of it', () => {
    // The SDK and what only it brings (zod). ajv is not listed: conf bundles the same copy.
    const SDK = ['node_modules/@modelcontextprotocol/', 'node_modules/zod/'];
    const holds = (name: string) => SDK.some((m) => (byName.get(name) ?? '').includes(`// ${m}`));
    const mcpChunk = files.find((f) => f.text.includes('// src/commands/mcp/serve.ts'));
    expect(mcpChunk, 'the chunk of sched mcp').toBeDefined();
    expect([...staticClosure(mcpChunk!.name)].some(holds), 'sched mcp loads the SDK').toBe(true);
    // Every other starting point: the entries, and each command's own chunk (a verb's run).
    const others = files
      .filter(
        (f) =>
          f.name === 'main.js' ||
          f.name === 'sandbox.js' ||
          (/^\/\/ src\/commands\/(?!mcp\/)/m.test(f.text) && f !== mcpChunk),
      )
      .map((f) => f.name);
    expect(others.length).toBeGreaterThan(10);
    for (const start of others) {
      const loaded = [...staticClosure(start)].filter(holds);
      expect(loaded, `${start} loads the MCP SDK`).toEqual([]);
    }
  });

  it('the table library (cli-table3, string-width) is in one chunk, loaded only to draw a terminal table', () => {
    const holding = files.filter((f) => f.text.includes('node_modules/cli-table3/'));
    expect(holding.map((f) => f.name)).toHaveLength(1);
    const chunk = holding[0]!;
    expect(chunk.text).toContain('// src/output/terminal-table.ts');
    // string-width may sit in a chunk it shares with the prompts, loaded with the table.
    const width = files.find((f) => f.text.includes('// node_modules/string-width/'))!;
    expect([...staticClosure(chunk.name)]).toContain(width.name);
    // Neither the CLI's entry nor the library's loads either up front ...
    for (const entry of ['main.js', 'sandbox.js']) {
      const loaded = staticClosure(entry);
      expect(loaded.size, entry).toBeGreaterThan(1);
      expect([...loaded], entry).not.toContain(chunk.name);
      expect([...loaded], entry).not.toContain(width.name);
    }
    // ... and the renderer imports it only dynamically, when a table is drawn on a terminal.
    const base = path.posix.basename(chunk.name);
    const importers = files.filter((f) => f.name !== chunk.name && f.text.includes(base));
    expect(importers.length).toBeGreaterThan(0);
    for (const f of importers) {
      expect(f.text, f.name).toMatch(
        new RegExp(`import\\("\\./(chunks/)?${base.replace('.', '\\.')}"\\)`),
      );
      expect(f.text, f.name).not.toMatch(new RegExp(`from\\s*"[^"]*${base.replace('.', '\\.')}"`));
    }
  });

  it('a file defines `require` (createRequire) only when it names it, so most chunks do not', () => {
    const BANNER =
      /^import \{ createRequire as (\w+) \} from 'node:module'; const require = \1\(import\.meta\.url\);/;
    const carrying = files.filter((f) => BANNER.test(f.text));
    // Every file that names `require` (the bundled CommonJS code's helper) still has its own.
    for (const f of files) {
      const rest = f.text.replace(BANNER, '');
      if (/(?<![\w$.])require(?![\w$])/.test(rest)) expect(carrying, f.name).toContain(f);
    }
    expect(carrying.length).toBeGreaterThan(0);
    // A copy per chunk cost ~5% of a one-GET run's CPU (BENCHMARKS.md): a few remain.
    expect(carrying.length, carrying.map((f) => f.name).join(' ')).toBeLessThan(files.length / 4);
    const mainLoads = [...staticClosure('main.js')];
    expect(mainLoads.filter((n) => BANNER.test(byName.get(n) ?? '')).length).toBeLessThan(4);
  });

  it('sandbox.js (sched/sandbox) loads nothing of the CLI', () => {
    const seen = staticClosure('sandbox.js');
    expect(seen.size).toBeGreaterThan(1);
    const loaded = [...seen].map((n) => byName.get(n) ?? '').join('\n');
    expect(loaded).toContain('// src/sandbox/library.ts');
    for (const marker of [
      'node_modules/commander/',
      'node_modules/chalk/',
      'node_modules/@inquirer/',
      'node_modules/cli-table3/',
      'node_modules/undici/',
      'node_modules/conf/',
      '// src/cli.ts',
      '// src/commands/',
      '// src/output/',
    ]) {
      expect(loaded, marker).not.toContain(marker);
    }
  });
});

describe('the built binary', () => {
  let plain: FaultServer;
  let secure: FaultServer;
  let proxy: TestProxy;
  let secureProxy: TestProxy;
  beforeAll(async () => {
    plain = await startFaultServer();
    secure = await startFaultServer({
      tls: {
        key: fs.readFileSync(path.join(tlsDir, 'proxied-server.key')),
        cert: fs.readFileSync(path.join(tlsDir, 'proxied-server.pem')),
      },
    });
    for (const s of [plain, secure]) s.on('GET', TYPES, f.json(200, envelope([], { path: TYPES })));
    proxy = await startProxy({ host: '127.0.0.1', port: plain.port });
    secureProxy = await startProxy({ host: '127.0.0.1', port: secure.port });
  });
  afterAll(async () => {
    await Promise.all([plain, secure, proxy, secureProxy].map((s) => s?.close()));
  });

  it('goes through HTTP_PROXY with CONNECT to a host only the proxy can reach', async () => {
    const before = plain.count();
    const r = await spawnSched(['auth', 'status', '--json', '--base-url', `http://${HOST}/api`], {
      env: env({ HTTP_PROXY: proxy.url }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: true, baseUrl: `http://${HOST}/api` });
    expect(proxy.connects).toEqual([`${HOST}:80`]);
    expect(plain.count() - before).toBe(1);
  });

  it('goes through HTTPS_PROXY to a TLS server whose CA comes from NODE_EXTRA_CA_CERTS', async () => {
    const r = await spawnSched(['auth', 'status', '--json', '--base-url', `https://${HOST}/api`], {
      env: env({
        HTTPS_PROXY: secureProxy.url,
        NODE_EXTRA_CA_CERTS: path.join(tlsDir, 'proxied-ca.pem'),
      }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: true });
    expect(secureProxy.connects).toEqual([`${HOST}:443`]);
    expect(secure.count()).toBe(1);
    const sent = secure.requests[0]!;
    expect(sent.headers['x-api-key']).toBe('bundle-test-key-0123456789');
  });

  it('one GET loads no built-in module it does not use (node:tty, fs streams)', async () => {
    // What Node loaded of its own, written as the process leaves (BENCHMARKS.md: each is ~2 ms
    // of every start): stdin's terminal check waits for a command that reads stdin, and the
    // config reads node:fs without an ES import, which reads every export fs has.
    const list = path.join(dir, 'loaded.txt');
    const probe = path.join(dir, 'loaded.cjs');
    fs.writeFileSync(
      probe,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));`,
    );
    const r = await spawnSched(['types', 'list', '--json', '--base-url', `${plain.url}/api`], {
      env: env({ NODE_OPTIONS: `--require ${probe}` }),
    });
    expect(r.code, r.stderr).toBe(0);
    const loaded = fs.readFileSync(list, 'utf8').split('\n');
    expect(loaded).toContain('NativeModule net');
    expect(loaded).not.toContain('NativeModule tty');
    expect(loaded).not.toContain('NativeModule internal/fs/streams');
  });

  it('without the CA: one clear TLS line, exit 1, nothing reaches the server', async () => {
    const before = secure.count();
    const r = await spawnSched(['auth', 'status', '--base-url', `https://${HOST}/api`], {
      env: env({ HTTPS_PROXY: secureProxy.url }),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/TLS/);
    expect(r.stderr).toContain('NODE_EXTRA_CA_CERTS');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(secure.count()).toBe(before);
  });
});
