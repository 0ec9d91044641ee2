// TAB pressed in a real interactive shell in a terminal (tmux): readline, ZLE and fish's own
// line editor split the words and insert the completion, not a test double.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createWorkspace,
  hasCommand,
  noShell,
  INTERACTIVE,
  startShell,
  type ShellName,
  type ShellWorkspace,
} from './shells.js';
import { noTmux, tmuxTitle, type Terminal } from '../helpers/tmux.js';
import { OUTPUT_FORMATS } from '../../src/output/formats.js';

describe.each(Object.keys(INTERACTIVE) as ShellName[])('%s', (shell) => {
  const title = !hasCommand(shell)
    ? `TAB in an interactive shell — SKIPPED: ${shell} is not installed`
    : tmuxTitle('TAB in an interactive shell');
  describe.skipIf(noTmux() || noShell(shell))(title, () => {
    let ws: ShellWorkspace;
    let term: Terminal | undefined;
    beforeAll(async () => {
      ws = await createWorkspace();
    });
    afterEach(async () => {
      await term?.kill();
      term = undefined;
    });
    afterAll(() => ws?.cleanup());

    const shellReady = () => startShell(shell, ws);

    it('completes a subcommand in place', async () => {
      term = await shellReady();
      await term.type('sched webhooks a');
      await term.sendKeys('Tab');
      expect(await term.waitForScreen(/sched webhooks add ?$/m)).not.toMatch(/error/i);
    });

    it('completes a flag value after the flag', async () => {
      term = await shellReady();
      await term.type('sched webhooks add --event meetingR');
      await term.sendKeys('Tab');
      await term.waitForScreen(/sched webhooks add --event meetingRescheduled ?$/m);
    });

    it('completes a value written as --flag=value, and after a URL', async () => {
      term = await shellReady();
      await term.type('sched --base-url http://127.0.0.1:9/api webhooks add --event=meetingR');
      await term.sendKeys('Tab');
      await term.waitForScreen(/webhooks add --event=meetingRescheduled ?$/m);
    });

    it('lists the choices when more than one fits', async () => {
      term = await shellReady();
      await term.type('sched -o ');
      // bash lists on the second TAB; zsh and fish on the first.
      await term.sendKeys('Tab');
      if (shell === 'bash') await term.sendKeys('Tab');
      const screen = await term.waitForScreen(/ndjson/);
      for (const f of OUTPUT_FORMATS) expect(screen).toContain(f);
    });
  });
});
