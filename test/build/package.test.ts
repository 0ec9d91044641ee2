// The package as users get it: `npm pack`, then installed from the tarball with --omit=dev
// into a clean global prefix and into a fresh project, then run from there. dist/ bundles every
// runtime dependency, so the package has none (nothing to download: this runs offline) and no
// install script (npm 11 warns about any it has not been allowed to run).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  version: string;
};
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

/** npm with the environment of a user's shell: nothing inherited from an `npm test` around us. */
function npmEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of Object.keys(env)) if (/^npm_/i.test(k)) env[k] = undefined;
  return {
    ...env,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    // The Node running the suite is the Node the installed bin must run under.
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ''}`,
  };
}
const npm = (args: string[], cwd: string) =>
  execa('npm', args, { cwd, env: npmEnv(), extendEnv: false, all: true, reject: false });

let tmp: string;
let tarball: string;
let packed: { files: { path: string }[]; entryCount: number };
let globalInstall: { exitCode?: number; all?: string };
let projectInstall: { exitCode?: number; all?: string };
let globalPkgDir: string;
let projectDir: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sched-package-'));
  // Exactly `npm pack` (its prepack builds dist/, as the suite's setup just did).
  const p = await npm(['pack', '--json', '--pack-destination', tmp], root);
  expect(p.exitCode, p.all).toBe(0);
  const json = p.stdout.slice(p.stdout.indexOf('['));
  [packed] = JSON.parse(json) as [typeof packed & { filename: string }];
  tarball = path.join(tmp, (packed as typeof packed & { filename: string }).filename);

  const prefix = path.join(tmp, 'global');
  globalInstall = await npm(
    ['install', '-g', '--prefix', prefix, '--omit=dev', '--offline', tarball],
    tmp,
  );
  globalPkgDir =
    process.platform === 'win32'
      ? path.join(prefix, 'node_modules', 'sched')
      : path.join(prefix, 'lib', 'node_modules', 'sched');

  projectDir = path.join(tmp, 'project');
  fs.mkdirSync(projectDir);
  fs.writeFileSync(
    path.join(projectDir, 'package.json'),
    JSON.stringify({ name: 'user-project', private: true, type: 'module' }),
  );
  projectInstall = await npm(['install', '--omit=dev', '--offline', tarball], projectDir);
}, 180_000);

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('gives a package with no dependencies and no install script', () => {
    const manifest = JSON.parse(
      fs.readFileSync(path.join(globalPkgDir, 'package.json'), 'utf8'),
    ) as Record<string, Record<string, string> | undefined>;
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) {
      expect(Object.keys(manifest[field] ?? {}), field).toEqual([]);
    }
    const scripts = Object.keys(manifest.scripts ?? {});
    expect(scripts.filter((s) => INSTALL_SCRIPTS.includes(s))).toEqual([]);
  });

  it('holds the bin, the bundle and the completions; no sources, tests or standalone binaries', () => {
    const files = packed.files.map((f) => f.path);
    expect(files).toContain('bin/sched.js');
    expect(files).toContain('dist/main.js');
    expect(files).toContain('completions/sched.bash');
    expect(files.filter((f) => /^(src|test|scripts|node_modules|dist\/bin)\//.test(f))).toEqual([]);
    // The MCP Bundle (npm run build:mcpb) is a download of its own, never part of the package.
    expect(files.filter((f) => f.endsWith('.mcpb'))).toEqual([]);
  });
});

describe.each([
  ['npm install -g --prefix <tmp> <tarball>', () => globalInstall],
  ['npm install <tarball> in a project', () => projectInstall],
])('%s', (_, result) => {
  it('installs offline, adding one package, with no install-script warning', () => {
    const r = result();
    expect(r.exitCode, r.all).toBe(0);
    expect(r.all).toMatch(/added 1 package/);
    expect(r.all).not.toMatch(/install.scripts|allowScripts|allow-scripts|prepare/i);
  });
});

/** The installed `sched`, run with the suite's Node. */
function sched(dir: string, args: string[], input?: string) {
  return execa(process.execPath, [path.join(dir, 'bin', 'sched.js'), ...args], {
    input,
    reject: false,
    env: { NO_COLOR: '1', SCHED_API_KEY: undefined, SCHED_BASE_URL: undefined },
  });
}

const children: ChildProcessWithoutNullStreams[] = [];

describe('the installed sched', () => {
  it('has no node_modules of its own', () => {
    expect(fs.existsSync(path.join(globalPkgDir, 'node_modules'))).toBe(false);
    expect(
      fs.readdirSync(path.join(projectDir, 'node_modules')).filter((n) => !n.startsWith('.')),
    ).toEqual(['sched']);
  });

  it('runs from the global prefix: the bin link, --version and --help', async () => {
    const bin = path.join(tmp, 'global', process.platform === 'win32' ? 'sched.cmd' : 'bin/sched');
    const viaLink = await execa(bin, ['--version'], { env: npmEnv(), reject: false });
    expect(viaLink.stdout).toBe(pkg.version);
    const help = await sched(globalPkgDir, ['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^Usage: sched /);
    expect(help.stderr).toBe('');
  });

  it('installs the second name, schedcli (zsh has a builtin sched), and its man page', async () => {
    if (process.platform === 'win32') return;
    const help = await execa(path.join(tmp, 'global', 'bin', 'schedcli'), ['--help'], {
      env: npmEnv(),
      reject: false,
    });
    expect(help.stdout).toMatch(/^Usage: schedcli /);
    const man1 = path.join(tmp, 'global', 'share', 'man', 'man1');
    expect(fs.readdirSync(man1).sort()).toEqual(['sched.1', 'schedcli.1']);
    const hasMan = await execa('man', ['--version'], { reject: false }).catch(() => undefined);
    if (!hasMan || hasMan.exitCode !== 0) return;
    // man follows schedcli.1's `.so` to sched.1 in the same tree.
    const page = await execa('man', ['-P', 'cat', 'schedcli'], {
      env: { MANPATH: path.join(tmp, 'global', 'share', 'man'), MANWIDTH: '100', LC_ALL: 'C' },
      reject: false,
    });
    expect(page.stdout).toMatch(/^NAME\n +sched, +schedcli +- /m);
  });

  it('runs from a project: node_modules/.bin/sched --version', async () => {
    const r = await execa(path.join(projectDir, 'node_modules', '.bin', 'sched'), ['--version'], {
      env: npmEnv(),
      reject: false,
    });
    expect(r.stdout).toBe(pkg.version);
  });

  it('serves a sandbox and lists its meeting types', async () => {
    const child = spawn(
      process.execPath,
      [path.join(globalPkgDir, 'bin', 'sched.js'), 'sandbox', '--port', '0', '--json'],
      { env: { ...process.env, NO_COLOR: '1' } },
    );
    children.push(child);
    const firstLine = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
      });
      child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
    });
    const info = JSON.parse(firstLine) as { baseUrl: string; apiKey: string };
    const r = await execa(
      process.execPath,
      [path.join(globalPkgDir, 'bin', 'sched.js'), 'types', 'list', '--json'],
      {
        reject: false,
        env: { NO_COLOR: '1', SCHED_BASE_URL: info.baseUrl, SCHED_API_KEY: info.apiKey },
      },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const listed = JSON.parse(r.stdout) as unknown[];
    expect(listed).toHaveLength(8);
    child.kill('SIGTERM');
  });

  it('signs a payload as node:crypto does', async () => {
    const payload = '{"event":"meetingScheduled"}';
    const r = await sched(
      globalPkgDir,
      ['sig', 'sign', '--secret', 's3cret', '--payload-file', '-'],
      payload,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(createHmac('sha256', 's3cret').update(payload).digest('base64'));
  });
});

/** A user's own test of their webhook handler, as docs/sandbox.md's "Testing your webhook handler". */
const USER_TEST = `
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { startSandbox } from 'sched/sandbox';

