import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { execa } from 'execa';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  configDir,
  DEFAULT_BASE_URL,
  maskKey,
  openConfig,
  type ConfigStore,
} from '../../src/config/profiles.js';
import { createContext, type GlobalOptions } from '../../src/context.js';
import { createBufferIO } from '../helpers/buffer-io.js';
import { Failure, UsageError, type SchedError } from '../../src/errors.js';
import { runsElsewhere } from '../helpers/skip.js';
import { DEFAULT_GLOBALS } from '../helpers/globals.js';

const posix = process.platform !== 'win32';
let dir: string;
let warnings: string[];

const mode = (p: string) => fs.statSync(p).mode & 0o777;
const open = (extra: Record<string, string> = {}): Promise<ConfigStore> =>
  openConfig({ SCHED_CONFIG_DIR: dir, ...extra }, { warn: (l) => warnings.push(l) });

beforeEach(() => {
  dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sched-config-')), 'cfg');
  warnings = [];
});
afterEach(() => {
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
});

describe('config store', () => {
  it('lives in SCHED_CONFIG_DIR; directory 0700 and file 0600; the documented shape', async () => {
    const store = await open();
    expect(store.path).toBe(path.join(dir, 'config.json'));
    expect(fs.existsSync(store.path)).toBe(false); // reading creates no file
    await store.setProfile('default', { baseUrl: DEFAULT_BASE_URL, apiKey: 'k1' });
    await store.setProfile('staging.eu', { baseUrl: 'http://127.0.0.1:4010/api', apiKey: 'k2' });
    if (posix) {
      expect(mode(dir)).toBe(0o700);
      expect(mode(store.path)).toBe(0o600);
    }
    expect(JSON.parse(fs.readFileSync(store.path, 'utf8'))).toEqual({
      profiles: {
        default: { baseUrl: DEFAULT_BASE_URL, apiKey: 'k1' },
        'staging.eu': { baseUrl: 'http://127.0.0.1:4010/api', apiKey: 'k2' },
      },
    });
    const again = await open();
    expect(again.getProfile('staging.eu')).toEqual({
      baseUrl: 'http://127.0.0.1:4010/api',
      apiKey: 'k2',
    });
    expect(again.getProfile('nope')).toBeUndefined();
    expect(again.getProfile('__proto__')).toBeUndefined();
    expect(Object.keys(again.listProfiles())).toEqual(['default', 'staging.eu']);
    expect(warnings).toEqual([]);
  });

  it('deleteKey removes only the key and says whether there was one', async () => {
    const store = await open();
    await store.setProfile('default', { baseUrl: DEFAULT_BASE_URL, apiKey: 'k1' });
    expect(await store.deleteKey('default')).toBe(true);
    expect(store.getProfile('default')).toEqual({ baseUrl: DEFAULT_BASE_URL });
    expect(await store.deleteKey('default')).toBe(false);
    expect(await store.deleteKey('other')).toBe(false);
  });

  it('rejects profile names that are not simple words', async () => {
    const store = await open();
    for (const bad of [
      '',
      ' x',
      '../x',
      'a/b',
      '__proto__'.replace('_', '.').slice(1) + '/',
      'x'.repeat(65),
    ]) {
      await expect(store.setProfile(bad, { apiKey: 'k' })).rejects.toThrow(UsageError);
    }
  });

  it('a corrupt file is reported with its path and a fix, and left as it was', async () => {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, '{"profiles": {"default": {"apiKey": "k1"', { mode: 0o600 });
    const e = await open().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Failure);
    const err = e as SchedError;
    expect(err.message).toContain(`cannot read the config file ${file}: it is not valid JSON`);
    expect(err.hint).toContain(`mv ${file} ${file}.bak`);
    expect(err.exitCode).toBe(1);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"profiles": {"default": {"apiKey": "k1"');
  });

  it('valid JSON of the wrong shape is reported, not used', async () => {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ profiles: { default: { apiKey: 42 } } }), {
      mode: 0o600,
    });
    await expect(open()).rejects.toThrow(
      `the config file ${file} has unexpected content: "apiKey" of profile "default" is not a string`,
    );
    fs.writeFileSync(file, '[]');
    await expect(open()).rejects.toThrow('the top level is not a JSON object');
  });

  it.skipIf(runsElsewhere(!posix && 'Windows: no POSIX file modes'))(
    'tightens a wider directory and file, with a warning each',
    async () => {
      fs.mkdirSync(dir, { recursive: true });
      fs.chmodSync(dir, 0o755);
      const file = path.join(dir, 'config.json');
      fs.writeFileSync(file, JSON.stringify({ profiles: { default: { apiKey: 'k' } } }));
      fs.chmodSync(file, 0o644);
      const store = await open();
      expect(mode(dir)).toBe(0o700);
      expect(mode(file)).toBe(0o600);
      expect(warnings).toEqual([
        `warning: the config directory ${dir} had mode 0755; changed it to 0700 (it holds API keys)`,
        `warning: the config file ${file} had mode 0644; changed it to 0600 (it holds API keys)`,
      ]);
      expect(store.getProfile('default')).toEqual({ apiKey: 'k' });
    },
  );

  it.skipIf(runsElsewhere(!posix && 'Windows: no POSIX file modes'))(
    'never chmods a shared sticky directory such as /tmp; warns instead',
    async () => {
      const shared = path.join(path.dirname(dir), 'shared');
      fs.mkdirSync(shared, { mode: 0o1777 });
      fs.chmodSync(shared, 0o1777);
      await openConfig({ SCHED_CONFIG_DIR: shared }, { warn: (l) => warnings.push(l) });
      expect(mode(shared) | 0o1000).toBe(0o777 | 0o1000);
      expect(warnings[0]).toContain('is shared (mode 01777)');
    },
  );

  it('a directory that cannot be created still allows reading (env keys) and explains on write', async () => {
    const blocker = path.join(path.dirname(dir), 'a-file');
    fs.writeFileSync(blocker, 'x');
    const store = await openConfig({ SCHED_CONFIG_DIR: path.join(blocker, 'sub') });
    expect(store.getProfile('default')).toBeUndefined();
    await expect(store.setProfile('default', { apiKey: 'k' })).rejects.toThrow(
      /cannot create the config directory/,
    );
  });

  it('maskKey shows at most the last 4 characters, fewer for short keys', () => {
    expect(maskKey('abcdefghijklmnopqrstuvwxyz')).toBe('****wxyz');
    expect(maskKey('abcdefghijkl')).toBe('****kl');
    expect(maskKey('abcdef')).toBe('****');
    expect(maskKey('')).toBe('');
  });

  it('uses the platform directory for "sched" without a "-nodejs" suffix', () => {
    const d = configDir({ HOME: '/home/u', XDG_CONFIG_HOME: undefined });
    if (process.platform === 'linux') expect(d).toBe('/home/u/.config/sched');
    expect(d).not.toContain('nodejs');
    expect(configDir({ HOME: '/home/u', XDG_CONFIG_HOME: '/x/cfg' })).toBe(
      process.platform === 'linux' ? '/x/cfg/sched' : d,
    );
  });

  it('writers in 4 processes at once leave a valid file holding every profile', async () => {
    const bundle = path.join(path.dirname(dir), 'writer.mjs');
    const src = fileURLToPath(new URL('../../src/config/profiles.ts', import.meta.url));
    await build({
      stdin: {
        contents: `
          import { openConfig } from ${JSON.stringify(src)};
          const [who, n] = process.argv.slice(2);
          const store = await openConfig(process.env);
          for (let i = 0; i < Number(n); i++) await store.setProfile(who + '-' + i, { baseUrl: 'http://x/api', apiKey: 'k' + i });
        `,
        resolveDir: path.dirname(src),
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: bundle,
      logLevel: 'silent',
      banner: {
        js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
      },
    });
    const writers = ['a', 'b', 'c', 'd'].map((who) =>
      execa(process.execPath, [bundle, who, '15'], { env: { SCHED_CONFIG_DIR: dir } }),
    );
    await Promise.all(writers);
    const content = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')) as {
      profiles: Record<string, unknown>;
    };
    expect(Object.keys(content.profiles)).toHaveLength(60);
    expect(fs.existsSync(path.join(dir, 'config.json.lock'))).toBe(false);
    if (posix) expect(mode(path.join(dir, 'config.json'))).toBe(0o600);
  });
});

