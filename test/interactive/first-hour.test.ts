// What a new user met in the first hour, at a real terminal (tmux) against an in-process
// sandbox: the questions asked before something large or destructive, the lists they show, and
// why there is no pick list when stdout goes to a file.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../helpers/run.js';
import { noTmux, startSched, startTerminal, tmuxTitle, type Terminal } from '../helpers/tmux.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { EVENT_NAMES } from '../../src/api/types.js';

const ALL_EVENTS = [...EVENT_NAMES];

describe.skipIf(noTmux())(tmuxTitle('first-hour questions in a real terminal'), () => {
  let sb: TestSandbox;
  let dir: string;
  let term: Terminal | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    sb = await startTestSandbox();
    dir = mkdtempSync(join(tmpdir(), 'sched-first-hour-'));
    env = { ...sb.env, SCHED_CONFIG_DIR: join(dir, 'config') };
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

  /** `sh -c <script>` in a 120x40 terminal, with `sched` as "$SCHED". */
  async function shell(script: string): Promise<Terminal> {
    term = await startTerminal(['sh', '-c', script], {
      env: { ...env, SCHED: `${process.execPath} ${BIN}` },
      cwd: dir,
    });
    return term;
  }

  async function seedWebhooks(urls: string[], events = ALL_EVENTS): Promise<string[]> {
    const uuids: string[] = [];
    for (const url of urls) {
      const res = await sb.api('/webhooks', {
        method: 'POST',
        body: JSON.stringify({ url, events }),
      });
      uuids.push(((await res.json()) as { uuid: string }).uuid);
    }
    sb.requests.length = 0;
    return uuids;
  }

  const screenLines = async (t: Terminal) =>
    (await t.screen()).split('\n').filter((l) => !/^Pane is dead/.test(l));

  it('link create --count 5 -o csv > links.csv with no meeting type: the pick list asks on the terminal', async () => {
    // Questions are asked where the person is (stdin and stderr), whatever stdout goes to.
    const t = await shell('$SCHED link create --count 5 -o csv > links.csv');
    await t.waitForScreen(/Meeting type/);
    await t.type('intro');
    await t.waitForScreen(/❯ Intro call/);
    await t.sendKeys('Enter');
    expect(await t.waitForExit()).toBe(0);
    const csv = readFileSync(join(dir, 'links.csv'), 'utf8').trim().split(/\r?\n/);
    expect(csv).toHaveLength(6);
    expect(csv.slice(1).every((l) => l.includes('/s/'))).toBe(true);
    expect(sb.requests.filter((r) => r.method === 'POST')).toHaveLength(5);
  });

  it('link create --count 5 -o csv > links.csv with no meeting type and --no-input: why no pick list', async () => {
    const t = await shell('$SCHED link create --count 5 -o csv --no-input > links.csv');
    expect(await t.waitForExit()).toBe(2);
    // Joined: the terminal wraps a long line.
    const screen = (await t.screen()).replace(/\n/g, '');
    expect(screen).toContain('error: no meeting type given, and no pick list to choose one from');
    expect(screen).toContain('sched link create intro-call --count 5 -o csv > links.csv');
    expect(readFileSync(join(dir, 'links.csv'), 'utf8')).toBe('');
    expect(sb.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('link create --count 1001 asks first; "n" creates nothing, "y" creates them all', async () => {
    const no = await startSched(['link', 'create', 'intro-call', '--count', '1001'], { env });
    await no.waitForScreen(/Create 1,001 single-use links\? The API cannot delete them\. \(y\/N\)/);
    await no.type('n');
    await no.sendKeys('Enter');
    expect(await no.waitForExit()).toBe(1);
    expect(await no.screen()).toContain('Cancelled; no links were created.');
    expect(sb.state.links.size).toBe(0);
    await no.kill();

    // Yes: all of them.
    term = await startSched(['link', 'create', 'intro-call', '--count', '1001'], { env });
    await term.waitForScreen(/\(y\/N\)/);
    await term.type('y');
    await term.sendKeys('Enter');
    expect(await term.waitForExit(30_000)).toBe(0);
    expect(sb.state.links.size).toBe(1001);
    await term.kill();

    // With stdout to a file it still asks: the question is on the terminal (stdin, stderr).
    term = await shell('$SCHED link create intro-call --count 1001 > links.txt');
    await term.waitForScreen(/\(y\/N\)/);
    await term.type('y');
    await term.sendKeys('Enter');
    expect(await term.waitForExit(30_000)).toBe(0);
    expect(readFileSync(join(dir, 'links.txt'), 'utf8').trim().split('\n')).toHaveLength(1001);
  }, 90_000);

  it('webhooks rm --all at 120 columns: UUIDs and URLs whole, a long URL on its own line', async () => {
    const long = `https://hooks.example.com/${'very-long-path-segment/'.repeat(6)}end`;
    const urls = ['https://hooks.example.com/short', long, `${long}?tenant=acme-corporation`];
    const uuids = await seedWebhooks(urls);
    await seedWebhooks(['https://hooks.example.com/cancel'], ['meetingCancelled']).then((u) =>
      uuids.push(...u),
    );
    term = await startSched(['webhooks', 'rm', '--all'], { env, width: 120 });
    await term.waitForScreen(/Delete 4 webhooks\? \(y\/N\)/);
    const lines = await screenLines(term);
    const at = lines.indexOf('This deletes 4 webhooks (every webhook):');
    expect(at).toBeGreaterThanOrEqual(0);
    const end = lines.findIndex((l) => /^\? Delete 4 webhooks\?/.test(l));
    // The screen as lines the program wrote: a line the terminal wrapped at 120 is joined.
    const listed: string[] = [];
    let wrapped = false;
    for (const l of lines.slice(at + 1, end)) {
      if (wrapped) listed[listed.length - 1] += l;
      else listed.push(l);
      wrapped = l.length === 120;
    }
    // In order, UUIDs whole; a URL is never cut (the README): the long ones on their own line.
    expect(listed).toHaveLength(6);
    expect([0, 1, 3, 5].map((i) => listed[i]!.slice(2, 38))).toEqual(uuids);
    expect(listed.join('\n')).not.toContain('…');
    expect(listed[0]).toMatch(/ {2}https:\/\/hooks\.example\.com\/short +all$/);
    expect(listed[1]).toMatch(/^ {2}\S{36} {2}all$/);
    expect(listed[2]).toBe(`    ${long}`);
    expect(listed[4]).toBe(`    ${long}?tenant=acme-corporation`);
    expect(listed[5]).toMatch(/ {2}https:\/\/hooks\.example\.com\/cancel +cancelled$/);
    await term.sendKeys('Enter');
    expect(await term.waitForExit()).toBe(1);
    expect(sb.state.webhooks.size).toBe(4);
  });

  it('webhooks sync whose plan deletes every webhook asks first; --yes does not', async () => {
    await seedWebhooks(['https://stray.example.com/a', 'https://stray.example.com/b']);
    writeFileSync(join(dir, 'none.yaml'), 'webhooks: []\n');
    term = await startSched(['webhooks', 'sync', '--file', 'none.yaml', '--prune'], {
      env,
      cwd: dir,
    });
    const asked = await term.waitForScreen(/Delete 2 webhooks\? \(y\/N\)/);
    expect(asked).toContain('warning: none.yaml lists no webhooks: --prune deletes every webhook');
    expect(asked).toMatch(
      /This deletes 2 webhooks \(every webhook of the account, as none\.yaml says\):/,
    );
    await term.type('n');
    await term.sendKeys('Enter');
    expect(await term.waitForExit()).toBe(1);
    expect(await term.screen()).toContain('Cancelled; nothing was changed.');
    expect(sb.state.webhooks.size).toBe(2);
    expect(sb.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
    await term.kill();

    term = await startSched(['webhooks', 'sync', '--file', 'none.yaml', '--prune', '--yes'], {
      env,
      cwd: dir,
    });
    expect(await term.waitForExit()).toBe(0);
    expect(await term.screen()).not.toContain('(y/N)');
    expect(sb.state.webhooks.size).toBe(0);
  });
});
