// The sandbox's default port lives in one constant (src/defaults.ts, which imports
// nothing, so registration code and the config store load it for free). One table over the
// places that show or use it.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProgram } from '../../src/cli.js';
import { KNOWN_BASE_URLS } from '../../src/config/profiles.js';
import { DEFAULT_SANDBOX_BASE_URL, DEFAULT_SANDBOX_PORT } from '../../src/defaults.js';
import { runSched } from '../helpers/run.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

describe('the default sandbox port', () => {
  it('is what every caller shows and uses', async () => {
    const sandbox = (await buildProgram(() => async () => {})).commands.find(
      (c) => c.name() === 'sandbox',
    )!;
    const rows: Array<[string, unknown, unknown]> = [
      [
        'sandbox --port default',
        sandbox.options.find((o) => o.long === '--port')?.defaultValue,
        DEFAULT_SANDBOX_PORT,
      ],
      ['the base URL', new URL(DEFAULT_SANDBOX_BASE_URL).port, String(DEFAULT_SANDBOX_PORT)],
      [
        'auth login choices',
        KNOWN_BASE_URLS.find((b) => b.name === 'Local sandbox')?.url,
        DEFAULT_SANDBOX_BASE_URL,
      ],
    ];
    for (const [what, got, want] of rows) expect(got, what).toEqual(want);
    const help = await runSched(['sandbox', 'book', '--help']);
    expect(help.stdout).toContain(`http://127.0.0.1:${DEFAULT_SANDBOX_PORT}/s/`);
    const hint = await runSched(['sandbox', 'book', 'http://127.0.0.1:1/not-a-link']);
    expect(hint.code).toBe(2);
    expect(hint.stderr).toContain(`http://127.0.0.1:${DEFAULT_SANDBOX_PORT}/s/<code>`);
  });

  it('is written as a number nowhere else in the code (comments aside)', () => {
    const literal = String(DEFAULT_SANDBOX_PORT);
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith('.ts') && p !== path.join(SRC, 'defaults.ts')) {
          readFileSync(p, 'utf8')
            .split('\n')
            .forEach((line, i) => {
              const code = line.trim();
              if (/^(\/\/|\/\*|\*)/.test(code)) return;
              if (code.includes(literal)) offenders.push(`${path.relative(SRC, p)}:${i + 1}`);
            });
        }
      }
    };
    walk(SRC);
    expect(offenders).toEqual([]);
  });

  it('costs nothing to import: the constants module imports nothing', () => {
    const text = readFileSync(path.join(SRC, 'defaults.ts'), 'utf8');
    expect(text).not.toMatch(/^\s*import\b/m);
  });
});
