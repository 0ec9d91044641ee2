// Issue 20, point 2: a value from a server or a file, offered by TAB, is quoted for the shell it
// completes in, so pressing Enter passes it as one word and never runs what it holds. One table
// over every dynamic source and every shell, in real interactive shells in a terminal (tmux):
// readline, ZLE and fish's line editor insert the candidate, then Enter runs the line.
// Issue 25: a value already on the line is not offered again.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DynamicKind } from '../../src/completion/model.js';
import { envelope, f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { noTmux, tmuxTitle, type Terminal } from '../helpers/tmux.js';
import {
  complete,
  createWorkspace,
  hasCommand,
  noShell,
  INTERACTIVE,
  startShell,
  type ShellName,
  type ShellWorkspace,
} from './shells.js';

/** A command substitution that, if the shell ever ran it, leaves a file behind. */
const payload = (dir: string, kind: string) => `$(touch\${IFS}${dir}/pwned-${kind})`;

interface Source {
  /** The hostile value the server or the config file supplies. */
  value(dir: string): string;
  /** What is typed before TAB. */
  typed: string;
}

/** Every dynamic source: a new kind fails to compile until it is added here. */
const SOURCES: Record<DynamicKind, Source> = {
  'meeting-types': {
    value: (dir) => `intro-call${payload(dir, 'meeting-types')}`,
    typed: 'sched link create intr',
  },
  webhooks: {
    value: (dir) => `0f8fad5b-d9cb-469f-a165-70867728950e${payload(dir, 'webhooks')}`,
    typed: 'sched webhooks rm 0f8f',
  },
  profiles: {
    value: (dir) => `work${payload(dir, 'profiles')}`,
    typed: 'sched --profile wor',
  },
};

const MEETING_TYPE_UUID = '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c';
const HOOK_A = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const HOOK_B = '7c9e6679-7425-40de-944b-e07fc1f90ae8';

let ws: ShellWorkspace;
let srv: FaultServer;
let env: Record<string, string>;

beforeAll(async () => {
  ws = await createWorkspace();
  srv = await startFaultServer();
  srv.on(
    'GET',
    '/api/users/me/meeting-types',
    f.json(
      200,
      envelope(
        [
          {
            uuid: MEETING_TYPE_UUID,
            slug: SOURCES['meeting-types'].value(ws.dir),
            name: 'Intro call',
            duration: 15,
          },
        ],
        { path: '/api/users/me/meeting-types' },
      ),
    ),
  );
  srv.on(
    'GET',
    '/api/webhooks',
    f.json(
      200,
      envelope(
        [
          { uuid: SOURCES.webhooks.value(ws.dir), url: 'https://example.com/h', events: [] },
          { uuid: HOOK_A, url: 'https://example.com/a', events: [] },
          { uuid: HOOK_B, url: 'https://example.com/b', events: [] },
        ],
        {},
      ),
    ),
  );
  mkdirSync(join(ws.dir, 'config'), { mode: 0o700 });
  writeFileSync(
    join(ws.dir, 'config', 'config.json'),
    JSON.stringify({
      profiles: { [SOURCES.profiles.value(ws.dir)]: { baseUrl: srv.baseUrl, apiKey: 'k' } },
    }),
    { mode: 0o600 },
  );
  env = { SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: 'k' };
});
afterAll(async () => {
  await srv?.close();
  ws?.cleanup();
});

describe.each(Object.keys(INTERACTIVE) as ShellName[])('%s', (shell) => {
  const title = !hasCommand(shell)
    ? `hostile candidates — SKIPPED: ${shell} is not installed`
    : tmuxTitle('a hostile candidate, TAB then Enter');
  describe.skipIf(noTmux() || noShell(shell))(title, () => {
    let term: Terminal | undefined;
    afterEach(async () => {
      await term?.kill();
      term = undefined;
    });

    it.each(Object.keys(SOURCES) as DynamicKind[])(
      '%s: inserted quoted, passed as one word, never run',
      async (kind) => {
        const marker = join(ws.dir, `pwned-${kind}`);
        rmSync(marker, { force: true });
        term = await startShell(shell, ws, env);
        await term.type(SOURCES[kind].typed);
        await term.sendKeys('Tab');
        // The candidate is on the line (the shell's own quoting shows as backslashes).
        await term.waitForScreen(/touch/);
        await term.sendKeys('Enter');
        await term.type('echo DONE');
        await term.sendKeys('Enter');
        const screen = await term.waitForScreen(/^DONE$/m);
        expect(existsSync(marker), screen).toBe(false);
        // sched got the whole value as one word: a UUID is quoted whole in its refusal, and a
        // slug found the meeting type (whose slug is exactly that value) and asked for a link.
        if (kind === 'webhooks') expect(screen).toMatch(/error: .*"[^"\s]*\$\(touch\$\{IFS\}/);
        if (kind === 'meeting-types') {
          const posts = srv.requests.filter((r) => r.method === 'POST');
          expect(posts.at(-1)?.body ?? '', screen).toContain(MEETING_TYPE_UUID);
        }
      },
    );
  });
});

describe.each(Object.keys(INTERACTIVE) as ShellName[])('%s', (shell) => {
  describe.skipIf(noShell(shell))(`${shell}: a value already on the line`, () => {
    it('is not offered again (webhooks rm takes several UUIDs)', async () => {
      const offered = await complete(shell, ws, `sched webhooks rm ${HOOK_A} 7c9e`, env);
      expect(offered.map((c) => c.replace(/\\/g, ''))).toEqual([HOOK_B]);
      const both = await complete(shell, ws, 'sched webhooks rm 7c9e', env);
      expect(both.length).toBe(2);
    });
  });
});
