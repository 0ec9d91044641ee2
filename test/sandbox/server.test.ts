// startSandboxServer's own options: the address it shows for each kind of host, its defaults,
// what it refuses, flushing its state file, and a state file that is damaged.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandboxServer, type SandboxLogEvent } from '../../src/sandbox/index.js';
import { loadStateFile, STATE_FORMAT, StateFileError } from '../../src/sandbox/state.js';

const dir = mkdtempSync(path.join(tmpdir(), 'sched-sb-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('startSandboxServer', () => {
  it.each([
    ['::1', '[::1]'],
    ['::', '[::1]'],
    ['127.0.0.1', '127.0.0.1'],
  ])('on %s: its addresses name %s', async (host, shown) => {
    const sb = await startSandboxServer({ host });
    try {
      expect(sb.baseUrl).toBe(`http://${shown}:${sb.port}/api`);
      expect(sb.port).toBeGreaterThan(0);
      const r = await fetch(`${sb.baseUrl}/webhooks`, { headers: { 'x-api-key': sb.apiKey } });
      expect(r.status).toBe(200);
    } finally {
      await sb.close();
    }
  });

  it('refuses an empty API key', async () => {
    await expect(startSandboxServer({ apiKey: '' })).rejects.toThrow(
      'the sandbox API key must not be empty',
    );
  });

  it('flushState: nothing to wait for without a state file; the write error when it fails', async () => {
    const plain = await startSandboxServer();
    await expect(plain.flushState()).resolves.toBeUndefined();
    await plain.close();

    const events: SandboxLogEvent[] = [];
    const stateDir = path.join(dir, 'state');
    const file = path.join(stateDir, 'state.json');
    const sb = await startSandboxServer({ stateFile: file, log: (e) => events.push(e) });
    try {
      await sb.flushState();
      // The directory becomes a file: the next write fails.
      rmSync(stateDir, { recursive: true });
      writeFileSync(stateDir, '');
      const r = await fetch(`${sb.baseUrl}/webhooks`, {
        method: 'POST',
        headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://rx.example/h', events: ['meetingScheduled'] }),
      });
      expect(r.status).toBe(201);
      await expect(sb.flushState()).rejects.toThrow(/EEXIST|ENOTDIR/);
      expect(events).toContainEqual({
        type: 'state-error',
        message: expect.stringMatching(
          new RegExp(`^cannot write ${file}: .*(EEXIST|ENOTDIR)`),
        ) as string,
      });
    } finally {
      await sb.close().catch(() => {});
    }
  });
});

describe('a damaged state file', () => {
  const write = (name: string, body: Record<string, unknown>) => {
    const file = path.join(dir, name);
    writeFileSync(
      file,
      JSON.stringify({
        format: STATE_FORMAT,
        version: 1,
        meeting_types: [],
        links: [],
        webhooks: [],
        meetings: [],
        ...body,
      }),
    );
    return file;
  };
  it.each([
    ['links not a list', { links: {} }, '"links" is not a list'],
    [
      'a link without its code',
      { links: [{ meeting_type_uuid: 'x' }] },
      '"links"[0] has no "code"',
    ],
    ['a meeting without its uuid', { meetings: [{ meeting: {} }] }, '"meetings"[0] has no "uuid"'],
    ['a webhook that is not an object', { webhooks: ['w'] }, '"webhooks"[0] has no "uuid"'],
  ])('%s: refused, naming what is wrong', async (_what, body, why) => {
    const file = write(`${_what.replace(/ /g, '-')}.json`, body);
    const e = await loadStateFile(file).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(StateFileError);
    expect((e as Error).message).toBe(`${file} is damaged: ${why}`);
  });
});

describe('a state file someone else could have written (the config trust rule)', () => {
  it.each([
    [
      'the file writable by others',
      0o666,
      0o700,
      /the state file .* is writable by others \(mode 0666\)/,
    ],
    [
      'its directory writable by others',
      0o600,
      0o777,
      /the directory of the state file, .*, is writable by others \(mode 0777\)/,
    ],
  ])('%s: refused before it is read', async (_what, fileMode, dirMode, message) => {
    const sub = mkdtempSync(path.join(dir, 'trust-'));
    const file = path.join(sub, 'state.json');
    const first = await startSandboxServer({ stateFile: file });
    await first.close();
    chmodSync(file, fileMode);
    chmodSync(sub, dirMode);
    try {
      const err = await startSandboxServer({ stateFile: file }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StateFileError);
      expect((err as Error).message).toMatch(message);
      expect((err as StateFileError).hint).toMatch(/chmod/);
    } finally {
      chmodSync(sub, 0o700);
    }
  });

  it('a directory writable by all but sticky (like /tmp) is fine', async () => {
    const sub = mkdtempSync(path.join(dir, 'sticky-'));
    chmodSync(sub, 0o1777);
    const sb = await startSandboxServer({ stateFile: path.join(sub, 'state.json') });
    await sb.close();
    const again = await startSandboxServer({ stateFile: path.join(sub, 'state.json') });
    expect(again.stateLoaded).toBe(true);
    await again.close();
  });
});
