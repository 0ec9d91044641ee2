// Issue 16, point 11: `webhooks sync --file` refuses an input over 1 MiB (exit 2) before
// parsing it and before any request; and nothing in src/ spreads a possibly large array into a
// function call (`Math.max(...xs)`, `push(...xs)`: "Maximum call stack size exceeded").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { spawnSched } from '../helpers/run.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { startHostileApi } from '../helpers/hostile.js';

const config = useConfigDir('sched-sec-limits-');
let api: Awaited<ReturnType<typeof startHostileApi>>;
beforeAll(async () => {
  api = await startHostileApi();
});
afterAll(() => api.close());

/** A valid sync document of about `bytes` bytes (many distinct webhooks). */
function bigSyncFile(bytes: number): string {
  const entries: string[] = [];
  let size = 20;
  for (let i = 0; size < bytes; i++) {
    const e = JSON.stringify({
      url: `https://hooks.example.com/${i}`,
      events: ['meetingScheduled'],
      secretEnv: 'HOOK_SECRET',
    });
    entries.push(e);
    size += e.length + 1;
  }
  return `{"webhooks":[${entries.join(',')}]}`;
}

describe('11. webhooks sync --file size limit', () => {
  it('a file over 1 MiB is refused with exit 2, before any request', async () => {
    const file = path.join(config.path, 'big.json');
    writeFileSync(file, bigSyncFile(1024 * 1024 + 4096));
    const r = await spawnSched(['webhooks', 'sync', '--file', file, '--dry-run'], {
      env: { ...api.env, SCHED_CONFIG_DIR: config.path, HOOK_SECRET: 'a-secret-0123456789' },
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*big\.json.*too large.*1 MiB/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(api.requests).toHaveLength(0);
  });

  it('the same from stdin', async () => {
    const r = await spawnSched(['webhooks', 'sync', '--file', '-', '--dry-run'], {
      env: { ...api.env, SCHED_CONFIG_DIR: config.path, HOOK_SECRET: 'a-secret-0123456789' },
      input: bigSyncFile(1024 * 1024 + 4096),
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^error: stdin.*too large.*1 MiB/);
    expect(api.requests).toHaveLength(0);
  });

  it('a file just under the limit is still read (and planned)', async () => {
    const file = path.join(config.path, 'fits.json');
    writeFileSync(file, bigSyncFile(1024 * 1024 - 8192));
    const r = await spawnSched(['webhooks', 'sync', '--file', file, '--dry-run', '--json'], {
      env: { ...api.env, SCHED_CONFIG_DIR: config.path, HOOK_SECRET: 'a-secret-0123456789' },
      timeout: 60_000,
    });
    expect(r.code, r.stderr.slice(0, 500)).toBe(0);
    const result = JSON.parse(r.stdout) as { created: unknown[] };
    expect(result.created.length).toBeGreaterThan(5000);
  }, 90_000);
});

describe('11. no spread of an array into a function call in src/', () => {
  it('every call and `new` in src/ passes its arguments one by one', () => {
    const src = fileURLToPath(new URL('../../src', import.meta.url));
    const files = (readdirSync(src, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join(src, f));
    const found: string[] = [];
    for (const file of files) {
      const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
      const visit = (node: ts.Node) => {
        if (
          (ts.isCallExpression(node) || ts.isNewExpression(node)) &&
          node.arguments?.some(ts.isSpreadElement)
        ) {
          const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
          found.push(`${path.relative(src, file)}:${line + 1}: ${node.getText(sf).slice(0, 80)}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(sf);
    }
    expect(found).toEqual([]);
  });
});
