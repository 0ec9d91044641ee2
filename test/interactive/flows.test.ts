// The interactive flows of the built binary in a real terminal (tmux), against an in-process
// sandbox: what a person sees, what they type, and what reached the service.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noTmux, startSched, tmuxTitle, type Terminal } from '../helpers/tmux.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { EVENT_NAMES } from '../../src/api/types.js';

const ALL_EVENTS = [...EVENT_NAMES];

describe.skipIf(noTmux())(tmuxTitle('interactive flows in a real terminal'), () => {
  let sb: TestSandbox;
  let dir: string;
  let term: Terminal | undefined;

  beforeAll(async () => {
    sb = await startTestSandbox();
    dir = mkdtempSync(join(tmpdir(), 'sched-flows-'));
  });
  afterAll(async () => {
    await sb?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    sb.requests.length = 0;
    sb.state.webhooks.clear();
    sb.state.links.clear();
  });
  afterEach(async () => {
    await term?.kill();
    term = undefined;
  });

  /** `sched <args>` in a fresh terminal (120x40 unless told), pointed at the sandbox. */
  async function sched(args: string[], width?: number): Promise<Terminal> {
    term = await startSched(args, {
      env: { ...sb.env, SCHED_CONFIG_DIR: join(dir, 'config') },
      width,
    });
    return term;
  }

  const posts = (path: string) =>
    sb.requests.filter((r) => r.method === 'POST' && r.pathname === `/api${path}`);
  const deletes = () => sb.requests.filter((r) => r.method === 'DELETE');

  async function seedWebhooks(urls: string[]): Promise<string[]> {
    const uuids: string[] = [];
    for (const url of urls) {
      const res = await sb.api('/webhooks', {
        method: 'POST',
        body: JSON.stringify({ url, events: ALL_EVENTS }),
      });
      expect(res.status).toBe(201);
      uuids.push(((await res.json()) as { uuid: string }).uuid);
    }
    sb.requests.length = 0;
    return uuids;
  }

  describe('link create with no argument', () => {
    it('offers a pick list (name, duration, slug); arrows + Enter make a link for that type', async () => {
      const t = await sched(['link', 'create']);
      const menu = await t.waitForScreen(/Meeting type[\s\S]*❯/);
      for (const type of sb.state.meetingTypes) {
        expect(menu).toContain(`· ${type.duration} min · ${type.slug}`);
        if (/^[\x20-\x7e]+$/.test(type.name)) {
          expect(menu).toContain(`${type.name} · ${type.duration} min · ${type.slug}`);
        }
      }
      // The list in the order shown; the cursor starts on the first entry.
      const shown = menu
        .split('\n')
        .filter((l) => / min · /.test(l))
        .map((l) => l.trim().split(' · ').pop()!);
      expect(shown).toHaveLength(sb.state.meetingTypes.length);
      await t.sendKeys('Down', 'Down');
      const moved = await t.waitForScreen(new RegExp(`❯ .* · ${shown[2]}\\s*$`, 'm'));
      expect(moved).not.toMatch(new RegExp(`❯ .* · ${shown[0]}\\s*$`, 'm'));
      await t.sendKeys('Enter');
      expect(await t.waitForExit()).toBe(0);

      const chosen = sb.state.meetingTypes.find((m) => m.slug === shown[2])!;
      const sent = posts('/single-use-link');
      expect(sent).toHaveLength(1);
      expect(sent[0]!.body).toEqual({ meeting_type_uuid: chosen.uuid });
      const links = [...sb.state.links.values()];
      expect(links).toHaveLength(1);
      expect(links[0]!.meeting_type_uuid).toBe(chosen.uuid);
      const screen = await t.screen();
      expect(screen).toContain(`${sb.publicUrl}/s/${links[0]!.code}`);
      expect(screen).toMatch(new RegExp(`✔ Meeting type .* · ${chosen.slug}`));
    });

    it('Ctrl-C at the pick list: exit 130, no link', async () => {
      const t = await sched(['link', 'create']);
      await t.waitForScreen(/Meeting type[\s\S]*❯/);
      await t.sendKeys('C-c');
      expect(await t.waitForExit()).toBe(130);
      expect(await t.screen()).toMatch(/cancelled at the prompt/);
      expect(posts('/single-use-link')).toHaveLength(0);
      expect(sb.state.links.size).toBe(0);
    });
  });

  describe('webhooks add without --url', () => {
    async function answerUrl(t: Terminal, url: string): Promise<void> {
      await t.waitForScreen(/\? Webhook URL/);
      await t.type(url);
      await t.sendKeys('Enter');
      await t.waitForScreen(/\? Events to send[\s\S]*meetingRescheduled/);
    }

    it('rejects a bad URL inline, takes events (one toggled off) and generates a secret shown once', async () => {
      const t = await sched(['webhooks', 'add']);
      await t.waitForScreen(/\? Webhook URL \(absolute http or https\)/);
      await t.type('ftp://example.com/x');
      await t.sendKeys('Enter');
      const rejected = await t.waitForScreen(/must be an absolute http\(s\) URL/);
      expect(rejected).toMatch(/\? Webhook URL/); // still asking, nothing sent
      expect(posts('/webhooks')).toHaveLength(0);
      for (let i = 0; i < 'ftp://example.com/x'.length; i++) await t.sendKeys('BSpace');
      await t.waitForScreen(/\? Webhook URL \(absolute http or https\)\s*$/m);
      await answerUrl(t, 'https://hooks.example.com/sched/interactive');

      // All three are checked by default; the second is toggled off.
      const boxes = await t.screen();
      for (const e of ALL_EVENTS) expect(boxes).toMatch(new RegExp(`◉ ${e}`));
      await t.sendKeys('Down', 'Space');
      await t.waitForScreen(/◯ meetingCancelled/);
      await t.sendKeys('Enter');

      const secretMenu = await t.waitForScreen(/\? Signing secret[\s\S]*None/);
      expect(secretMenu).toMatch(/❯ Generate a strong secret/);
      expect(secretMenu).toContain('Enter my own secret');
      await t.sendKeys('Enter');
      expect(await t.waitForExit()).toBe(0);

      const stored = [...sb.state.webhooks.values()];
      expect(stored).toHaveLength(1);
      expect(stored[0]!.url).toBe('https://hooks.example.com/sched/interactive');
      expect(stored[0]!.events).toEqual(['meetingScheduled', 'meetingRescheduled']);
      const secret = stored[0]!.secret!;
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const screen = await t.screen();
      expect(screen).toContain(stored[0]!.uuid);
      expect(screen.split(secret)).toHaveLength(2); // shown exactly once
      expect(screen).toMatch(new RegExp(`^SECRET +${secret}$`, 'm'));
      expect(screen).toMatch(/Store the signing secret now/);
    });

    it('"Enter my own secret" asks with a masked prompt and never shows it', async () => {
      const t = await sched(['webhooks', 'add']);
      await answerUrl(t, 'https://hooks.example.com/own-secret');
      await t.sendKeys('Enter'); // all events
      await t.waitForScreen(/\? Signing secret/);
      await t.sendKeys('Down', 'Enter');
      await t.waitForScreen(/\? Secret/);
      await t.type('my-typed-secret-1234');
      await t.waitForScreen(/\*{20}/);
      await t.sendKeys('Enter');
      expect(await t.waitForExit()).toBe(0);
      const [w] = [...sb.state.webhooks.values()];
      expect(w!.events).toEqual(ALL_EVENTS);
      expect(w!.secret).toBe('my-typed-secret-1234');
      const screen = await t.screen();
      expect(screen).not.toContain('my-typed-secret-1234');
      expect(screen).not.toMatch(/Store the signing secret/);
    });

    it('"None" creates an unsigned webhook and says what that means', async () => {
      const t = await sched(['webhooks', 'add']);
      await answerUrl(t, 'https://hooks.example.com/unsigned');
      await t.sendKeys('Enter');
      await t.waitForScreen(/\? Signing secret/);
      await t.sendKeys('Down', 'Down', 'Enter');
      expect(await t.waitForExit()).toBe(0);
      const [w] = [...sb.state.webhooks.values()];
      expect(w!.secret ?? null).toBeNull();
      expect(await t.screen()).toMatch(/This webhook is unsigned/);
    });

    it('Ctrl-C at the events question: exit 130, nothing created', async () => {
      const t = await sched(['webhooks', 'add']);
      await answerUrl(t, 'https://hooks.example.com/interrupted');
      await t.sendKeys('C-c');
      expect(await t.waitForExit()).toBe(130);
      expect(await t.screen()).toMatch(/cancelled at the prompt/);
      expect(posts('/webhooks')).toHaveLength(0);
      expect(sb.state.webhooks.size).toBe(0);
    });
  });

  describe('webhooks rm --all', () => {
    const URLS = ['https://hooks.example.com/one', 'https://hooks.example.com/two'];

    it('shows what will go and asks; "no" deletes nothing (exit 1, no error line)', async () => {
      const uuids = await seedWebhooks(URLS);
      const t = await sched(['webhooks', 'rm', '--all']);
      const asked = await t.waitForScreen(/Delete 2 webhooks\? \(y\/N\)/);
      expect(asked).toContain('This deletes 2 webhooks (every webhook):');
      for (const [i, uuid] of uuids.entries()) {
        expect(asked).toMatch(new RegExp(`^  ${uuid}  ${URLS[i]}  all$`, 'm'));
      }
      await t.type('n');
      await t.sendKeys('Enter');
      // Declined, not interrupted: exit 1 (130 before, which scripts read as Ctrl-C).
      expect(await t.waitForExit()).toBe(1);
      const screen = await t.screen();
      expect(screen).toContain('Cancelled; nothing was deleted.');
      expect(screen).not.toContain('error:');
      expect(deletes()).toHaveLength(0);
      expect(sb.state.webhooks.size).toBe(2);
    });

    it('Enter alone is "no" (the default)', async () => {
      await seedWebhooks(URLS);
      const t = await sched(['webhooks', 'rm', '--all']);
      await t.waitForScreen(/\(y\/N\)/);
      await t.sendKeys('Enter');
      expect(await t.waitForExit()).toBe(1);
      expect(sb.state.webhooks.size).toBe(2);
    });

    it('"yes" deletes every one and lists their UUIDs', async () => {
      const uuids = await seedWebhooks(URLS);
      const t = await sched(['webhooks', 'rm', '--all']);
      await t.waitForScreen(/\(y\/N\)/);
      await t.type('y');
      await t.sendKeys('Enter');
      expect(await t.waitForExit()).toBe(0);
      const screen = await t.screen();
      for (const uuid of uuids) expect(screen).toMatch(new RegExp(`^${uuid}$`, 'm'));
      expect(screen).toContain('Deleted 2 webhooks.');
      expect(
        deletes()
          .map((r) => r.pathname)
          .sort(),
      ).toEqual(uuids.map((u) => `/api/webhooks/${u}`).sort());
      expect(sb.state.webhooks.size).toBe(0);
    });
  });

  describe('tables in an 80-column terminal', () => {
    it('webhooks ls: no room for a URL beside its UUID, so records; every URL and UUID whole', async () => {
      // Before: the long URL wrapped inside its column, and a copied URL was broken.
      const urls = ['https://example.com/hook', 'https://hooks.example.com/sched/all-events'];
      const uuids = await seedWebhooks(urls);
      const t = await sched(['webhooks', 'ls'], 80);
      expect(await t.waitForExit()).toBe(0);
      const rows = (await t.screen()).split('\n').filter((l) => !/^Pane is dead/.test(l));
      expect(rows[0]).toMatch(/^-\[ RECORD 1 \]-+$/);
      uuids.forEach((uuid, i) => {
        const at = rows.indexOf(`UUID           ${uuid}`);
        expect(at, rows.join('\n')).toBeGreaterThan(0);
        expect(rows[at + 1]).toBe(`URL            ${urls[i]}`);
        expect(rows[at + 2]).toBe('EVENTS         all');
        expect(rows[at + 3]).toMatch(/^CREATED \(UTC\) {2}\d{4}-\d\d-\d\d \d\d:\d\d$/);
      });
    });

    it('types list: whole names (wrapped), slugs and UUIDs', async () => {
      const t = await sched(['types', 'list', '--all'], 80);
      expect(await t.waitForExit()).toBe(0);
      const screen = await t.screen();
      expect(screen.split('\n')[0]).toMatch(/^NAME +SLUG +MIN +UUID$/);
      for (const type of sb.state.meetingTypes) {
        expect(screen).toMatch(new RegExp(`  ${type.slug} +${type.duration}  ${type.uuid}$`, 'm'));
      }
      expect(screen).toMatch(/^Technical deep +technical-deep-dive .*\ndive$/m);
      expect(screen).not.toContain('…');
    });
  });

  describe('--no-input on a terminal', () => {
    const cases: Array<[string, string[], RegExp]> = [
      ['link create', ['link', 'create'], /error: no meeting type given, and no pick list/],
      ['webhooks add', ['webhooks', 'add'], /error: --url is required/],
      [
        'webhooks rm --all',
        ['webhooks', 'rm', '--all'],
        /error: --all deletes without asking only with --yes: --no-input was given/,
      ],
    ];
    for (const [name, args, message] of cases) {
      it(`${name}: no prompt, exit 2, the missing value named`, async () => {
        if (name === 'webhooks rm --all') await seedWebhooks(['https://hooks.example.com/kept']);
        const t = await sched(['--no-input', ...args]);
        expect(await t.waitForExit()).toBe(2);
        const screen = await t.screen();
        expect(screen).toMatch(message);
        expect(screen).not.toMatch(/^[?✔] /m); // no question was drawn
        expect(sb.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
        expect(sb.state.links.size).toBe(0);
      });
    }
  });
});
