// Interactive flows in a real terminal (tmux): what a person sees and types.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noTmux, startSched, startTerminal, tmuxTitle, type Terminal } from '../helpers/tmux.js';
import { BIN } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

describe.skipIf(noTmux())(tmuxTitle('interactive prompts in a real terminal'), () => {
  let dir: string;
  let term: Terminal | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sched-interactive-'));
  });
  afterEach(async () => {
    await term?.kill();
    term = undefined;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('sig sign', () => {
    it('asks for the secret with a masked prompt when none is given, then signs', async () => {
      const payload = join(dir, 'body.json');
      writeFileSync(payload, '{"event":"meetingScheduled"}');
      term = await startSched(['sig', 'sign', '--payload-file', payload], {
        env: { SCHED_CONFIG_DIR: join(dir, 'config') },
      });
      await term.waitForScreen(/Webhook secret/);
      await term.type('s3cret-value');
      const typed = await term.waitForScreen(/\*{12}/);
      expect(typed).not.toContain('s3cret-value');
      await term.sendKeys('Enter');
      expect(await term.waitForExit()).toBe(0);
      const expected = createHmac('sha256', 's3cret-value')
        .update('{"event":"meetingScheduled"}')
        .digest('base64');
      const screen = await term.screen();
      expect(screen).toContain(expected);
      expect(screen).not.toContain('s3cret-value');
    });

    it('`SIG=$(sched sig sign ...)`: stdout captured, the terminal still asks (issue 40)', async () => {
      const payload = join(dir, 'body3.json');
      writeFileSync(payload, '{"event":"meetingCancelled"}');
      const sched = `"${process.execPath}" "${BIN}"`;
      term = await startTerminal(
        [
          'sh',
          '-c',
          `SIG=$(${sched} sig sign --payload-file "$0") && echo "captured: $SIG"`,
          payload,
        ],
        { env: { SCHED_CONFIG_DIR: join(dir, 'config') } },
      );
      await term.waitForScreen(/Webhook secret/);
      await term.type('s3cret-value');
      await term.sendKeys('Enter');
      expect(await term.waitForExit()).toBe(0);
      const expected = createHmac('sha256', 's3cret-value')
        .update('{"event":"meetingCancelled"}')
        .digest('base64');
      expect(await term.screen()).toContain(`captured: ${expected}`);
    });

    it('CI set: never asks, even at a terminal; says why (exit 2)', async () => {
      const payload = join(dir, 'body4.json');
      writeFileSync(payload, '{}');
      term = await startSched(['sig', 'sign', '--payload-file', payload], {
        env: { SCHED_CONFIG_DIR: join(dir, 'config'), CI: 'true' },
      });
      expect(await term.waitForExit()).toBe(2);
      const screen = await term.screen();
      expect(screen).toContain('CI is set (CI=true), and nothing is asked in CI');
      expect(screen).not.toContain('Webhook secret');
    });

    it('stops on Ctrl-C at the prompt with exit 130 and no signature', async () => {
      const payload = join(dir, 'body2.json');
      writeFileSync(payload, '{}');
      term = await startSched(['sig', 'sign', '--payload-file', payload], {
        env: { SCHED_CONFIG_DIR: join(dir, 'config') },
      });
      await term.waitForScreen(/Webhook secret/);
      await term.sendKeys('C-c');
      expect(await term.waitForExit()).toBe(130);
    });
  });

  describe('auth login', () => {
    let sb: TestSandbox;
    beforeAll(async () => {
      sb = await startTestSandbox();
    });
    afterAll(() => sb?.close());

    /** A loopback base URL: the sandbox's documented key is offered first; `n` declines it. */
    async function declineSandboxKey(t: Terminal) {
      await t.waitForScreen(/Use the sandbox's documented key/);
      await t.type('n');
      await t.sendKeys('Enter');
    }

    it('offers the services, takes a custom URL and a masked key, and stores the profile', async () => {
      const configDir = join(dir, 'login-config');
      term = await startSched(['auth', 'login', '--profile', 'local'], {
        env: { SCHED_CONFIG_DIR: configDir },
      });
      const menu = await term.waitForScreen(/Which service\?[\s\S]*Custom URL/);
      expect(menu).toContain('https://secure.simplymeet.me/api');
      expect(menu).toContain('Local sandbox');
      // The custom entry is the last of four.
      for (let i = 0; i < 3; i++) await term.sendKeys('Down');
      await term.waitForScreen(/❯ Custom URL/);
      await term.sendKeys('Enter');
      await term.waitForScreen(/Base URL of the API/);
      await term.type(sb.baseUrl);
      await term.sendKeys('Enter');
      await declineSandboxKey(term);
      await term.waitForScreen(/API key for http:\/\/127\.0\.0\.1/);
      await term.type(sb.apiKey);
      await term.waitForScreen(new RegExp(`\\*{${sb.apiKey.length}}`));
      await term.sendKeys('Enter');
      expect(await term.waitForExit(15_000)).toBe(0);
      const screen = await term.screen();
      expect(screen).toMatch(/Logged in to http:\/\/127\.0\.0\.1:\d+\/api as profile "local"/);
      expect(screen).not.toContain(sb.apiKey);
      const stored = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')) as {
        profiles: Record<string, { baseUrl: string; apiKey: string }>;
      };
      expect(stored.profiles.local).toEqual({ baseUrl: sb.baseUrl, apiKey: sb.apiKey });
    });

    /** Picks "Custom URL…" (the last of four) and types `url` at the base URL prompt. */
    async function customUrl(t: Terminal, url: string) {
      await t.waitForScreen(/Which service\?[\s\S]*Custom URL/);
      for (let i = 0; i < 3; i++) await t.sendKeys('Down');
      await t.waitForScreen(/❯ Custom URL/);
      await t.sendKeys('Enter');
      await t.waitForScreen(/Base URL of the API/);
      await t.type(url);
      await t.sendKeys('Enter');
    }
    const count = (screen: string, re: RegExp) => screen.match(new RegExp(re, 'g'))?.length ?? 0;
    /** Waits until `re` shows `n` times on the screen (a prompt asked the n-th time). */
    async function shownTimes(t: Terminal, re: RegExp, n: number) {
      const deadline = Date.now() + 10_000;
      let screen = '';
      while (Date.now() < deadline) {
        screen = await t.screen();
        if (count(screen, re) >= n) return screen;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`${re} not shown ${n} times:\n${screen}`);
    }

    it('a rejected key is asked for again, for the service chosen; the right one is stored', async () => {
      const configDir = join(dir, 'retry-config');
      term = await startSched(['auth', 'login', '--profile', 'retry'], {
        env: { SCHED_CONFIG_DIR: configDir },
      });
      await customUrl(term, sb.baseUrl);
      await declineSandboxKey(term);
      const prompt = new RegExp(`API key for ${sb.baseUrl.replace(/[./]/g, '\\$&')}`);
      await term.waitForScreen(prompt);
      await term.type('not-the-key');
      await term.sendKeys('Enter');
      const again = await term.waitForScreen(/Enter it again \(try 2 of 3; Ctrl-C stops\)/);
      expect(again).toContain(`${sb.baseUrl} rejected that key (401); nothing was stored.`);
      // Asked again for the same service: the service question is not asked twice.
      await shownTimes(term, prompt, 2);
      expect(count(await term.screen(), /Which service\?/)).toBe(1);
      await term.type(sb.apiKey);
      await term.sendKeys('Enter');
      expect(await term.waitForExit(15_000)).toBe(0);
      const stored = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')) as {
        profiles: Record<string, { baseUrl: string; apiKey: string }>;
      };
      expect(stored.profiles.retry).toEqual({ baseUrl: sb.baseUrl, apiKey: sb.apiKey });
      expect(await term.screen()).not.toContain('not-the-key');
    });

    it('a custom URL without /api is checked before the key: /api offered, a non-API URL asked again', async () => {
      const configDir = join(dir, 'custom-config');
      term = await startSched(['auth', 'login', '--profile', 'custom'], {
        env: { SCHED_CONFIG_DIR: configDir },
      });
      // Not the API at all: said at once, the URL asked again, no key asked yet.
      await customUrl(term, `${sb.publicUrl}/elsewhere`);
      const no = await term.waitForScreen(/does not look like the scheduling API/);
      expect(no).toContain(`${sb.publicUrl}/elsewhere does not look like the scheduling API`);
      expect(no).toContain('the base URL usually ends in /api');
      expect(no).not.toMatch(/API key for/);
      await shownTimes(term, /Base URL of the API/, 2);
      // The server's root: the API is one /api further, which is offered (Enter accepts).
      await term.type(sb.publicUrl);
      await term.sendKeys('Enter');
      const offer = await term.waitForScreen(/answers like it\. Use /);
      expect(offer).toContain(`${sb.publicUrl} is not the API, but ${sb.baseUrl} answers like it.`);
      expect(offer).not.toMatch(/API key for/);
      await term.sendKeys('Enter');
      await declineSandboxKey(term);
      await term.waitForScreen(new RegExp(`API key for ${sb.baseUrl.replace(/[./]/g, '\\$&')}`));
      await term.type(sb.apiKey);
      await term.sendKeys('Enter');
      expect(await term.waitForExit(15_000)).toBe(0);
      const stored = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')) as {
        profiles: Record<string, { baseUrl: string }>;
      };
      expect(stored.profiles.custom!.baseUrl).toBe(sb.baseUrl);
    });

    it('stores nothing when the API rejects the key three times', async () => {
      const configDir = join(dir, 'rejected-config');
      term = await startSched(['auth', 'login', '--base-url', sb.baseUrl], {
        env: { SCHED_CONFIG_DIR: configDir },
      });
      await declineSandboxKey(term);
      for (let i = 1; i <= 3; i++) {
        await shownTimes(term, /API key for/, i);
        await term.type('not-the-key');
        await term.sendKeys('Enter');
      }
      expect(await term.waitForExit(15_000)).toBe(4);
      expect(await term.screen()).toMatch(/nothing was stored/);
      let stored: { profiles?: Record<string, unknown> } = {};
      try {
        stored = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')) as typeof stored;
      } catch {
        // no file at all is fine too
      }
      expect(stored.profiles?.default).toBeUndefined();
    });
  });
});
