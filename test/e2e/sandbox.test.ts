// `sched sandbox` as a user runs it: the built binary in its own process, stopped by a signal.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, spawnSched } from '../helpers/run.js';
import { startReceiver } from '../helpers/receiver.js';

interface Running {
  child: ChildProcessWithoutNullStreams;
  firstLine: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const running: Running[] = [];

function startBinary(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1', SCHED_API_KEY: undefined, SCHED_BASE_URL: undefined },
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        const r: Running = {
          child,
          firstLine: out.slice(0, nl),
          stdout: () => out,
          stderr: () => err,
          exited,
        };
        running.push(r);
        resolve(r);
      }
    });
    void exited.then((code) =>
      reject(new Error(`sandbox exited early with ${code}\nstdout: ${out}\nstderr: ${err}`)),
    );
  });
}

async function stop(r: Running, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  r.child.kill(signal);
  return r.exited;
}

describe('sched sandbox (binary)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sched-sandbox-'));
  });
  afterEach(async () => {
    for (const r of running.splice(0)) {
      if (r.child.exitCode === null) r.child.kill('SIGKILL');
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('with --port 0 --json prints {"baseUrl","publicUrl","apiKey"} first, serves, and stops on SIGTERM with exit 0', async () => {
    const r = await startBinary(['sandbox', '--port', '0', '--json']);
    const info = JSON.parse(r.firstLine) as Record<string, string>;
    expect(Object.keys(info)).toEqual(['baseUrl', 'publicUrl', 'apiKey']);
    expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(info.publicUrl).toBe(info.baseUrl!.replace(/\/api$/, ''));
    expect(info.apiKey).toBe('sandbox_test_key');

    const ok = await fetch(`${info.baseUrl}/users/me/meeting-types`, {
      headers: { 'x-api-key': info.apiKey! },
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { total: number }).total).toBe(8);
    const denied = await fetch(`${info.baseUrl}/users/me/meeting-types`);
    expect(denied.status).toBe(401);

    expect(await stop(r)).toBe(0);
    expect(r.stderr()).toContain('GET /api/users/me/meeting-types 200');
    expect(r.stderr()).toMatch(/stopped/i);
    // Nothing but the JSON line on stdout, so a script can read it.
    expect(r.stdout()).toBe(r.firstLine + '\n');
    await expect(fetch(`${info.baseUrl}/webhooks`)).rejects.toThrow();
  });

  it('stops cleanly on SIGINT too', async () => {
    const r = await startBinary(['sandbox', '--port', '0', '--json']);
    expect(await stop(r, 'SIGINT')).toBe(0);
  });

  it('prints base URL, public URL, console and key as lines without --json, and accepts --api-key', async () => {
    const r = await startBinary(['sandbox', '--port', '0', '--api-key', 'my-key-1']);
    // The three lines are one write, but a pipe may still split them.
    for (let i = 0; i < 100 && !r.stdout().includes('API key'); i++) {
      await new Promise((res) => setTimeout(res, 20));
    }
    expect(r.stdout()).toMatch(
      /^Base URL: +http:\/\/127\.0\.0\.1:\d+\/api\nPublic URL: +http:\/\/127\.0\.0\.1:\d+\nConsole: +http:\/\/127\.0\.0\.1:\d+\/\nAPI key: +my-key-1\n$/,
    );
    const base = /Base URL: +(\S+)/.exec(r.stdout())![1]!;
    const res = await fetch(`${base}/webhooks`, { headers: { 'x-api-key': 'my-key-1' } });
    expect(res.status).toBe(200);
    expect(await stop(r)).toBe(0);
  });

  it('keeps webhooks (with secrets), links and types in --state across restarts, file mode 0600', async () => {
    const file = join(dir, 'nested', 'state.json');
    const first = await startBinary(['sandbox', '--port', '0', '--json', '--state', file]);
    const a = JSON.parse(first.firstLine) as { baseUrl: string; apiKey: string };
    const headers = { 'x-api-key': a.apiKey, 'content-type': 'application/json' };
    const created = (await (
      await fetch(`${a.baseUrl}/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          url: 'https://example.com/persist',
          events: ['meetingScheduled'],
          secret: 'persisted-secret',
        }),
      })
    ).json()) as { uuid: string };
    const types = (await (
      await fetch(`${a.baseUrl}/users/me/meeting-types`, { headers })
    ).json()) as { _embedded: { items: Array<{ uuid: string }> } };
    const link = (await (
      await fetch(`${a.baseUrl}/single-use-link`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ meeting_type_uuid: types._embedded.items[0]!.uuid }),
      })
    ).json()) as { code: string };
    expect(await stop(first)).toBe(0);

    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const saved = await readFile(file, 'utf8');
    expect(saved).toContain('persisted-secret');
    expect(saved).toContain(link.code);

    const second = await startBinary(['sandbox', '--port', '0', '--json', '--state', file]);
    const b = JSON.parse(second.firstLine) as {
      baseUrl: string;
      publicUrl: string;
      apiKey: string;
    };
    const list = (await (
      await fetch(`${b.baseUrl}/webhooks`, { headers: { 'x-api-key': b.apiKey } })
    ).json()) as { _embedded: { items: Array<{ uuid: string; secret: unknown }> } };
    expect(list._embedded.items.map((w) => w.uuid)).toEqual([created.uuid]);
    expect(list._embedded.items[0]!.secret).toBeNull();
    const page = await fetch(`${b.publicUrl}/s/${link.code}`);
    expect(page.status).toBe(200);
    expect(await stop(second)).toBe(0);
    expect(second.stderr()).toMatch(/Loaded .*state\.json: 1 webhooks, 1 links/);
  });

  it('refuses a state file that is not sandbox state, with exit 2 and the file left alone', async () => {
    const file = join(dir, 'bad.json');
    await writeFile(file, '{"hello":', 'utf8');
    const r = await spawnSched(['sandbox', '--port', '0', '--state', file]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*bad\.json is not valid JSON/);
    expect(await readFile(file, 'utf8')).toBe('{"hello":');
  });

  it('says which port is taken, with exit 1', async () => {
    const blocker = createServer();
    await new Promise<void>((res) => blocker.listen(0, '127.0.0.1', () => res()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await spawnSched(['sandbox', '--port', String(port)]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`port ${port}`);
      expect(r.stderr).toContain('--port 0');
    } finally {
      blocker.close();
    }
  });

  it('seeds exactly --types meeting types', async () => {
    const r = await startBinary(['sandbox', '--port', '0', '--json', '--types', '1234']);
    const a = JSON.parse(r.firstLine) as { baseUrl: string; apiKey: string };
    const env = (await (
      await fetch(`${a.baseUrl}/users/me/meeting-types?limit=100`, {
        headers: { 'x-api-key': a.apiKey },
      })
    ).json()) as { total: number; pages: number };
    expect(env).toMatchObject({ total: 1234, pages: 13 });
    expect(await stop(r)).toBe(0);
  });

  it('books, cancels and logs each delivery with the receiver status on its stderr', async () => {
    const rx = await startReceiver({ statuses: [500] });
    try {
      const r = await startBinary(['sandbox', '--port', '0', '--json']);
      const a = JSON.parse(r.firstLine) as { baseUrl: string; apiKey: string };
      const headers = { 'x-api-key': a.apiKey, 'content-type': 'application/json' };
      await fetch(`${a.baseUrl}/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: rx.url, events: ['meetingScheduled', 'meetingCancelled'] }),
      });
      const link = (await (
        await fetch(`${a.baseUrl}/single-use-link`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ meeting_type_uuid: '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c' }),
        })
      ).json()) as { url: string };
      const env = { SCHED_BASE_URL: a.baseUrl, SCHED_API_KEY: a.apiKey, SCHED_CONFIG_DIR: dir };
      const booked = await spawnSched(['sandbox', 'book', link.url, '-q'], { env });
      expect(booked.code).toBe(0);
      const uuid = booked.stdout.trim();
      const cancelled = await spawnSched(['sandbox', 'cancel', uuid, '--json'], { env });
      expect(cancelled.code).toBe(0);
      expect((JSON.parse(cancelled.stdout) as { uuid: string }).uuid).toBe(uuid);
      await rx.waitFor(3);
      // Stop only once the sandbox has seen every answer (a stop aborts deliveries in flight).
      for (let i = 0; i < 200; i++) {
        const d = (await (await fetch(`${a.baseUrl}/_sandbox/deliveries`, { headers })).json()) as {
          items: Array<{ state: string }>;
        };
        if (d.items.length === 2 && d.items.every((x) => x.state === 'delivered')) break;
        await new Promise((res) => setTimeout(res, 25));
      }
      expect(await stop(r)).toBe(0);
      const log = r.stderr();
      expect(log).toMatch(
        new RegExp(`delivery meetingScheduled -> ${rx.url} attempt 1: HTTP 500, will retry`),
      );
      expect(log).toMatch(new RegExp(`delivery meetingScheduled -> ${rx.url} attempt 2: HTTP 200`));
      expect(log).toMatch(new RegExp(`delivery meetingCancelled -> ${rx.url} attempt 1: HTTP 200`));
    } finally {
      await rx.close();
    }
  });
});
