// `npm run demo` (scripts/demo.mjs) as a user runs it: the whole tour against the built
// binary, then proof that it left nothing behind — on success, on a failing step, and when
// interrupted. Leftover processes are found by a tag in their environment (every process the
// demo starts inherits it), which needs Linux's /proc; elsewhere the port checks remain.
import { describe, expect, it } from 'vitest';
import { execa, type ResultPromise } from 'execa';
import { randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  copyFileSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BIN } from '../helpers/run.js';
import { until } from '../helpers/until.js';

const DEMO = fileURLToPath(new URL('../../scripts/demo.mjs', import.meta.url));
const HAS_PROC = existsSync('/proc/self/environ');

/** PIDs of live processes whose environment carries SCHED_DEMO_TEST_TAG=<tag>. */
function tagged(tag: string): number[] {
  if (!HAS_PROC) return [];
  const needle = `SCHED_DEMO_TEST_TAG=${tag}\0`;
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').includes(needle)) pids.push(Number(name));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** The ports and the work directory the demo announced. */
function announced(out: string) {
  const sandbox = /"baseUrl":"http:\/\/127\.0\.0\.1:(\d+)\/api"/.exec(out)?.[1];
  const listener = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(out)?.[1];
  const dir = /Working in (\S+?);/.exec(out)?.[1];
  return {
    ports: [sandbox, listener].filter((p): p is string => p !== undefined).map(Number),
    dir,
  };
}

async function expectNothingLeft(tag: string, out: string, minPorts: number): Promise<void> {
  const { ports, dir } = announced(out);
  expect(ports.length).toBeGreaterThanOrEqual(minPorts);
  for (const p of ports) expect(await portOpen(p), `port ${p} still open`).toBe(false);
  expect(tagged(tag)).toEqual([]);
  if (dir) expect(existsSync(dir), `${dir} left behind`).toBe(false);
}

function startDemo(script: string, tag: string, opts: { detached?: boolean } = {}) {
  const child = execa(process.execPath, [script], {
    env: { NO_COLOR: undefined, FORCE_COLOR: undefined, SCHED_DEMO_TEST_TAG: tag },
    extendEnv: true,
    reject: false,
    all: true,
    stdin: 'ignore',
    timeout: 120_000,
    detached: opts.detached ?? false,
  }) as ResultPromise<{ all: true }>;
  let all = '';
  child.all?.on('data', (c: Buffer) => (all += c.toString()));
  return { child, all: () => all };
}

describe('npm run demo', () => {
  it('runs the whole tour, verifies all three deliveries, and leaves nothing running', async () => {
    const tag = randomUUID();
    const { child, all } = startDemo(DEMO, tag);
    const r = await child;
    const out = all();
    expect(r.exitCode, out).toBe(0);

    const headings = [
      'Start the sandbox',
      'List meeting types',
      'Mint single-use links',
      'Start a local webhook listener',
      'Subscribe it',
      'Book the link',
      'Verify the signature yourself',
      'Reschedule the meeting',
      'Cancel the meeting',
      'Book the used link again',
      'List webhooks',
      'Check the credentials',
      'Serve the tools to an AI assistant',
      'Clean up',
    ];
    let at = -1;
    headings.forEach((h, i) => {
      const pos = out.indexOf(`━━ ${i + 1}. ${h}`);
      expect(pos, `heading "${h}"`).toBeGreaterThan(at);
      at = pos;
    });

    // Each step shows its real command line.
    for (const cmd of [
      '$ sched types list',
      '$ sched link create intro-call',
      '$ sched link create intro-call --count 3 --json',
      '$ sched webhooks listen --port 0 --secret ',
      '$ sched webhooks add --url http://127.0.0.1:',
      '$ sched sandbox book http://127.0.0.1:',
      '$ sched sandbox reschedule ',
      '$ sched sandbox cancel ',
      '$ sched webhooks ls',
      '$ sched auth status',
      '$ sched webhooks rm --url ',
    ]) {
      expect(out).toContain(cmd);
    }
    // Real output under them, as a terminal shows it even though the tour's output is piped
    // here (a log keeps the tables' headers): the seeded meeting types, a link, three as JSON.
    expect(out).toMatch(/^NAME +SLUG +MIN +UUID$/m);
    expect(out).toMatch(/^Intro call +intro-call +15 +[0-9a-f-]{36}$/m);
    expect(out).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\/[A-Za-z0-9_-]+$/m);
    expect(out).toMatch(/^\[\n {2}\{\n {4}"code": "[^"]+",\n {4}"url": "[^"]+"\n {2}\},\n/m);
    expect(out).toMatch(/^UUID +URL +EVENTS +CREATED/m);
    expect(out).not.toContain('\t');

    // The listener's verdict on each event, and `sig verify` agreeing over the saved bytes.
    for (const event of ['meetingScheduled', 'meetingRescheduled', 'meetingCancelled']) {
      expect(out).toMatch(
        new RegExp(
          `listener │ \\d\\d:\\d\\d:\\d\\d {2}${event} {2}[0-9a-f-]{36} .*signature valid$`,
          'm',
        ),
      );
      expect(out).toMatch(new RegExp(`--payload-file ${event}\\.json\\n(.*\\n)*?valid\\n`));
    }
    expect(out.match(/^valid$/gm)).toHaveLength(3);
    if (/\$ openssl dgst/.test(out)) {
      expect(out).toContain('✓ the same value as the webhook-signature header');
    }

    // The used link is refused with the usage/invalid-input exit code.
    expect(out).toContain('has already been used');
    expect(out).toContain('→ exit code 2: the link was already used');

    expect(out).toMatch(/^Profile +default\nBase URL +http:\/\/127\.0\.0\.1:\d+\/api\n/m);
    expect(out).toMatch(/^Accepted +yes$/m);
    expect(out).toMatch(/\$ sched webhooks rm --url \S+ --yes\n[0-9a-f-]{36}\n/);
    expect(out).toMatch(/stopped listening on .* after 3 deliveries/);
    expect(out).toContain('Sandbox stopped.');
    expect(out).toMatch(/^ {2}list_meeting_types +read-only +List meeting types$/m);
    expect(out).toMatch(/^ {2}create_single_use_link +creates +Create single-use booking links$/m);
    expect(out).not.toMatch(/create_webhook/);
    expect(out).toMatch(/✓ Tour complete in [\d.]+ s\./);
    // `sched` is not on the PATH of a fresh clone: the last line says how to run it.
    expect(out).toMatch(/not on your PATH yet: run npm link .* or call it as \.\/bin\/sched\.js/);

    await expectNothingLeft(tag, out, 2);
  }, 120_000);

  it('stops everything and exits 1 naming the command when a step fails', async () => {
    // The same demo next to a bin/sched.js that fails one command and runs the real one
    // otherwise: the demo finds its binary relative to itself.
    const root = mkdtempSync(join(tmpdir(), 'sched-demo-test-'));
    try {
      mkdirSync(join(root, 'scripts'));
      mkdirSync(join(root, 'bin'));
      const script = join(root, 'scripts', 'demo.mjs');
      copyFileSync(DEMO, script);
      writeFileSync(
        join(root, 'bin', 'sched.js'),
        `const a = process.argv.slice(2);
if (a[0] === 'webhooks' && a[1] === 'ls') {
  process.stderr.write('error: the API answered 500\\n');
  process.exit(1);
}
await import(${JSON.stringify(pathToFileURL(BIN).href)});
`,
      );
      const tag = randomUUID();
      const { child, all } = startDemo(script, tag);
      const r = await child;
      const out = all();
      expect(r.exitCode, out).toBe(1);
      expect(out).toContain('error: the API answered 500');
      expect(out).toContain('✗ demo failed at step 11: `sched webhooks ls` exited 1, expected 0');
      expect(out).toContain('stopped every process the demo started.');
      expect(out).not.toContain('Tour complete');
      await expectNothingLeft(tag, out, 2);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);

  it('Ctrl-C in the terminal (SIGINT to the whole process group) stops every process, exit 130', async () => {
    const tag = randomUUID();
    const { child, all } = startDemo(DEMO, tag, { detached: true });
    await until(() => all().includes('. Book the link'), 'the booking step', all, {
      timeoutMs: 60_000,
      unless: child,
    });
    process.kill(-child.pid!, 'SIGINT');
    const r = await child;
    const out = all();
    expect(r.exitCode, out).toBe(130);
    expect(out).toContain('interrupted: stopping the demo');
    expect(out).not.toContain('Tour complete');
    await expectNothingLeft(tag, out, 2);
  }, 120_000);

  it('SIGTERM to the demo alone stops the children it started, exit 143', async () => {
    const tag = randomUUID();
    const { child, all } = startDemo(DEMO, tag);
    await until(() => all().includes('ready; Ctrl-C to stop'), 'the listener', all, {
      timeoutMs: 60_000,
      unless: child,
    });
    expect(tagged(tag).length).toBeGreaterThanOrEqual(HAS_PROC ? 2 : 0);
    child.kill('SIGTERM');
    const r = await child;
    const out = all();
    expect(r.exitCode, out).toBe(143);
    await expectNothingLeft(tag, out, 2);
  }, 120_000);
});
