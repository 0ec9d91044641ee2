// docs/ (the command reference) and sched.1 (the man page) are generated from the command
// definitions; this test fails when a command, flag, example, JSON shape or exit code changed
// and they were not regenerated (`node scripts/gen-docs.mjs`), and checks that the man page
// renders and covers every command and flag.
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedFiles, MAN_PAGE } from '../../src/docs/files.js';
import { buildReference } from '../../src/docs/model.js';
import { unavailable } from '../helpers/skip.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const files = await generatedFiles();
const REGENERATE = 'run `node scripts/gen-docs.mjs`';

describe('generated reference', () => {
  it.each([...files.keys()])('%s is up to date', (path) => {
    const full = join(root, path);
    expect(existsSync(full), `${path} is missing: ${REGENERATE}`).toBe(true);
    expect(readFileSync(full, 'utf8') === files.get(path), `${path} is stale: ${REGENERATE}`).toBe(
      true,
    );
  });

  it('docs/commands holds no page of a command that no longer exists', () => {
    const committed = readdirSync(join(root, 'docs', 'commands')).map((f) => `docs/commands/${f}`);
    expect(committed.filter((f) => !files.has(f))).toEqual([]);
  });

  it('has a page for every visible command, with its flags and defaults', async () => {
    const ref = await buildReference();
    const add = files.get('docs/commands/sched-webhooks-add.md')!;
    expect(add).toContain('`--no-secret`');
    const listen = files.get('docs/commands/sched-webhooks-listen.md')!;
    expect(listen).toMatch(/\| `--port <n>` \| .* \| `4020` \|/);
    for (const c of ref.commands) {
      const page = files.get(`docs/commands/sched-${c.path.join('-')}.md`);
      expect(page, c.path.join(' ')).toBeDefined();
      for (const o of c.options) expect(page).toContain(o.flags);
    }
    expect(ref.commands.some((c) => c.path.includes('__complete'))).toBe(false);
  });

  it('package.json installs the man page', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      man?: string[];
      files?: string[];
    };
    expect(pkg.man).toContain(`./${MAN_PAGE}`);
    expect(pkg.files).toContain(MAN_PAGE);
  });
});

const groff = await execa('groff', ['--version'], { reject: false }).catch(() => undefined);

describe.skipIf(
  unavailable((!groff || groff.exitCode !== 0) && 'groff is not installed (apt-get install groff-base)'),
)('sched.1 renders', () => {
  it('without warnings, with every command, flag, variable and exit code', async () => {
    const r = await execa('groff', ['-man', '-Tutf8', '-ww', join(root, MAN_PAGE)], {
      env: { LC_ALL: 'C.UTF-8' },
    });
    expect(r.stderr).toBe('');
    // Undo hyphenation and bold/underline overstrikes, then join the words back up.
    const text = r.stdout
      // eslint-disable-next-line no-control-regex
      .replace(/.\x08/g, '')
      .replace(/\u2010\n\s*/g, '')
      .replace(/\s+/g, ' ');
    const ref = await buildReference();
    for (const c of ref.commands) {
      expect(text).toContain(`sched ${c.path.join(' ')}`);
      for (const o of c.options) expect(text).toContain(o.flags.replace(/\s+/g, ' '));
    }
    for (const [name] of ref.environment) expect(text).toContain(name);
    for (const [code] of ref.exitCodes) expect(text).toMatch(new RegExp(`\\b${code}\\b`));
    expect(text).toContain('EXIT STATUS');
  });
});
