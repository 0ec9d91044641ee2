// Every command the README and the guides in docs/ show is run here, so the docs cannot rot: each
// ```sh block runs in bash against a fresh sandbox (its 127.0.0.1:4010 replaced by the sandbox's
// address, and the readable ports of the servers an example starts — 4020, 4021, 3000 — by
// free ones), and every `sched <command>` shown anywhere else must be covered by a named test.
import { afterEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { shellHome } from '../helpers/run.js';

import { portWasTaken, withFreeExamplePorts } from '../helpers/ports.js';
import { unavailable } from '../helpers/skip.js';
import { GUIDES } from './guides.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pages = await Promise.all(
  GUIDES.map(async (page) => ({ page, md: await readFile(join(root, page), 'utf8') })),
);

interface Block {
  lang: string;
  code: string;
  line: number;
}

function codeBlocks(md: string): Block[] {
  const blocks: Block[] = [];
  const re = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (let m = re.exec(md); m; m = re.exec(md)) {
    blocks.push({
      lang: m[1] ?? '',
      code: m[2] ?? '',
      line: md.slice(0, m.index).split('\n').length,
    });
  }
  return blocks;
}

/** The command paths (`webhooks sync`, `types list`, `sandbox`) that a snippet of shell runs. */
function commandPaths(code: string): string[] {
  const paths: string[] = [];
  const re = /(?:^|[\s|;&($`])sched((?:\s+(?:[a-z][a-z-]*))+)/gm;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    const words = (m[1] ?? '').trim().split(/\s+/);
    const known = [
      'auth',
      'profiles',
      'types',
      'link',
      'webhooks',
      'events',
      'sig',
      'sandbox',
      'api',
      'mcp',
      'completion',
      'help',
    ];
    if (!known.includes(words[0]!)) continue;
    const withVerb = ['sandbox', 'api', 'mcp', 'completion', 'help'].includes(words[0]!)
      ? words[0] === 'sandbox' && ['book', 'cancel', 'reschedule'].includes(words[1] ?? '')
        ? words.slice(0, 2)
        : words.slice(0, 1)
      : words.slice(0, 2);
    paths.push(withVerb.join(' '));
  }
  return paths;
}

/** Commands shown outside runnable blocks, and the tests that run them instead. */
const COVERED_ELSEWHERE: Record<string, string> = {
  sandbox: 'test/e2e/sandbox.test.ts',
  'auth login': 'test/commands/auth/auth.test.ts',
  completion: 'test/completion/shells.test.ts',
  help: 'test/cli.test.ts',
  mcp: 'test/e2e/mcp-inspector.test.ts',
};

/** What some examples must print, beyond succeeding (the comments in the pages promise it). */
const EXPECTED_OUTPUT: Array<[marker: string, stdout: RegExp]> = [
  ['deliveries.ndjson', /meetingScheduled valid\nmeetingScheduled missing/],
  ['events replay capture.ndjson', /^line 1 {2}meetingScheduled [0-9a-f-]{36} {2}204 No Content in \d+ ms$/m],
  ['sig verify', /^valid$/m],
  ['second run', /0 created, 0 replaced, 0 deleted, 2 unchanged/],
  ['a used link cannot be booked again', /exit 2: a used link cannot be booked again/],
  ['auth status', /"valid":true/],
];

let sandbox: TestSandbox | undefined;
let dir: string | undefined;

afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Runs shell code in bash as a reader would, `sched` on the PATH, against the sandbox. */
async function runShell(code: string, timeout = 30_000) {
  for (let attempt = 1; ; attempt++) {
    sandbox = await startTestSandbox();
    dir = await mkdtemp(join(tmpdir(), 'sched-readme-'));
    const env = await shellHome(dir);
    const port = new URL(sandbox.baseUrl).port;
    const script =
      "set -euo pipefail\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n" +
      (await withFreeExamplePorts(code)).replaceAll('127.0.0.1:4010', `127.0.0.1:${port}`);
    const r = await execa('bash', ['-c', script], {
      cwd: dir,
      env,
      extendEnv: false,
      reject: false,
      timeout,
    });
    if (r.exitCode === 0 || attempt === 3 || !portWasTaken(r.stderr)) return r;
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const toolsOf = (code: string) =>
  ['jq', 'openssl'].filter((t) => new RegExp(`\\b${t}\\b`).test(code));
const missingOf = (tools: string[]) =>
  tools.filter((t) => !process.env.PATH?.split(':').some((p) => existsSync(join(p, t))));
const notInstalled = (code: string) => {
  const missing = missingOf(toolsOf(code));
  return missing.length > 0 && `${missing.join(', ')} not installed`;
};

describe('the README and the guides', () => {
  it('the README links to every guide, and docs/README.md indexes them', async () => {
    const readme = pages.find((p) => p.page === 'README.md')!.md;
    const index = await readFile(join(root, 'docs', 'README.md'), 'utf8');
    for (const page of GUIDES.filter((p) => p !== 'README.md')) {
      expect(readme, page).toContain(`](${page})`);
      expect(index, page).toContain(`](${page.slice('docs/'.length)})`);
    }
  });

  it('the README stays short: a newcomer reads it in ten minutes', () => {
    const readme = pages.find((p) => p.page === 'README.md')!.md;
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('have runnable examples', () => {
    expect(pages.flatMap((p) => codeBlocks(p.md).filter((b) => b.lang === 'sh')).length).toBeGreaterThanOrEqual(9);
  });

  it('cover every command they show, by running it here or in a named test', () => {
    const blocks = pages.flatMap((p) => codeBlocks(p.md));
    const run = new Set(blocks.filter((b) => b.lang === 'sh').flatMap((b) => commandPaths(b.code)));
    const shown = new Set(blocks.flatMap((b) => commandPaths(b.code)));
    for (const path of shown) {
      if (run.has(path)) continue;
      const elsewhere = COVERED_ELSEWHERE[path];
      expect(elsewhere, `the docs show "sched ${path}" but no test runs it`).toBeDefined();
      expect(existsSync(join(root, elsewhere!)), elsewhere).toBe(true);
    }
  });

  // `… | xargs sched …` runs sched once with no argument when nothing comes down the pipe
  // (GNU xargs), and `set -o pipefail` scripts then stop with 123: each such line, run against
  // a sandbox where nothing matches, must end 0 (`xargs -r`).
  it('an `| xargs sched …` line ends 0 when nothing comes down the pipe', async () => {
    const cases = pages.flatMap((p) =>
      codeBlocks(p.md)
        .filter((b) => b.lang === 'sh')
        .flatMap((b) => {
          const exports = b.code.split('\n').filter((l) => l.startsWith('export '));
          return b.code
            .split('\n')
            .filter((l) => /\|\s*xargs\b.*\bsched\b/.test(l))
            .map((l) => [...exports, l.replace(/\s+#.*$/, '')].join('\n'));
        }),
    );
    expect(cases.length).toBeGreaterThanOrEqual(1);
    for (const code of cases) {
      const r = await runShell(code);
      expect(r.exitCode, `${code}\n${r.stderr}`).toBe(0);
      await sandbox?.close();
      sandbox = undefined;
    }
  });

  // The completion set-up lines: test/completion/setup.test.ts runs each in a fresh HOME and
  // presses TAB in a real shell that reads it.
});

for (const { page, md } of pages) {
  const shBlocks = codeBlocks(md).filter((b) => b.lang === 'sh');
  if (shBlocks.length === 0) continue;
  describe(page, () => {
    for (const [i, block] of shBlocks.entries()) {
      const title = `example ${i + 1} (line ${block.line}): ${commandPaths(block.code).slice(0, 4).join(', ')}`;
      it.skipIf(unavailable(notInstalled(block.code)))(
        title,
        async () => {
          const r = await runShell(block.code);
          expect(r.exitCode, `stdout:\n${r.stdout}\nstderr:\n${r.stderr}`).toBe(0);
          expect(r.stderr).not.toMatch(/\n\s+at /);
          expect(r.stderr).not.toMatch(/unexpected failure/);
          for (const [marker, stdout] of EXPECTED_OUTPUT) {
            if (block.code.includes(marker)) expect(r.stdout, marker).toMatch(stdout);
          }
        },
        40_000,
      );
    }

    // A reader runs a page's sections one after another in one shell, against one sandbox:
    // webhooks one section made must not be left for the next, where the sandbox would try to
    // deliver to their example URLs (DNS errors, retries) while the reader books a link.
    if (shBlocks.length < 2) return;
    const all = shBlocks.map((b) => b.code).join('\n');
    it.skipIf(unavailable(notInstalled(all)))(
      'run in order in one shell, each section leaves no webhook behind for the next',
      async () => {
        const marks = shBlocks.map(
          (b, i) => `${b.code}\necho "after example ${i + 1}: $(sched webhooks ls --json)"\n`,
        );
        // Every section in turn: the sum of their times, with room for a loaded machine.
        const r = await runShell(marks.join('\n'), 110_000);
        expect(r.exitCode, `stdout:\n${r.stdout}\nstderr:\n${r.stderr}`).toBe(0);
        const after = [...r.stdout.matchAll(/^after example (\d+): (.*)$/gm)];
        expect(after).toHaveLength(shBlocks.length);
        for (const [, n, list] of after) expect(JSON.parse(list!), `after example ${n}`).toEqual([]);
      },
      120_000,
    );
  });
}

describe("docs/sandbox.md's library example", () => {
  const js = pages.flatMap((p) => codeBlocks(p.md)).filter((b) => b.lang === 'js' && b.code.includes("'sched/sandbox'"));

  it('is there', () => {
    expect(js).toHaveLength(1);
  });

  it('runs as written (the package imports itself by name), and prints what its comments say', async () => {
    // Inside the package (.tmp/ is ignored by git), `sched/sandbox` resolves to the package
    // itself through its "exports", as it does for a user who installed it.
    const here = join(root, '.tmp');
    await mkdir(here, { recursive: true });
    const work = await mkdtemp(join(here, 'readme-library-'));
    try {
      const file = join(work, 'example.mjs');
      await writeFile(file, js[0]!.code);
      const r = await execa(process.execPath, [file], { cwd: work, reject: false, timeout: 30_000 });
      expect(r.exitCode, `stdout:\n${r.stdout}\nstderr:\n${r.stderr}`).toBe(0);
      expect(r.stdout).toContain("[ 'meetingScheduled delivered' ]");
      expect(r.stdout).toContain('link_used');
      expect(r.stdout).toMatch(
        /\{ event: 'meetingScheduled', valid: true \},\s+\{ event: 'meetingCancelled', valid: true \}/,
      );
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }, 40_000);
});
