// The console in a real browser (Debian's chromium driven by playwright-core), clicked through
// as a person would: open it, mint a link, book it on the booking page in another tab, watch
// the delivery appear live with its verdict, resend it and see the second attempt, set a 429
// and watch `sched types list` wait and succeed, cancel the meeting. Also: the key asked for
// off loopback, every value escaped, labels on every control, a narrow window.
//
// Without a browser the tests are skipped with a one-line note. On a failure a screenshot is
// kept in .tmp/console-screenshots/. SCHED_CONSOLE_SCREENSHOT=<file> writes the screenshot the
// docs/sandbox.md shows (npm run screenshot).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSched } from '../helpers/run.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { unavailable } from '../helpers/skip.js';

const CHROMIUM = process.env.SCHED_CHROMIUM ?? '/usr/bin/chromium';
const HAVE_BROWSER = existsSync(CHROMIUM);
const SHOTS = path.resolve('.tmp/console-screenshots');
const NO_BROWSER = unavailable(
  !HAVE_BROWSER && `no browser at ${CHROMIUM} (apt-get install chromium, or set SCHED_CHROMIUM)`,
);

let context: BrowserContext;
let userDataDir: string;

async function launch(): Promise<BrowserContext> {
  const { chromium } = await import('playwright-core');
  userDataDir = mkdtempSync(path.join(tmpdir(), 'sched-chromium-'));
  // A persistent context on a fresh directory: nothing from another run, nothing downloaded.
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Runs the steps; on a failure keeps a screenshot of the page and says where. */
async function withShot(page: Page, name: string, steps: () => Promise<void>): Promise<void> {
  try {
    await steps();
  } catch (e) {
    mkdirSync(SHOTS, { recursive: true });
    const file = path.join(SHOTS, `${name}-${Date.now()}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => {});
    process.stderr.write(`console test failed; screenshot kept: ${file}\n`);
    throw e;
  }
}

beforeAll(async () => {
  if (HAVE_BROWSER) context = await launch();
}, 60_000);
afterAll(async () => {
  await context?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

const UNSAFE = '<img src=x onerror="window.__pwned=1">';

describe.skipIf(NO_BROWSER)('the console in a browser', () => {
  let sb: TestSandbox;
  let rx: Receiver;
  let webhookUuid: string;

  beforeAll(async () => {
    rx = await startReceiver();
    sb = await startTestSandbox({ retryDelaysMs: [200] });
    const made = await sb.api('/webhooks', {
      method: 'POST',
      body: JSON.stringify({
        url: rx.url,
        events: ['meetingScheduled', 'meetingCancelled'],
        secret: 'whsec_console',
      }),
    });
    webhookUuid = ((await made.json()) as { uuid: string }).uuid;
    // A URL a server or a user typed, with HTML in it: shown as text, never run.
    await sb.api('/webhooks', {
      method: 'POST',
      body: JSON.stringify({
        url: `https://rx.example/${UNSAFE.replace(/ /g, '')}`,
        events: ['meetingRescheduled'],
      }),
    });
  });

  afterAll(async () => {
    await sb?.close();
    await rx?.close();
  });

  it('mint, book on the booking page, the delivery live, resend, a 429 that sched waits out, cancel', async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await withShot(page, 'walkthrough', async () => {
      await page.goto(sb.consoleUrl);
      await expect.poll(() => page.locator('#conn').textContent()).toBe('live');
      await expect.poll(() => page.locator('#webhooks-body').textContent()).toContain(rx.url);

      // Mint from the keyboard: focus the button, press Enter.
      await page.getByRole('button', { name: 'Mint a link for Intro call' }).focus();
      await page.keyboard.press('Enter');
      const link = page.locator('#links-body a.link-url').first();
      await expect.poll(() => link.count()).toBe(1);
      const linkUrl = (await link.textContent())!;
      expect(linkUrl).toMatch(new RegExp(`^${sb.publicUrl}/s/[A-Za-z0-9]{12}$`));
      expect(await page.locator('#toast').textContent()).toBe(`Link minted: ${linkUrl}`);

      // The invitee books it on the booking page, in another tab; the console stays open.
      const booking = await context.newPage();
      await booking.goto(linkUrl);
      await booking.getByLabel('Your name').fill('Ada <b>Lovelace</b>');
      await booking.getByLabel('Email').fill('ada@example.com');
      await booking.getByLabel('I agree to the privacy policy').check();
      await booking.getByRole('button', { name: 'Book meeting' }).click();
      await expect.poll(() => booking.locator('h1').textContent()).toBe('You are booked');
      await booking.close();

      // The delivery appears without a reload, with its verdict.
      const delivery = page.locator('li.delivery', { hasText: 'meetingScheduled' });
      await expect
        .poll(() => delivery.locator('summary').textContent(), { timeout: 10_000 })
        .toContain('delivered, HTTP 200');
      await delivery.locator('summary').click();
      const headers = (await delivery.locator('pre.headers').textContent())!;
      expect(headers).toMatch(/^webhook-signature: \S+$/m);
      expect(headers).toContain('user-agent: SimplyMeet.me');
      expect(await delivery.locator('pre.body').textContent()).toContain(
        '"full_name": "Ada <b>Lovelace</b>"',
      );
      expect(await delivery.locator('pre.answer').textContent()).toBe('HTTP 200\nok');
      expect(rx.received.length).toBe(1);

      // Resend: a second attempt of the same delivery, the same signed bytes.
      await delivery.getByRole('button', { name: /^Resend delivery/ }).click();
      await expect.poll(() => delivery.locator('summary').textContent()).toContain('2 attempts');
      expect(await delivery.locator('tbody tr').count()).toBe(2);
      expect(await delivery.locator('tbody tr').nth(1).textContent()).toContain('resend');
      expect(rx.received[1]!.body.equals(rx.received[0]!.body)).toBe(true);
      expect(rx.received[1]!.headers['webhook-signature']).toBe(
        rx.received[0]!.headers['webhook-signature'],
      );

      // A 429 set from the console; sched types list waits as Retry-After says and succeeds.
      await page.getByLabel('Route').fill('GET /users/me/meeting-types');
      await page.getByLabel('Status').fill('429');
      await page.getByLabel('Retry-After (s)').fill('1');
      await page.getByRole('button', { name: 'Set fault' }).click();
      await expect
        .poll(() => page.locator('#faults-list').textContent())
        .toContain(
          'API GET /api/users/me/meeting-types: status 429 (Retry-After: 1 s), 1 of 1 left',
        );
      const listed = await runSched(['types', 'list', '--json'], { env: sb.env });
      expect(listed.code).toBe(0);
      expect((JSON.parse(listed.stdout) as unknown[]).length).toBe(8);
      const asked = sb.requests.filter((q) => q.pathname === '/api/users/me/meeting-types');
      expect(asked.map((q) => q.status)).toEqual([429, 200]);
      await expect.poll(() => page.locator('#faults-list').textContent()).toBe('No faults set.');

      // Cancel the meeting: its state changes and meetingCancelled arrives live.
      await page
        .getByRole('button', {
          name: 'Cancel the meeting with Ada <b>Lovelace</b> <ada@example.com>',
        })
        .click();
      await expect
        .poll(() => page.locator('#meetings-body tbody tr').first().textContent())
        .toContain('canceled');
      const cancelled = page.locator('li.delivery', { hasText: 'meetingCancelled' });
      await expect
        .poll(() => cancelled.locator('summary').textContent(), { timeout: 10_000 })
        .toContain('delivered, HTTP 200');

      // Filters: by event, by webhook, by meeting.
      await page.getByLabel('Filter by event').selectOption('meetingCancelled');
      expect(await page.locator('li.delivery').count()).toBe(1);
      await page.getByLabel('Filter by event').selectOption('');
      await page.getByLabel('Filter by webhook').selectOption(webhookUuid);
      expect(await page.locator('li.delivery').count()).toBe(2);
      await page.getByLabel('Filter by webhook').selectOption('');

      if (process.env.SCHED_CONSOLE_SCREENSHOT) {
        await delivery.locator('summary').click(); // the picture shows the list closed but one
        await cancelled.locator('summary').click();
        // At the end of the page the sticky status bar sits in its place, covering nothing.
        await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
        await page.screenshot({ path: process.env.SCHED_CONSOLE_SCREENSHOT, fullPage: true });
      }
      expect(errors).toEqual([]);
    });
  }, 90_000);

  it('every value shown as text: HTML in a webhook URL and a name does not run', async () => {
    const page = await context.newPage();
    await withShot(page, 'escaping', async () => {
      await page.goto(sb.consoleUrl);
      await expect.poll(() => page.locator('#webhooks-body').textContent()).toContain('<img');
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
      expect(await page.locator('#webhooks-body img, #meetings-body b, #log-list b').count()).toBe(
        0,
      );
    });
  }, 30_000);

  it('every control has a label, and a narrow window needs no sideways scrolling', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 360, height: 800 });
    await withShot(page, 'narrow', async () => {
      await page.goto(sb.consoleUrl);
      await expect.poll(() => page.locator('#conn').textContent()).toBe('live');
      // Page code as a string: the tests are compiled without the DOM types.
      const unlabelled =
        await page.evaluate(`[...document.querySelectorAll('input, select, button, textarea')]
        .filter((e) => !e.closest('[hidden]'))
        .filter((e) => !(e.getAttribute('aria-label') || (e.tagName === 'BUTTON' && e.textContent.trim()) || (e.labels && e.labels.length > 0)))
        .map((e) => e.outerHTML.slice(0, 80))`);
      expect(unlabelled).toEqual([]);
      const wide = await page.evaluate(
        `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 361 && !e.closest('.scroll')).map((e) => e.tagName + '#' + e.id + '.' + e.className).slice(0, 5)`,
      );
      expect(wide).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    });
  }, 30_000);
});

