// The meeting-type pick list of `link create` with hundreds of types, in a real terminal (tmux):
// it says that typing filters, shows what was typed, narrows the list to the entries with every
// word typed, and Enter makes a link for the entry picked.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noTmux, startSched, tmuxTitle, type Terminal } from '../helpers/tmux.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

describe.skipIf(noTmux())(tmuxTitle('the pick list of hundreds of meeting types'), () => {
  let sb: TestSandbox;
  let dir: string;
  let term: Terminal | undefined;

  beforeAll(async () => {
    sb = await startTestSandbox({ seedTypes: 400 });
    dir = mkdtempSync(join(tmpdir(), 'sched-pick-'));
  });
  afterAll(async () => {
    await sb?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await term?.kill();
    term = undefined;
  });

  const entryLines = (screen: string) => screen.split('\n').filter((l) => / min · /.test(l));

  it('says typing filters, shows the filter text, narrows the list; Enter makes that link', async () => {
    term = await startSched(['link', 'create'], {
      env: { ...sb.env, SCHED_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' },
      width: 100,
      height: 30,
    });
    const first = await term.waitForScreen(/❯ .* min ·[\s\S]*type to filter/, 20_000);
    expect(first).toMatch(/^\? Meeting type\s*$/m);
    expect(first).toMatch(/type to filter • ↑↓ navigate • ⏎ select/);
    expect(entryLines(first)).toHaveLength(12);

    // One type to find among 400, by two words of its entry in any order.
    const target = sb.state.meetingTypes[337]!;
    const typed = `${target.duration} ${target.slug}`;
    await term.type(typed);
    // The header shows the text at once; the list follows when the filter has run: wait for
    // both (the entry under the cursor is then the one typed for).
    const esc = (v: string) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const filtered = await term.waitForScreen(
      new RegExp(
        `^\\? Meeting type ${esc(typed)}\\s*$[\\s\\S]*^❯ .* · ${esc(String(target.slug))}\\s*$`,
        'm',
      ),
    );
    const shown = entryLines(filtered);
    expect(shown.length).toBeGreaterThanOrEqual(1);
    expect(shown.length).toBeLessThan(12);
    for (const l of shown) {
      expect(l).toContain(String(target.slug));
      expect(l).toContain(`${target.duration} min`);
    }
    expect(filtered).toMatch(new RegExp(`❯ .* · ${target.slug}\\s*$`, 'm'));

    await term.sendKeys('Enter');
    expect(await term.waitForExit()).toBe(0);
    const links = [...sb.state.links.values()];
    expect(links).toHaveLength(1);
    expect(links[0]!.meeting_type_uuid).toBe(target.uuid);
  });

  it('a filter that matches nothing says so', async () => {
    sb.state.links.clear();
    term = await startSched(['link', 'create'], {
      env: { ...sb.env, SCHED_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' },
      width: 100,
      height: 30,
    });
    await term.waitForScreen(/type to filter/, 20_000);
    await term.type('zzzz-no-such-type');
    const none = await term.waitForScreen(/No results found/);
    expect(none).toMatch(/^\? Meeting type zzzz-no-such-type\s*$/m);
    expect(entryLines(none)).toHaveLength(0);
    await term.sendKeys('C-c');
    expect(await term.waitForExit()).toBe(130);
    expect(sb.state.links.size).toBe(0);
  });
});