const secret = 'whsec-user-test-0123456789';
const received = [];
const handler = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    received.push({ headers: req.headers, body });
    res.end('ok');
  });
});
await new Promise((r) => handler.listen(0, '127.0.0.1', r));
const handlerUrl = 'http://127.0.0.1:' + handler.address().port + '/hooks';

const sb = await startSandbox({ port: 0 });
const headers = { 'x-api-key': sb.apiKey, 'content-type': 'application/json' };
const post = async (path, body) => {
  const res = await fetch(sb.baseUrl + path, { method: 'POST', headers, body: JSON.stringify(body) });
  assert.ok(res.ok, path + ': ' + res.status);
  return res.json();
};
await post('/webhooks', { url: handlerUrl, events: ['meetingScheduled', 'meetingCancelled'], secret });
const types = await (await fetch(sb.baseUrl + '/users/me/meeting-types', { headers })).json();
const link = await post('/single-use-link', { meeting_type_uuid: types._embedded.items[0].uuid });

const { meeting, deliveries } = await sb.book(link.url, { name: 'Ada', email: 'ada@example.com' });
assert.equal(deliveries.length, 1);
assert.equal(deliveries[0].status, 'delivered');
assert.equal(deliveries[0].event, 'meetingScheduled');
assert.equal(received.length, 1);
const expected = createHmac('sha256', secret).update(received[0].body).digest();
const sent = Buffer.from(String(received[0].headers['webhook-signature']), 'base64');
assert.ok(sent.length === expected.length && timingSafeEqual(sent, expected), 'signature');
assert.equal(JSON.parse(received[0].body).event, 'meetingScheduled');

