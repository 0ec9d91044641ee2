// Issue 16, point 7: a --secret value on the command line is visible to other users (`ps`,
// /proc/<pid>/cmdline) for as long as the process runs. The flag stays (the contract has it),
// but its help says so, and no example — in --help, the README or a guide — teaches it with a value.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { runSched, spawnSched } from '../helpers/run.js';
import { GUIDES } from '../docs/guides.js';

const COMMANDS = [
  ['webhooks', 'listen'],
  ['events', 'send'],
  ['sig', 'sign'],
  ['sig', 'verify'],
];

/** `--secret <value>` or `--secret=<value>`; `--secret-stdin` and a bare mention are fine. */
const SECRET_WITH_VALUE = /--secret(?:\s+|=)(?!-)\S/;

describe('7. --secret is visible to other users', () => {
  for (const argv of COMMANDS) {
    it(`sched ${argv.join(' ')} --help says so, and its examples do not use it`, async () => {
      const r = await spawnSched([...argv, '--help']);
      expect(r.code).toBe(0);
      const secretHelp = r.stdout
        .split('\n')
        .slice(r.stdout.split('\n').findIndex((l) => /^\s*--secret\b/.test(l)))
        .slice(0, 4)
        .join(' ')
        .replace(/\s+/g, ' ');
      expect(secretHelp).toMatch(/visible to other users/i);
      expect(secretHelp).toMatch(/SCHED_WEBHOOK_SECRET/);
      const examples = r.stdout.slice(r.stdout.indexOf('Examples:'));
      expect(examples).not.toMatch(SECRET_WITH_VALUE);
    });
  }

  it('no example in --help of any command passes a secret value on the command line', async () => {
    const groups = ['auth', 'webhooks', 'events', 'sig', 'sandbox', 'types', 'link'];
    for (const g of groups) {
      const top = await runSched([g, '--help']);
      const commands = top.stdout.slice(top.stdout.indexOf('Commands:'));
      const subs = [...commands.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!);
      for (const s of ['', ...subs.filter((x) => x !== 'help')]) {
        const r = await runSched(s ? [g, s, '--help'] : [g, '--help']);
        const at = r.stdout.indexOf('Examples:');
        if (at < 0) continue;
        expect(r.stdout.slice(at), `sched ${g} ${s} --help`).not.toMatch(SECRET_WITH_VALUE);
      }
    }
  });

  it('the README and guide examples use SCHED_WEBHOOK_SECRET or the prompt, not --secret <value>', () => {
    const readme = GUIDES.map((p) =>
      readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8'),
    ).join('\n');
    const code = [...readme.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]!).join('\n');
    const offending = code.split('\n').filter((l) => SECRET_WITH_VALUE.test(l));
    expect(offending).toEqual([]);
    expect(readme).toMatch(/visible to other users/i);
  });
});