describe.skipIf(NO_BROWSER)('the console off loopback', () => {
  it('asks for the key first; a wrong key is refused, the right one opens it', async () => {
    const sb = await startTestSandbox({ host: '0.0.0.0', apiKey: 'not-the-default' });
    const page = await context.newPage();
    try {
      await withShot(page, 'key', async () => {
        const html = await (await fetch(`http://127.0.0.1:${sb.port}/`)).text();
        expect(html).not.toContain('not-the-default');
        await page.goto(`http://127.0.0.1:${sb.port}/`);
        await expect.poll(() => page.locator('#login').isVisible()).toBe(true);
        expect(await page.locator('#app').isVisible()).toBe(false);
        await page.getByLabel('API key').fill('sandbox_test_key');
        await page.getByRole('button', { name: 'Open the console' }).click();
        await expect
          .poll(() => page.locator('#login-error').textContent())
          .toContain('That key was refused');
        await page.getByLabel('API key').fill('not-the-default');
        await page.getByRole('button', { name: 'Open the console' }).click();
        await expect.poll(() => page.locator('#conn').textContent()).toBe('live');
        // The types load beside the live log: wait for them as a person would.
        await expect.poll(() => page.locator('#types-body').textContent()).toContain('Intro call');
      });
    } finally {
      await page.close();
      await sb.close();
    }
  }, 30_000);
});

