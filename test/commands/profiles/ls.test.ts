import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSched } from '../../helpers/run.js';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sched-profiles-'));
  fs.writeFileSync(
    path.join(dir, 'config.json'),
    JSON.stringify({
      profiles: {
        staging: { baseUrl: 'http://127.0.0.1:4010/api', apiKey: 'STAGING-SECRET-KEY-123' },
        default: { baseUrl: 'https://harmonizely.com/api', apiKey: 'DEFAULT-SECRET-KEY-456' },
        old: {},
        vault: { keyCommand: 'secret-tool lookup service sched' },
      },
    }),
    { mode: 0o600 },
  );
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sched profiles ls', () => {
  it('--json: every profile with its base URL and whether a key (or key command) is stored, never the key', async () => {
    const r = await runSched(['profiles', 'ls', '--json'], { env: { SCHED_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    const url = 'https://secure.simplymeet.me/api';
    expect(JSON.parse(r.stdout)).toEqual([
      { name: 'default', baseUrl: 'https://harmonizely.com/api', hasKey: true, keyCommand: false },
      { name: 'old', baseUrl: url, hasKey: false, keyCommand: false },
      { name: 'staging', baseUrl: 'http://127.0.0.1:4010/api', hasKey: true, keyCommand: false },
      { name: 'vault', baseUrl: url, hasKey: true, keyCommand: true },
    ]);
    expect(r.stdout + r.stderr).not.toMatch(/SECRET-KEY/);
  });

  it('piped: tab-separated rows with the current marker (SCHED_PROFILE)', async () => {
    const r = await runSched(['profiles', 'ls'], {
      env: { SCHED_CONFIG_DIR: dir, SCHED_PROFILE: 'staging' },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        '\tdefault\thttps://harmonizely.com/api\tyes',
        '\told\thttps://secure.simplymeet.me/api\tno',
        '*\tstaging\thttp://127.0.0.1:4010/api\tyes',
        '\tvault\thttps://secure.simplymeet.me/api\tcommand',
        '',
      ].join('\n'),
    );
  });

  it('on a terminal: a table with a header; --profile moves the marker', async () => {
    const r = await runSched(['profiles', 'ls', '--profile', 'old'], {
      env: { SCHED_CONFIG_DIR: dir },
      tty: true,
    });
    expect(r.code).toBe(0);
    // eslint-disable-next-line no-control-regex
    const plain = r.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    expect(plain).toMatch(/NAME\s+BASE URL\s+KEY/);
    expect(plain).toMatch(/\*\s+old\s+https:\/\/secure\.simplymeet\.me\/api\s+no/);
    // The key comes from a command: said, and the command is not run to list profiles.
    expect(plain).toMatch(/vault\s+https:\/\/secure\.simplymeet\.me\/api\s+command/);
  });

  it('no profiles: [] with --json, and a hint on stderr', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'sched-profiles-empty-'));
    try {
      const r = await runSched(['profiles', 'ls', '--json'], { env: { SCHED_CONFIG_DIR: empty } });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([]);
      expect(r.stderr).toContain('sched auth login');
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
