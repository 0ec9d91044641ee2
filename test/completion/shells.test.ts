// Tab completion as each real shell performs it, from the scripts `sched completion` prints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { basename, join } from 'node:path';
import { execa } from 'execa';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import {
  complete,
  createWorkspace,
  noShell,
  shellTitle,
  type ShellName,
  type ShellWorkspace,
  zshComplete,
} from './shells.js';
import { EVENT_NAMES } from '../../src/api/types.js';
import { OUTPUT_FORMATS } from '../../src/output/formats.js';

const EVENTS = [...EVENT_NAMES].sort();
const FORMATS = [...OUTPUT_FORMATS].sort();
const sorted = (xs: string[]) => [...xs].sort();

describe.each(['bash', 'zsh', 'fish'] as ShellName[])('%s', (shell) => {
  describe.skipIf(noShell(shell))(shellTitle(shell, 'completion in a real shell'), () => {
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
      // A URL value is one word, however readline splits it at ":".
      expect(await c('sched --base-url http://127.0.0.1:9/api webhooks a')).toEqual(['add']);
      expect(await c('sched --base-url=http://127.0.0.1:9/api types l')).toEqual(['list']);
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
      expect(sorted(await c('sched -o '))).toEqual(FORMATS);
      expect(sorted(await c('sched types list --output '))).toEqual(FORMATS);
      expect(sorted(await c('sched webhooks add --event '))).toEqual(EVENTS);
      expect(sorted(await c('sched webhooks listen --event meetingR'))).toEqual([
        'meetingRescheduled',
      ]);
      expect(sorted(await c('sched completion '))).toEqual(['bash', 'fish', 'zsh']);
      expect(sorted(await c('sched events sample '))).toEqual(EVENTS);
      expect(await c('sched events send meetingC')).toEqual(['meetingCancelled']);
    });

    it('completes the known API paths and the methods for sched api', async () => {
      expect(sorted(await c('sched api '))).toEqual([
        '/single-use-link',
        '/users/me/meeting-types',
        '/webhooks',
        '/webhooks/',
      ]);
      expect(sorted(await c('sched api /webhooks -X '))).toEqual([
        'DELETE',
        'GET',
        'PATCH',
        'POST',
        'PUT',
      ]);
      expect(await c('sched api /webhooks --method PA')).toEqual(['PATCH']);
    });

    it('completes a value written as --flag=value', async () => {
      const got = await c('sched webhooks add --event=meetingS');
      // fish offers the whole word, bash and zsh the part after "=".
      expect(got.map((x) => x.replace(/^--event=/, ''))).toEqual(['meetingScheduled']);
    });

    it('completes file names for --file, --payload-file, --state and --input', async () => {
      const dir = join(ws.dir, 'files') + '/';
      for (const line of [
        `sched api webhooks --input ${dir}hooks.`,
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

// Values from the config file and the API, through `sched __complete` on PATH.
describe.each(['bash', 'zsh', 'fish'] as ShellName[])('%s', (shell) => {
  describe.skipIf(noShell(shell))(shellTitle(shell, 'completion of runtime values'), () => {
    let ws: ShellWorkspace;
    let sb: TestSandbox;
    let webhookUuid: string;
    let silent: Server;
    let silentUrl: string;
    const held: Socket[] = [];
    const c = (line: string, env: Record<string, string> = {}) =>
      complete(shell, ws, line, { ...sb.env, ...env });

    beforeAll(async () => {
      ws = await createWorkspace();
      sb = await startTestSandbox();
      mkdirSync(join(ws.dir, 'config'), { mode: 0o700 });
      writeFileSync(
        join(ws.dir, 'config', 'config.json'),
        JSON.stringify({
          profiles: {
            default: { baseUrl: sb.baseUrl, apiKey: sb.apiKey },
            staging: { baseUrl: 'https://staging.example.com/api', apiKey: 'k' },
          },
        }),
      );
      const res = await sb.api('/webhooks', {
        method: 'POST',
        body: JSON.stringify({
          url: 'https://example.com/h',
          events: ['meetingCancelled'],
          secret: 'x',
        }),
      });
      webhookUuid = ((await res.json()) as { uuid: string }).uuid;
      // Accepts connections and never answers.
      silent = createServer((s) => held.push(s));
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
      silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}/api`;
    });
    afterAll(async () => {
      held.forEach((s) => s.destroy());
      await new Promise<void>((r) => silent?.close(() => r()));
      await sb?.close();
      ws?.cleanup();
    });

    it('completes profile names from the config file', async () => {
      expect(sorted(await c('sched --profile '))).toEqual(['default', 'staging']);
      expect(await c('sched types list --profile st')).toEqual(['staging']);
    });

    it('completes meeting-type slugs for link create, for every argument', async () => {
      const all = await c('sched link create ');
      expect(all).toEqual(expect.arrayContaining(['intro-call', 'product-demo', 'office-hours']));
      expect(await c('sched link create intro-call offi')).toEqual(['office-hours']);
    });

    it('completes webhook UUIDs for webhooks rm', async () => {
      expect(await c('sched webhooks rm ')).toContain(webhookUuid);
      expect(await c(`sched webhooks delete ${webhookUuid.slice(0, 8)}`)).toEqual([webhookUuid]);
    });

    it('asks the API named by --base-url and --profile on the command line', async () => {
      // The environment points at the sandbox; the flag points at a server that never answers.
      expect(await c(`sched --base-url ${silentUrl} link create `)).toEqual([]);
      const viaProfile = await c('sched --profile default link create intro', {
        SCHED_BASE_URL: '',
        SCHED_API_KEY: '',
      });
      expect(viaProfile).toEqual(['intro-call']);
    });

    it('offers nothing, and shows no error, when the API does not answer', async () => {
      expect(await c('sched webhooks rm ', { SCHED_BASE_URL: silentUrl })).toEqual([]);
      expect(await c('sched link create ', { SCHED_API_KEY: 'wrong' })).toEqual([]);
    });
  });
});

describe.skipIf(noShell('zsh'))(shellTitle('zsh', 'zsh completion installed on $fpath'), () => {
  let ws: ShellWorkspace;
  beforeAll(async () => {
    ws = await createWorkspace();
  });
  afterAll(() => ws?.cleanup());

  it('is autoloaded as _sched by compinit, as `sched completion zsh > "${fpath[1]}/_sched"` installs it', async () => {
    const site = join(ws.dir, 'site-functions');
    mkdirSync(site);
    copyFileSync(ws.scripts.zsh, join(site, '_sched'));
    expect(await zshComplete(ws, 'sched webhooks a', {}, site)).toEqual(['add']);
    expect(sorted(await zshComplete(ws, 'sched completion ', {}, site))).toEqual([
      'bash',
      'fish',
      'zsh',
    ]);
  });
});

describe.skipIf(noShell('fish'))(
  shellTitle('fish', 'fish completion installed in ~/.config/fish/completions'),
  () => {
    let ws: ShellWorkspace;
    beforeAll(async () => {
      ws = await createWorkspace();
    });
    afterAll(() => ws?.cleanup());

    it('is loaded by fish itself on the first TAB after `sched`', async () => {
      // The workspace's HOME and XDG_CONFIG_HOME are empty temporary directories.
      const dir = join(ws.dir, 'home', '.config', 'fish', 'completions');
      mkdirSync(dir, { recursive: true });
      copyFileSync(ws.scripts.fish, join(dir, 'sched.fish'));
      const r = await execa('fish', ['-c', 'complete -C "sched webhooks a"'], {
        env: ws.env(),
        extendEnv: false,
        reject: false,
        timeout: 15_000,
      });
      expect(r.stderr).toBe('');
      expect(r.stdout.split('\t')[0]).toBe('add');
    });
  },
);
