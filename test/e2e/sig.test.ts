// `sched sig` through the built binary: exit codes, the stdout/stderr split, agreement with
// openssl, and that verifying loads neither the HTTP stack, the config store nor the prompts.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { BIN, spawnSched } from '../helpers/run.js';
import { opensslSign } from '../helpers/openssl.js';
import { unavailable } from '../helpers/skip.js';

const FIXTURE = new URL('../fixtures/real-delivery.json', import.meta.url).pathname;
const SECRET = 'e2e-secret-77';

describe('sched sig (built binary)', () => {
  it('sign agrees with openssl over the real delivery', async (t) => {
    const expected = opensslSign(SECRET, FIXTURE);
    if (unavailable(!expected && 'openssl is not installed: no cross-check')) {
      t.skip();
      return;
    }
    const r = await spawnSched(['sig', 'sign', '--secret', SECRET, '--payload-file', FIXTURE]);
    expect(r).toEqual({ code: 0, stdout: expected + '\n', stderr: '' });
  });

  it('verify exits 0 valid, 1 invalid, 2 on usage errors', async () => {
    const sig = (
      await spawnSched(['sig', 'sign', '--payload-file', FIXTURE], {
        env: { SCHED_WEBHOOK_SECRET: SECRET },
      })
    ).stdout.trim();

    const ok = await spawnSched(['sig', 'verify', '--signature', sig, '--secret', SECRET], {
      input: readFileSync(FIXTURE),
    });
    expect(ok).toEqual({ code: 0, stdout: 'valid\n', stderr: '' });

    const bad = await spawnSched(['sig', 'verify', '--signature', sig, '--secret', 'wrong'], {
      input: readFileSync(FIXTURE),
    });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('invalid\n');
    expect(bad.stderr).toMatch(/^error: the signature does not match the payload from stdin\n/);

    const json = await spawnSched(
      ['--json', 'sig', 'verify', '--signature', `${sig}x`, '--payload-file', FIXTURE],
      { env: { SCHED_WEBHOOK_SECRET: SECRET } },
    );
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      valid: false,
      reason: expect.stringMatching(/payload bytes or the secret differ/),
    });

    const noSecret = await spawnSched(
      ['sig', 'verify', '--signature', sig, '--payload-file', FIXTURE],
      {
        env: { SCHED_WEBHOOK_SECRET: '' },
      },
    );
    expect(noSecret.code).toBe(2);
    expect(noSecret.stdout).toBe('');
    expect(noSecret.stderr).toMatch(/--secret <secret> or set SCHED_WEBHOOK_SECRET/);

    const noSig = await spawnSched([
      'sig',
      'verify',
      '--secret',
      SECRET,
      '--payload-file',
      FIXTURE,
    ]);
    expect(noSig.code).toBe(2);
    expect(noSig.stderr).toMatch(/--signature/);
  });

  it('verify loads neither undici, conf nor @inquirer/prompts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sched-load-'));
    const log = join(dir, 'loaded.txt');
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(${JSON.stringify(log)}, url + '\\n');
  return next(url, context);
}`,
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});`,
    );
    const r = await execa(
      process.execPath,
      [
        '--import',
        pathToFileURL(join(dir, 'register.mjs')).href,
        BIN,
        'sig',
        'verify',
        '--signature',
        'abc',
        '--secret',
        'k',
        '--payload-file',
        FIXTURE,
      ],
      { reject: false },
    );
    expect(r.exitCode).toBe(1);
    const files = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((u) => new URL(u).pathname);
    expect(files.some((f) => f.includes('/dist/'))).toBe(true);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      // Markers of each library's own code (error codes and class names only they define).
      expect(text.includes('UND_ERR_CONNECT_TIMEOUT'), `${f} carries undici`).toBe(false);
      expect(text.includes('ExitPromptError'), `${f} carries @inquirer/prompts`).toBe(false);
      expect(text.includes('projectSuffix'), `${f} carries conf`).toBe(false);
    }
  });
});