describe.skipIf(NO_BROWSER)('the console with 200 links, long URLs and an open delivery', () => {
  let sb: TestSandbox;
  let rx: Receiver;
  const INTRO = '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c';

  beforeAll(async () => {
    rx = await startReceiver();
    sb = await startTestSandbox();
    // A long receiver URL: it must stay one token on screen.
    const made = await sb.api('/webhooks', {
      method: 'POST',
      body: JSON.stringify({
        url: `${rx.url}/${'very-long-path-segment/'.repeat(6)}end`,
        events: ['meetingScheduled'],
      }),
    });
    expect(made.status).toBe(201);
    for (let i = 0; i < 200; i++) {
      const r = await sb.api('/single-use-link', {
        method: 'POST',
        body: JSON.stringify({ meeting_type_uuid: INTRO }),
      });
      expect(r.ok).toBe(true);
    }
    for (const code of [...sb.state.links.keys()].slice(0, 3)) {
      const r = await sb.api('/_sandbox/book', { method: 'POST', body: JSON.stringify({ code }) });
      expect(r.status).toBeLessThan(300);
    }
    const deadline = Date.now() + 10_000;
    while (sb.deliveries.records.filter((d) => d.state === 'delivered').length < 3) {
      if (Date.now() > deadline) throw new Error('the three deliveries did not arrive');
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  afterAll(async () => {
    await sb?.close();
    await rx?.close();
  });

  /** Opens the console in a new page (`viewport` when given), runs `steps`, closes the page. */
  async function onConsole(
    name: string,
    viewport: { width: number; height: number } | undefined,
    steps: (page: Page) => Promise<void>,
  ): Promise<void> {
    const page = await context.newPage();
    if (viewport) await page.setViewportSize(viewport);
    try {
      await withShot(page, name, async () => {
        await page.goto(sb.consoleUrl);
        await steps(page);
      });
    } finally {
      await page.close();
    }
  }

  /** The elements matching `selector` that the browser lays out on more than one line. */
  const broken = (page: Page, selector: string) =>
    page.evaluate(
      `[...document.querySelectorAll(${JSON.stringify(selector)})].filter((e) => e.getClientRects().length > 1).map((e) => e.textContent)`,
    );

  it('shows the latest 10 links, with a way to see all 200 and back', async () => {
    await onConsole('many-links', undefined, async (page) => {
      await expect.poll(() => page.locator('#links-body tbody tr').count()).toBe(10);
      expect(await page.locator('#links-body').textContent()).toContain(
        'The latest 10 of 200 links',
      );
      const below = await page.locator('#log').boundingBox();
      await page.getByRole('button', { name: 'Show all 200 links' }).click();
      await expect.poll(() => page.locator('#links-body tbody tr').count()).toBe(200);
      const pushed = await page.locator('#log').boundingBox();
      // What "all" costs is chosen, not imposed: the log sits far lower only now.
      expect(pushed!.y - below!.y).toBeGreaterThan(3000);
      await page.getByRole('button', { name: 'Show only the latest 10' }).click();
      await expect.poll(() => page.locator('#links-body tbody tr').count()).toBe(10);
    });
  }, 30_000);

  it('never breaks a URL or a time across lines, even in a narrow window; the full URL is on hover', async () => {
    await onConsole('no-break', { width: 480, height: 800 }, async (page) => {
      await expect.poll(() => page.locator('li.delivery').count()).toBe(3);
      expect(await broken(page, 'a.link-url, time, .url, td code')).toEqual([]);
      const url = page.locator('li.delivery summary .url').first();
      const full = await url.textContent();
      expect(full).toMatch(/very-long-path-segment\/end$/);
      expect(await url.getAttribute('title')).toBe(full);
      // Opened, the webhook's URL in the details is one line too (scrolled, not wrapped).
      await page.locator('li.delivery summary').first().click();
      expect(await broken(page, 'dl.facts dd')).toEqual([]);
      const wide = await page.evaluate(
        `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 481 && !e.closest('.scroll')).map((e) => e.tagName + '.' + e.className).slice(0, 5)`,
      );
      expect(wide).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(480);
    });
  }, 30_000);

  it("opening a delivery shows its receiver's answer clear of the status bar", async () => {
    await onConsole('status-bar', { width: 1280, height: 500 }, async (page) => {
      await expect.poll(() => page.locator('li.delivery').count()).toBe(3);
      const summary = page.locator('li.delivery summary').last();
      // The summary at the very bottom of the window, where the status bar sits.
      await summary.evaluate((e) => e.scrollIntoView({ block: 'end' }));
      await summary.click();
      const answer = page.locator('li.delivery pre.answer').last();
      await expect.poll(() => answer.textContent()).toBe('HTTP 200\nok');
      const a = (await answer.boundingBox())!;
      const bar = (await page.locator('#toast').boundingBox())!;
      expect(a.y + a.height).toBeLessThanOrEqual(bar.y + 0.5);
    });
  }, 30_000);

  it('the reschedule input says its time zone (the browser’s)', async () => {
    await onConsole('time-zone', undefined, async (page) => {
      await expect
        .poll(() => page.locator('#meetings-body input[type=datetime-local]').count())
        .toBe(3);
      const zone = (await page.evaluate(
        'Intl.DateTimeFormat().resolvedOptions().timeZone',
      )) as string;
      const row = page.locator('#meetings-body tbody tr').first();
      expect(await row.locator('.tz').textContent()).toBe(zone);
      expect(await row.locator('.tz').isVisible()).toBe(true);
      const label = await row
        .locator('input[type=datetime-local]')
        .evaluate(
          (e) => (e as unknown as { labels: { textContent: string }[] }).labels[0]!.textContent,
        );
      expect(label).toMatch(new RegExp(`, in ${zone.replace(/[/+]/g, '\\$&')}$`));
    });
  }, 30_000);
});
