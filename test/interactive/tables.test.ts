// The terminal tables of the built binary in a real terminal (tmux) at 40, 80 and 120 columns,
// against an in-process sandbox: what a person sees and copies. A URL or UUID is never broken
// across screen lines (the screen is read without joining the lines the terminal folded), no
// line is folded by the terminal, and a table too wide becomes `-[ RECORD n ]-` records.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noTmux, startSched, startTerminal, tmuxTitle, type Terminal } from '../helpers/tmux.js';
import { BIN } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { EVENT_NAMES } from '../../src/api/types.js';

const HOOKS = [
  { url: 'https://example.com/hook', events: ['meetingScheduled', 'meetingRescheduled'] },
  // The URL of the report: split at 80-100 columns before.
  {
    url: 'https://api.example.com/hooks/sched/changes',
    events: [...EVENT_NAMES],
  },
];

describe.skipIf(noTmux())(tmuxTitle('terminal tables in a real terminal'), () => {
  let sb: TestSandbox;
  let dir: string;
  let term: Terminal | undefined;
  let uuids: string[] = [];

  beforeAll(async () => {
    sb = await startTestSandbox();
    dir = mkdtempSync(join(tmpdir(), 'sched-tables-'));
    for (const w of HOOKS) {
      const res = await sb.api('/webhooks', { method: 'POST', body: JSON.stringify(w) });
      expect(res.status).toBe(201);
      uuids.push(((await res.json()) as { uuid: string }).uuid);
    }
  });
  afterAll(async () => {
    await sb?.close();
    rmSync(dir, { recursive: true, force: true });
    uuids = [];
  });
  afterEach(async () => {
    await term?.kill();
    term = undefined;
  });

  /** Runs `sched <args>` in a terminal `width` columns wide; returns its screen once done. */
  async function screenOf(
    args: string[],
    width: number,
    env: Record<string, string> = {},
  ): Promise<string[]> {
    term = await startSched(args, {
      env: { ...sb.env, SCHED_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1', ...env },
      width,
      height: 60,
    });
    expect(await term.waitForExit()).toBe(0);
    // remain-on-exit adds a status line of tmux's own.
    return (await term.screen()).split('\n').filter((l) => !l.startsWith('Pane is dead'));
  }

  /**
   * Every value is whole on one screen line — or, when it is wider than the terminal itself,
   * starts a line of its own (the terminal folds it; nothing else is mixed in).
   */
  function expectWhole(screen: string[], values: readonly string[], width: number): void {
    for (const v of values) {
      if (v.length <= width) {
        expect(
          screen.some((l) => l.includes(v)),
          `${v} whole on one line of:\n${screen.join('\n')}`,
        ).toBe(true);
      } else {
        expect(screen).toContain(v.slice(0, width));
      }
    }
  }

  /**
   * No line was folded by the terminal: a line as wide as the terminal is a record rule, ends
   * with a whole value (the last column of a row that fits exactly), or is the start of a
   * value wider than the terminal.
   */
  function expectNoFold(screen: string[], width: number, values: readonly string[]): void {
    for (const l of screen) {
      if (l.length < width || /^-\[ RECORD \d+ \]-+$/.test(l)) continue;
      expect(
        values.some((v) => l.endsWith(v) || v.startsWith(l)),
        `folded line: ${l}`,
      ).toBe(true);
    }
  }

  const typeValues = () => sb.state.meetingTypes.flatMap((t) => [t.uuid, t.slug]);

  for (const [width, records] of [
    [40, { webhooks: true, types: true }],
    [80, { webhooks: true, types: false }],
    [120, { webhooks: false, types: false }],
  ] as const) {
    it(`${width} columns: webhooks ls ${records.webhooks ? 'as records' : 'as a table'}, every URL and UUID whole`, async () => {
      const screen = await screenOf(['webhooks', 'ls'], width);
      expect(screen[0]!.startsWith('-[ RECORD 1 ]-')).toBe(records.webhooks);
      if (!records.webhooks) expect(screen[0]).toMatch(/^UUID +URL +EVENTS/);
      const values = [...uuids, ...HOOKS.map((h) => h.url)];
      expectWhole(screen, values, width);
      expectNoFold(screen, width, values);
    });

    it(`${width} columns: types list ${records.types ? 'as records' : 'as a table'}, every UUID and slug whole`, async () => {
      const screen = await screenOf(['types', 'list', '--all'], width);
      expect(screen[0]!.startsWith('-[ RECORD 1 ]-')).toBe(records.types);
      if (!records.types) expect(screen[0]).toMatch(/^NAME +SLUG +MIN +UUID$/);
      expectWhole(screen, typeValues(), width);
      expectNoFold(screen, width, typeValues());
    });

    it(`${width} columns: link create -o table, every link URL whole`, async () => {
      sb.state.links.clear();
      const screen = await screenOf(
        ['link', 'create', 'intro-call', '--count', '2', '-o', 'table'],
        width,
      );
      const codes = [...sb.state.links.keys()];
      expect(codes).toHaveLength(2);
      const base = sb.baseUrl.replace(/\/api$/, '');
      const values = [...codes.map((c) => `${base}/s/${c}`), ...codes];
      expectWhole(screen, values, width);
      expectNoFold(screen, width, values);
    });
  }

  it('link create with several meeting types on a terminal: each URL under its meeting type; piped: bare URLs', async () => {
    sb.state.links.clear();
    const screen = await screenOf(
      ['link', 'create', 'intro-call', 'product-demo', '--count', '2'],
      80,
    );
    // The sandbox knows which meeting type each code was minted for.
    const base = sb.baseUrl.replace(/\/api$/, '');
    const urlsOf = (slugUuid: string) =>
      [...sb.state.links.entries()]
        .filter(([, l]) => l.meeting_type_uuid === slugUuid)
        .map(([code]) => `${base}/s/${code}`);
    const [intro, demo] = ['intro-call', 'product-demo'].map(
      (slug) => sb.state.meetingTypes.find((t) => t.slug === slug)!.uuid,
    );
    // tmux's "Pane is dead" line sits at the bottom: the blank lines above it are not output.
    while (screen.at(-1) === '') screen.pop();
    expect(screen).toEqual([
      'intro-call (2 links):',
      ...urlsOf(intro!),
      '',
      'product-demo (2 links):',
      ...urlsOf(demo!),
    ]);

    // The same command piped: exactly the four URLs, nothing else.
    sb.state.links.clear();
    // The first terminal is closed before the second replaces it (afterEach closes only the last).
    await term?.kill();
    term = await startTerminal(
      [
        'sh',
        '-c',
        '"$@" link create intro-call product-demo --count 2 | cat',
        'sh',
        process.execPath,
        BIN,
      ],
      { env: { ...sb.env, SCHED_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' }, width: 80 },
    );
    expect(await term.waitForExit()).toBe(0);
    const piped = (await term.screen())
      .split('\n')
      .filter((l) => !l.startsWith('Pane is dead') && l !== '');
    expect(piped).toEqual([...urlsOf(intro!), ...urlsOf(demo!)]);
  });

  it('COLUMNS=40 in a 120-column terminal lays out for 40: records', async () => {
    const screen = await screenOf(['webhooks', 'ls'], 120, { COLUMNS: '40' });
    expect(screen[0]).toMatch(/^-\[ RECORD 1 \]-+$/);
    expect(screen[0]!.length).toBeLessThanOrEqual(40);
    expect(screen).toContain('UUID');
    expectWhole(screen, uuids, 40);
  });
});
