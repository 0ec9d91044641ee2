// The bundle as users run it. scripts/build.mjs swaps parts of undici, conf and commander for
// slimmer ones (see its RULES); the in-process tests run src/ against the full packages, so
// what the swaps could break is proven here, on the built binary (bin/sched.js + dist/):
// nothing swapped out is in the bundle or loaded on start, and the slim HTTP stack still goes
// through an HTTP CONNECT proxy and trusts a private CA given by NODE_EXTRA_CA_CERTS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { BIN, spawnSched } from '../helpers/run.js';
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

  it.each([
    ['ajv', 'node_modules/ajv/'],
    ['ajv-formats', 'node_modules/ajv-formats/'],
    ['semver', 'node_modules/semver/'],
    ["undici's index (fetch, WebSocket, mocks)", 'node_modules/undici/index.js'],
  ])('holds no %s', (_, marker) => {
    // esbuild heads each bundled file with its path; the build keeps those comments.
    expect(files.some((f) => f.text.includes('node_modules/undici/lib/'))).toBe(true);
    expect(files.filter((f) => f.text.includes(marker)).map((f) => f.name)).toEqual([]);
  });

  it('sandbox.js (sched/sandbox) loads nothing of the CLI', () => {
    // Every file it loads when imported: its static imports, followed.
    const byName = new Map(files.map((f) => [f.name, f.text]));
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
    visit('sandbox.js');
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

  it('requires node:http2 only inside the function that connects over HTTP/2', () => {
    const uses = files.flatMap((f) => f.text.match(/.{0,40}["']node:http2["'].{0,20}/g) ?? []);
    expect(uses.length).toBeGreaterThan(0);
    for (const use of uses) expect(use).toMatch(/require\(["']node:http2["']\)\.connect\(/);
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

  /** Node's list of the builtins a run of the binary loaded. */
  async function loadedBy(args: string[]): Promise<string[]> {
    const out = path.join(dir, 'loaded.json');
    const preload = path.join(dir, 'preload.cjs');
    fs.writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList)));`,
    );
    const r = await execa(process.execPath, ['--require', preload, BIN, ...args], {
      env: env(),
      reject: false,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const loaded = JSON.parse(fs.readFileSync(out, 'utf8')) as string[];
    expect(loaded).toContain('NativeModule fs'); // the list is what it claims to be
    return loaded;
  }
  const SWAPPED_OUT = ['http2', 'tls', 'child_process'].map((m) => `NativeModule ${m}`);

  it('loads no node:http2, node:tls or node:child_process on start', async () => {
    const loaded = await loadedBy(['types', 'list', '--help']);
    for (const m of SWAPPED_OUT) expect(loaded).not.toContain(m);
  });

  it('loads none of them for a plain HTTP request either (but Node 22+ itself)', async () => {
    const loaded = await loadedBy(['auth', 'status', '--json', '--base-url', plain.baseUrl]);
    expect(loaded).toContain('NativeModule http');
    // Node 22 and 24 load their internal copy of undici during a request (and with it tls and
    // http2), whatever the bundle does; the bundle's own loads are seen on Node 20.
    if (loaded.includes('NativeModule internal/deps/undici/undici')) {
      expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
    } else {
      for (const m of SWAPPED_OUT) expect(loaded).not.toContain(m);
    }
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
