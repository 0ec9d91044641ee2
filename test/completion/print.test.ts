// `sched completion <shell>` and the committed scripts in completions/.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { runSched, spawnSched } from '../helpers/run.js';

const FILES = { bash: 'sched.bash', zsh: '_sched', fish: 'sched.fish' } as const;

describe('sched completion <shell>', () => {
  it.each(Object.keys(FILES) as Array<keyof typeof FILES>)(
    'prints the %s script, identical to the one in completions/',
    async (shell) => {
      const r = await runSched(['completion', shell]);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      const file = new URL(`../../completions/${FILES[shell]}`, import.meta.url);
      const committed = readFileSync(file, 'utf8');
      // On failure: the command tree changed; regenerate with `node scripts/gen-completions.mjs`.
      expect(
        r.stdout === committed,
        `completions/${FILES[shell]} is out of date: run \`node scripts/gen-completions.mjs\``,
      ).toBe(true);
    },
  );

  it('prints the fish script of the second name, identical to completions/schedcli.fish', async () => {
    // fish loads one completion file per command name; bash and zsh scripts cover both names.
    const r = await runSched(['completion', 'fish'], { name: 'schedcli' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^complete -c schedcli -f$/m);
    expect(r.stdout).not.toMatch(/^complete -c sched /m);
    const committed = readFileSync(new URL('../../completions/schedcli.fish', import.meta.url));
    expect(r.stdout === committed.toString(), 'run `node scripts/gen-completions.mjs`').toBe(true);
  });

  it.each(['bash', 'zsh'])(
    'the %s script completes both names, whichever prints it',
    async (shell) => {
      const r = await runSched(['completion', shell]);
      expect(r.stdout).toMatch(
        shell === 'bash' ? /^complete -F _sched sched schedcli$/m : /^#compdef sched schedcli$/m,
      );
      expect((await runSched(['completion', shell], { name: 'schedcli' })).stdout).toBe(r.stdout);
    },
  );

  it('rejects an unknown shell with exit 2 naming the three it supports', async () => {
    const r = await runSched(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unknown shell "tcsh"/);
    expect(r.stderr).toMatch(/bash, zsh, fish/);
  });

  it('says which argument is missing', async () => {
    const r = await runSched(['completion']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing required argument 'shell'/);
  });

  it('keeps the hidden __complete command out of help', async () => {
    const r = await runSched(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('completion');
    expect(r.stdout).not.toContain('__complete');
  });

  it('prints the script from the built binary too', async () => {
    const r = await spawnSched(['completion', 'bash']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# bash completion for sched/);
    expect(r.stdout).toContain('complete -F _sched sched');
    expect(r.stderr).toBe('');
  });
});
