// Terminal-style output on a pipe, as the built binary does it: SCHED_FORCE_TTY (tables with
// headers in a log, like gh's GH_FORCE_TTY) and COLUMNS. Without them piped output is TSV.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSched } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const URL_ = 'https://api.example.com/hooks/sched/changes';

describe('SCHED_FORCE_TTY and COLUMNS on the built binary, stdout piped', () => {
  let sb: TestSandbox;
  let dir: string;
  let uuid = '';
  beforeAll(async () => {
    sb = await startTestSandbox();
    dir = mkdtempSync(join(tmpdir(), 'sched-force-tty-'));
    const res = await sb.api('/webhooks', {
      method: 'POST',
      body: JSON.stringify({ url: URL_, events: ['meetingScheduled'] }),
    });
    uuid = ((await res.json()) as { uuid: string }).uuid;
  });
  afterAll(async () => {
    await sb?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (args: string[], env: Record<string, string | undefined> = {}) =>
    spawnSched(args, {
      env: {
        ...sb.env,
        SCHED_CONFIG_DIR: dir,
        NO_COLOR: '1',
        COLUMNS: undefined,
        SCHED_FORCE_TTY: undefined,
        ...env,
      },
    });

  it('unset, empty, 0 or false: tab-separated rows, no header (unchanged)', async () => {
    const plain = await run(['webhooks', 'ls']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(new RegExp(`^${uuid}\\t${URL_}\\tmeetingScheduled\\t\\S+\\n$`));
    for (const v of ['', '0', 'false']) {
      expect((await run(['webhooks', 'ls'], { SCHED_FORCE_TTY: v })).stdout).toBe(plain.stdout);
    }
    // COLUMNS alone changes nothing on a pipe.
    expect((await run(['webhooks', 'ls'], { COLUMNS: '40' })).stdout).toBe(plain.stdout);
  });

  it('set: the terminal table with its header, laid out for COLUMNS (else 80)', async () => {
    const wide = await run(['webhooks', 'ls'], { SCHED_FORCE_TTY: '1', COLUMNS: '120' });
    expect(wide.code).toBe(0);
    const lines = wide.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^UUID +URL +EVENTS +CREATED \(UTC\)$/);
    expect(lines[1]).toMatch(new RegExp(`^${uuid}  ${URL_}  scheduled  `));
    const narrow = await run(['webhooks', 'ls'], { SCHED_FORCE_TTY: '1', COLUMNS: '40' });
    expect(narrow.stdout).toMatch(/^-\[ RECORD 1 \]-+\nUUID\n {2}\S{36}\nURL\n/);
    const dflt = await run(['webhooks', 'ls'], { SCHED_FORCE_TTY: '1' });
    const at80 = await run(['webhooks', 'ls'], { SCHED_FORCE_TTY: '1', COLUMNS: '80' });
    expect(dflt.stdout).toBe(at80.stdout);
    expect(dflt.stdout).toContain(`\nURL            ${URL_}\n`);
  });

  it('set: JSON pretty-printed as on a terminal', async () => {
    const j = await run(['webhooks', 'ls', '--json'], { SCHED_FORCE_TTY: '1' });
    expect(j.stdout.startsWith('[\n  {\n')).toBe(true);
  });

  it('set: the layout only; colour follows the colour rules, so a log gets no escapes', async () => {
    for (const args of [
      ['webhooks', 'ls'],
      ['profiles', 'ls'],
      ['webhooks', 'ls', '--json'],
    ]) {
      const log = await run(args, { SCHED_FORCE_TTY: '1', COLUMNS: '120', NO_COLOR: undefined });
      expect(log.code).toBe(0);
      expect(log.stdout, args.join(' ')).not.toContain('\x1b[');
    }
    const table = await run(['webhooks', 'ls'], {
      SCHED_FORCE_TTY: '1',
      COLUMNS: '120',
      NO_COLOR: undefined,
    });
    expect(table.stdout).toMatch(/^UUID +URL/);
    // FORCE_COLOR asks for colour on a pipe, with or without the terminal layout.
    const forced = await run(['webhooks', 'ls'], {
      SCHED_FORCE_TTY: '1',
      COLUMNS: '120',
      NO_COLOR: undefined,
      FORCE_COLOR: '1',
    });
    expect(forced.stdout).toContain('\x1b[1mUUID');
  });
});