const cancelled = await sb.cancel(meeting.uuid, { reason: 'test' });
assert.equal(cancelled.deliveries[0].event, 'meetingCancelled');
assert.equal(received.length, 2);

const refused = await sb.book(link.url).then(() => undefined, (e) => e);
assert.equal(refused?.code, 'link_used');
await sb.close();
handler.close();
process.stdout.write('user test passed\\n');
`;

/** The same user, in TypeScript: the declarations resolve and say what the library gives. */
const USER_TYPES = `
import { startSandbox, SandboxError, type Sandbox, type SandboxActionResult } from 'sched/sandbox';
const sb: Sandbox = await startSandbox({ port: 0, seedTypes: 3 });
const port: number = sb.port;
const r: SandboxActionResult = await sb.book('code', { name: 'Ada' });
const status: 'delivered' | 'failed' | undefined = r.deliveries[0]?.status;
const code: string = new SandboxError('link_used', 'used').code;
// @ts-expect-error: book takes a link code or URL, not a number
await sb.book(42);
export { port, status, code };
`;

describe('sched/sandbox from the installed tarball', () => {
  it("runs a user's webhook-handler test: book, signed delivery, cancel, used link refused", async () => {
    fs.writeFileSync(path.join(projectDir, 'webhook.test.mjs'), USER_TEST);
    const r = await execa(process.execPath, ['webhook.test.mjs'], {
      cwd: projectDir,
      reject: false,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('user test passed');
  });

  it('has type declarations a TypeScript project resolves', async () => {
    fs.writeFileSync(path.join(projectDir, 'check.ts'), USER_TYPES);
    const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = await execa(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--skipLibCheck',
        'false',
        '--typeRoots',
        path.join(root, 'node_modules', '@types'),
        '--types',
        'node',
        'check.ts',
      ],
      { cwd: projectDir, reject: false },
    );
    expect(r.exitCode, r.stdout).toBe(0);
  }, 120_000);

  it('is what the package exports, at sched/sandbox and at sched', () => {
    const manifest = JSON.parse(
      fs.readFileSync(path.join(projectDir, 'node_modules', 'sched', 'package.json'), 'utf8'),
    ) as { exports: Record<string, unknown> };
    expect(Object.keys(manifest.exports)).toEqual(['.', './sandbox', './package.json']);
    expect(
      fs.existsSync(
        path.join(projectDir, 'node_modules', 'sched', 'dist', 'types', 'sandbox', 'library.d.ts'),
      ),
    ).toBe(true);
  });
});
