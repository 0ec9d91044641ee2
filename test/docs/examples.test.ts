// Every example in docs/commands/*.md runs as written, as the README's are run in readme.test.ts:
// each page's `$ ` lines run in order in one bash (`set -euo pipefail`), against a fresh sandbox
// (its 127.0.0.1:4010 replaced by the sandbox's address, and the readable ports the examples'
// servers use — 4020, 4021, 3000 — by free ones, as the README test does), in an empty
// directory that is also $HOME, logged in to the sandbox as the profiles `default` and `staging`.
// An example that needs a file, a meeting or a receiver shows how to make it on a line before.
//
// The servers (`sched sandbox`, `sched webhooks listen`, `sched mcp`) are run until they serve: started with
// --port 0 unless the example chose a port, left running for a moment, then stopped with SIGTERM,
// their normal end. Background jobs (`… &`) run as written.
import { afterEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { BIN } from '../helpers/run.js';
import { portWasTaken, withFreeExamplePorts } from '../helpers/ports.js';
import { sandbox as sandboxCommand } from '../../src/commands/sandbox/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pagesDir = join(root, 'docs', 'commands');

/** Interactive examples (they need a person at a terminal), and the tests that run them. */
const RUN_ELSEWHERE: Record<string, string> = {
  'sched auth login': 'test/interactive/prompts.test.ts',
  "sched auth login --key-command 'secret-tool lookup service sched'":
    'test/e2e/secret-service.test.ts',
};

async function examplesOf(page: string): Promise<string[]> {
  const md = await readFile(join(pagesDir, page), 'utf8');
  const block = /^## Examples\n\n```sh\n([\s\S]*?)^```$/m.exec(md)?.[1] ?? '';
  return block
    .split('\n')
    .filter((l) => l.startsWith('$ '))
    .map((l) => l.slice(2));
}

/** The verbs under `sched sandbox` (its actions and readouts), from the command tree. */
const SANDBOX_VERBS = (sandboxCommand.commands ?? []).map((c) => c.name);
/** A server example as the runner runs it: until it serves, then stopped (see above). */
const SERVER = new RegExp(
  `\\bsched (sandbox(?! (${SANDBOX_VERBS.join('|')})\\b)|webhooks listen|mcp)\\b`,
);
/** The servers that listen on a port (`sched mcp` serves on stdio). */
const LISTENS = /\bsched (sandbox|webhooks listen)\b/;

function scriptLine(line: string): string {
  if (RUN_ELSEWHERE[line]) return `: ${line}`;
  if (!SERVER.test(line) || /&(\s+sleep \d+)?\s*$/.test(line)) return line;
  const own =
    /--port \d+/.test(line) || !LISTENS.test(line)
      ? line
      : line.replace(SERVER, (m) => `${m} --port 0`);
  return `serve ${JSON.stringify(own)}`;
}

const PRELUDE = `set -euo pipefail
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
# Runs a server example in its own process group until it serves, then ends it as SIGTERM does.
serve() {
  set -m
  ( eval "$1" ) &
  local pid=$!
  set +m
  sleep 2
  if ! kill -0 "$pid" 2>/dev/null; then
    wait "$pid" || true
    echo "the server example ended by itself: $1" >&2
    return 1
  fi
  kill -TERM -- -"$pid"
  wait "$pid" || true
}
`;

const pages = (await readdir(pagesDir)).filter((p) => p.endsWith('.md')).sort();
let sandbox: TestSandbox | undefined;
let dir: string | undefined;

afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function runPage(lines: string[]) {
  sandbox = await startTestSandbox();
  dir = await mkdtemp(join(tmpdir(), 'sched-doc-examples-'));
  await mkdir(join(dir, 'bin'));
  const wrapper = join(dir, 'bin', 'sched');
  await writeFile(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  await chmod(wrapper, 0o755);
  const port = new URL(sandbox.baseUrl).port;
  const env = {
    PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`,
    HOME: dir,
    SCHED_CONFIG_DIR: join(dir, 'config'),
    NO_COLOR: '1',
  };
  for (const profile of ['default', 'staging']) {
    const login = await execa(
      'sched',
      ['auth', 'login', '--with-key', '--profile', profile, '--base-url', sandbox.baseUrl],
      { cwd: dir, env, extendEnv: false, input: sandbox.apiKey, reject: false },
    );
    expect(login.exitCode, login.stderr).toBe(0);
  }
  for (let attempt = 1; ; attempt++) {
    const script =
      PRELUDE +
      (await withFreeExamplePorts(lines.map(scriptLine).join('\n'))).replaceAll(
        '127.0.0.1:4010',
        `127.0.0.1:${port}`,
      );
    const r = await execa('bash', ['-c', script], {
      cwd: dir,
      env,
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    if (r.exitCode === 0 || attempt === 3 || !portWasTaken(r.stderr)) return r;
  }
}

describe('docs/commands examples', () => {
  it('the sandbox verbs are read from the command tree, so a new action is not run as a server', () => {
    expect(SANDBOX_VERBS).toEqual(expect.arrayContaining(['book', 'meetings', 'deliveries']));
    for (const verb of SANDBOX_VERBS) expect(SERVER.test(`sched sandbox ${verb} x`), verb).toBe(false);
    expect(SERVER.test('sched sandbox --port 0')).toBe(true);
    expect(SERVER.test('sched sandboxes')).toBe(false);
  });

  it('every page with examples is found, and the interactive ones are run elsewhere', async () => {
    const all = (await Promise.all(pages.map(examplesOf))).flat();
    expect(all.length).toBeGreaterThanOrEqual(50);
    for (const [line, file] of Object.entries(RUN_ELSEWHERE)) {
      expect(all, line).toContain(line);
      expect(existsSync(join(root, file)), file).toBe(true);
    }
  });

  for (const page of pages) {
    it(`${page}: every example runs as written`, async () => {
      const lines = await examplesOf(page);
      if (lines.length === 0) return;
      const r = await runPage(lines);
      expect(r.exitCode, `${lines.join('\n')}\n--- stdout:\n${r.stdout}\n--- stderr:\n${r.stderr}`).toBe(0);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stderr).not.toMatch(/unexpected failure/);
    }, 90_000);
  }
});
