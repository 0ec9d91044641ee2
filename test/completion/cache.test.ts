// The completion cache (src/completion/cache.ts): a TAB pressed again within the TTL answers
// from a private file, without a request; the file is per profile and base URL, expires, and
// never holds the API key; SCHED_COMPLETION_TTL=0 turns it off.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { runSched } from '../helpers/run.js';

const KEY = 'sk_test_completion_cache_key_1234';

/** A server that lists meeting types named after it, and counts what reaches it. */
async function typesServer(label: string): Promise<{ url: string; hits: string[]; close(): void }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url} ${String(req.headers['x-api-key'])}`);
    const items = [
      {
        uuid: `00000000-0000-4000-8000-00000000000${hits.length}`,
        name: `${label} call`,
        slug: `${label}-call`,
        duration: 15,
      },
    ];
    const body = JSON.stringify({ page: 1, limit: 50, pages: 1, total: 1, _embedded: { items } });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/api`, hits, close: () => server.close() };
}

let dir: string;
let a: Awaited<ReturnType<typeof typesServer>>;
let b: Awaited<ReturnType<typeof typesServer>>;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sched-complete-cache-'));
  [a, b] = await Promise.all([typesServer('alpha'), typesServer('beta')]);
});
afterAll(() => {
  a?.close();
  b?.close();
  rmSync(dir, { recursive: true, force: true });
});

let home: string;
let n = 0;
afterEach(() => {
  a.hits.length = 0;
  b.hits.length = 0;
});

/** A fresh home (so a fresh cache) with two profiles on server a and one on server b. */
function freshHome(): Record<string, string> {
  home = join(dir, `home-${++n}`);
  const config = join(home, 'config');
  mkdirSync(config, { recursive: true, mode: 0o700 });
  writeFileSync(
    join(config, 'config.json'),
    JSON.stringify({
      profiles: {
        default: { baseUrl: a.url, apiKey: KEY },
        other: { baseUrl: a.url, apiKey: KEY },
        far: { baseUrl: b.url, apiKey: KEY },
      },
    }),
    { mode: 0o600 },
  );
  return { HOME: home, XDG_CACHE_HOME: join(home, 'cache'), SCHED_CONFIG_DIR: config };
}

const complete = (env: Record<string, string>, ...globals: string[]) =>
  runSched([...globals, '--timeout', '2', '__complete', 'meeting-types'], { env });

const cacheDir = () => join(home, 'cache', 'sched', 'completion');
const cacheFiles = () => readdirSync(cacheDir()).map((f) => join(cacheDir(), f));

describe('sched __complete meeting-types with the completion cache', () => {
  it('answers a second TAB from the cache, without a request reaching the server', async () => {
    const env = freshHome();
    const first = await complete(env);
    expect(first).toEqual({ code: 0, stdout: 'alpha-call\talpha call (15 min)\n', stderr: '' });
    expect(a.hits).toHaveLength(1);
    const second = await complete(env);
    expect(second).toEqual(first);
    expect(a.hits).toHaveLength(1);
  });

  it('keeps the file private (0600 in a 0700 directory) and never writes the key', async () => {
    const env = freshHome();
    await complete(env);
    expect(statSync(cacheDir()).mode & 0o777).toBe(0o700);
    const files = cacheFiles();
    expect(files).toHaveLength(1);
    expect(statSync(files[0]!).mode & 0o777).toBe(0o600);
    const text = readFileSync(files[0]!, 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(KEY.slice(-8));
    expect(JSON.parse(text)).toMatchObject({
      profile: 'default',
      baseUrl: a.url,
      kind: 'meeting-types',
    });
  });

  it('asks the server again once the list has expired, and says when it expires', async () => {
    const env = freshHome();
    const before = Date.now();
    await complete(env);
    const [file] = cacheFiles();
    const kept = JSON.parse(readFileSync(file!, 'utf8')) as { expires: string };
    // The default TTL: a minute from the write.
    const expires = Date.parse(kept.expires);
    expect(expires).toBeGreaterThanOrEqual(before + 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 60_000);
    writeFileSync(
      file!,
      JSON.stringify({ ...kept, expires: new Date(Date.now() - 1000).toISOString() }),
    );
    await complete(env);
    expect(a.hits).toHaveLength(2);
    // Written again with a new expiry: the next TAB is a hit.
    await complete(env);
    expect(a.hits).toHaveLength(2);
  });

  it('keeps one list per profile and per base URL', async () => {
    const env = freshHome();
    await complete(env); // default, server a
    await complete(env, '--profile', 'other'); // same server, another profile
    expect(a.hits).toHaveLength(2);
    const far = await complete(env, '--profile', 'far'); // server b
    expect(far.stdout).toBe('beta-call\tbeta call (15 min)\n');
    expect(b.hits).toHaveLength(1);
    // The same profile pointed at another base URL is another list too.
    const moved = await complete(env, '--base-url', b.url);
    expect(moved.stdout).toBe('beta-call\tbeta call (15 min)\n');
    expect(b.hits).toHaveLength(2);
    expect(cacheFiles()).toHaveLength(4);
    // Each is a hit from now on.
    for (const g of [[], ['--profile', 'other'], ['--profile', 'far'], ['--base-url', b.url]]) {
      await complete(env, ...g);
    }
    expect([a.hits.length, b.hits.length]).toEqual([2, 2]);
  });

  it('reuses a list only with the key that read it', async () => {
    const env = freshHome();
    await complete(env);
    // Another key for the same profile and base URL (one the server might refuse) asks again.
    const other = await complete({ ...env, SCHED_API_KEY: 'sk_test_another_key_5678' });
    expect(other.stdout).toBe('alpha-call\talpha call (15 min)\n');
    expect(a.hits.map((h) => h.split(' ').pop())).toEqual([KEY, 'sk_test_another_key_5678']);
    for (const file of cacheFiles()) {
      expect(readFileSync(file, 'utf8')).not.toContain('sk_test_another_key_5678');
    }
  });

  it('is off with SCHED_COMPLETION_TTL=0: every TAB asks, and no file is written', async () => {
    const env = { ...freshHome(), SCHED_COMPLETION_TTL: '0' };
    await complete(env);
    await complete(env);
    expect(a.hits).toHaveLength(2);
    expect(() => readdirSync(cacheDir())).toThrow();
  });

  it('ignores a cache file others could read, and a list written for another base URL', async () => {
    const env = freshHome();
    await complete(env);
    const [file] = cacheFiles();
    const kept = JSON.parse(readFileSync(file!, 'utf8')) as Record<string, unknown>;
    writeFileSync(file!, JSON.stringify({ ...kept, candidates: [['planted', 'x']] }), {
      mode: 0o644,
    });
    const { chmodSync } = await import('node:fs');
    chmodSync(file!, 0o644);
    expect((await complete(env)).stdout).toBe('alpha-call\talpha call (15 min)\n');
    writeFileSync(
      file!,
      JSON.stringify({ ...kept, baseUrl: b.url, candidates: [['planted', 'x']] }),
    );
    chmodSync(file!, 0o600);
    expect((await complete(env)).stdout).toBe('alpha-call\talpha call (15 min)\n');
    expect(a.hits).toHaveLength(3);
  });
});
