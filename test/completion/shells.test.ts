// Tab completion as each real shell performs it, from the scripts `sched completion` prints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  complete,
  createWorkspace,
  hasCommand,
  shellTitle,
  type ShellName,
  type ShellWorkspace,
} from './shells.js';

const EVENTS = ['meetingCancelled', 'meetingRescheduled', 'meetingScheduled'];
const sorted = (xs: string[]) => [...xs].sort();

describe.each(['bash', 'zsh', 'fish'] as ShellName[])('%s', (shell) => {
  describe.skipIf(!hasCommand(shell))(shellTitle(shell, 'completion in a real shell'), () => {
    let ws: ShellWorkspace;
    const c = (line: string) => complete(shell, ws, line);

    beforeAll(async () => {
      ws = await createWorkspace();
      mkdirSync(join(ws.dir, 'files'));
      writeFileSync(join(ws.dir, 'files', 'hooks.json'), '{}');
      writeFileSync(join(ws.dir, 'files', 'hooks.yaml'), '');
    });
    afterAll(() => ws?.cleanup());

    it('completes commands and subcommands', async () => {
      expect(await c('sched web')).toEqual(['webhooks']);
      expect(await c('sched webhooks a')).toEqual(['add']);
      expect(sorted(await c('sched webhooks '))).toEqual(['add', 'listen', 'ls', 'rm', 'sync']);
      expect(await c('sched sandbox r')).toEqual(['reschedule']);
    });

    it('lists every visible command and never the hidden one', async () => {
      const top = await c('sched ');
      for (const name of ['auth', 'profiles', 'types', 'link', 'webhooks', 'events', 'sig']) {
        expect(top).toContain(name);
      }
      expect(top).toContain('sandbox');
      expect(top).toContain('completion');
      expect(top.some((x) => x.startsWith('__'))).toBe(false);
      expect(await c('sched __')).toEqual([]);
    });

    it('follows aliases and global flags placed before the command', async () => {
      expect(await c('sched --json types l')).toEqual(['list']);
      expect(await c('sched -o csv --profile work webhooks l')).toEqual(
        expect.arrayContaining(['listen', 'ls']),
      );
      expect(await c('sched webhooks delete --y')).toEqual(['--yes']);
    });

    it("completes a command's flags together with the global ones", async () => {
      expect(await c('sched types list --o')).toEqual(['--output']);
      const rm = await c('sched webhooks rm --');
      expect(rm).toEqual(
        expect.arrayContaining(['--all', '--url', '--yes', '--json', '--profile']),
      );
      expect(rm).not.toContain('--event');
      expect(await c('sched webhooks add --if')).toEqual(['--if-absent']);
    });

    it('completes output formats, event names and shells', async () => {
      expect(sorted(await c('sched -o '))).toEqual(['csv', 'json', 'ndjson', 'table']);
      expect(sorted(await c('sched types list --output '))).toEqual([
        'csv',
        'json',
        'ndjson',
        'table',
      ]);
      expect(sorted(await c('sched webhooks add --event '))).toEqual(EVENTS);
      expect(sorted(await c('sched webhooks listen --event meetingR'))).toEqual([
        'meetingRescheduled',
      ]);
      expect(sorted(await c('sched completion '))).toEqual(['bash', 'fish', 'zsh']);
      expect(sorted(await c('sched events sample '))).toEqual(EVENTS);
      expect(await c('sched events send meetingC')).toEqual(['meetingCancelled']);
    });

    it('completes a value written as --flag=value', async () => {
      const got = await c('sched webhooks add --event=meetingS');
      // fish offers the whole word, bash and zsh the part after "=".
      expect(got.map((x) => x.replace(/^--event=/, ''))).toEqual(['meetingScheduled']);
    });

    it('completes file names for --file, --payload-file and --state', async () => {
      const dir = join(ws.dir, 'files') + '/';
      for (const line of [
        `sched webhooks sync --file ${dir}hooks.`,
        `sched events send meetingScheduled --to http://x --payload-file ${dir}hooks.`,
        `sched sandbox --state ${dir}hooks.`,
      ]) {
        expect(sorted((await c(line)).map((f) => basename(f))), line).toEqual([
          'hooks.json',
          'hooks.yaml',
        ]);
      }
    });

    it('offers nothing for free-form values and no argument past the last', async () => {
      expect(await c('sched webhooks ls --limit ')).toEqual([]);
      // zsh offers the flags when no argument may follow; that is its usual behaviour.
      const words = async (line: string) => (await c(line)).filter((x) => !x.startsWith('-'));
      expect(await words('sched completion bash ')).toEqual([]);
      expect(await words('sched events sample meetingScheduled ')).toEqual([]);
    });

    it('completes help topics and commands after `help`', async () => {
      const got = await c('sched help e');
      expect(sorted(got)).toEqual(['environment', 'events', 'exit-codes']);
    });
  });
});