describe('precedence (context over the real store)', () => {
  const globals = (o: Partial<GlobalOptions> = {}): GlobalOptions => ({
    ...DEFAULT_GLOBALS,
    ...o,
  });
  const ctxFor = (env: Record<string, string | undefined>, g: Partial<GlobalOptions> = {}) =>
    createContext({
      io: createBufferIO(),
      globals: globals(g),
      env: { SCHED_CONFIG_DIR: dir, ...env },
      signal: new AbortController().signal,
      version: '0.0.0-test',
    });

  beforeEach(async () => {
    const store = await open();
    await store.setProfile('default', {
      baseUrl: 'https://profile.example/api',
      apiKey: 'profile-key-1234',
    });
  });

  it('base URL: flag > env > profile > default', async () => {
    expect(
      (
        await ctxFor(
          { SCHED_BASE_URL: 'https://env.example/api' },
          { baseUrl: 'https://flag.example/api/' },
        ).credentials()
      ).baseUrl,
    ).toBe('https://flag.example/api');
    const env = await ctxFor({ SCHED_BASE_URL: 'https://env.example/api' }).credentials();
    expect([env.baseUrl, env.baseUrlSource]).toEqual(['https://env.example/api', 'env']);
    const prof = await ctxFor({}).credentials();
    expect([prof.baseUrl, prof.baseUrlSource]).toEqual(['https://profile.example/api', 'profile']);
    // A profile that stores no base URL (here: "default" with no config at all).
    const empty = path.join(dir, 'empty');
    const def = await ctxFor({ SCHED_CONFIG_DIR: empty }).credentials();
    expect([def.baseUrl, def.baseUrlSource]).toEqual([DEFAULT_BASE_URL, 'default']);
  });

  it('key: SCHED_API_KEY over the profile, and says when it overrides a stored key', async () => {
    const fromEnv = await ctxFor({ SCHED_API_KEY: 'env-key-5678' }).credentials();
    expect(fromEnv).toMatchObject({
      apiKey: 'env-key-5678',
      keySource: 'env',
      envOverridesProfileKey: true,
    });
    const fromProfile = await ctxFor({}).credentials();
    expect(fromProfile).toMatchObject({
      apiKey: 'profile-key-1234',
      keySource: 'profile',
      envOverridesProfileKey: false,
    });
    const none = await ctxFor({ SCHED_CONFIG_DIR: path.join(dir, 'empty') }).credentials();
    expect(none).toMatchObject({ apiKey: undefined, keySource: undefined });
  });

  it('an unknown profile is a usage error naming it, where it came from, and the closest', async () => {
    const store = await open();
    await store.setProfile('local', {
      baseUrl: 'http://127.0.0.1:4010/api',
      apiKey: 'sandbox-key-1',
    });
    const e = (await ctxFor({}, { profile: 'loacl', profileSource: 'flag' })
      .credentials()
      .catch((x: unknown) => x)) as SchedError;
    expect(e).toBeInstanceOf(UsageError);
    expect(e.exitCode).toBe(2);
    expect(e.message).toBe(
      'unknown profile "loacl" (from --profile) (did you mean "local"?); profiles: default, local',
    );
    expect(e.hint).toMatch(/only `sched auth login --profile loacl` creates a profile/);
    const fromEnv = (await ctxFor({}, { profile: 'stagign', profileSource: 'env' })
      .credentials()
      .catch((x: unknown) => x)) as SchedError;
    expect(fromEnv.message).toMatch(/^unknown profile "stagign" \(from SCHED_PROFILE\); profiles/);
    // auth login may create it.
    const creating = await ctxFor({}, { profile: 'loacl' }).credentials({ mayCreate: true });
    expect(creating).toMatchObject({ profile: 'loacl', baseUrlSource: 'default' });
  });

  it('a broken stored base URL that is not used (flag or env wins) does not stop the command', async () => {
    const store = await open();
    await store.setProfile('default', { baseUrl: 'not a url', apiKey: 'profile-key-1234' });
    const creds = await ctxFor({ SCHED_BASE_URL: 'https://env.example/api' }).credentials();
    expect(creds).toMatchObject({ baseUrl: 'https://env.example/api', storedBaseUrl: 'not a url' });
    await expect(ctxFor({}).credentials()).rejects.toThrow(
      /invalid base URL from profile "default"/,
    );
  });

  it('"default" needs no config: SCHED_API_KEY and SCHED_BASE_URL alone work', async () => {
    const creds = await ctxFor({
      SCHED_CONFIG_DIR: path.join(dir, 'none'),
      SCHED_API_KEY: 'env-key-5678',
      SCHED_BASE_URL: 'https://env.example/api',
    }).credentials();
    expect(creds).toMatchObject({
      profile: 'default',
      apiKey: 'env-key-5678',
      keySource: 'env',
      baseUrl: 'https://env.example/api',
      baseUrlSource: 'env',
      storedBaseUrl: undefined,
    });
  });
});
