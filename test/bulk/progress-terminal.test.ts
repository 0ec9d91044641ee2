// The progress bar of `link create --count` in a real terminal (tmux): drawn while it works,
// erased at the end, never mixed into the URLs, and Ctrl-C typed at the terminal.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../helpers/run.js';
import { noTmux, startSched, startTerminal, tmuxTitle, type Terminal } from '../helpers/tmux.js';
import { startBulkServer, type BulkServer } from './bulk-server.js';

const A = '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c';
const BAR = /Creating links \[[=> ]{20}\] \d+\/300/;

describe.skipIf(noTmux())(tmuxTitle('link create progress bar in a real terminal'), () => {
  let srv: BulkServer;
  let dir: string;
  let env: Record<string, string>;
  let term: Terminal | undefined;
  beforeAll(async () => {
    srv = await startBulkServer();
    dir = mkdtempSync(join(tmpdir(), 'sched-bulk-tty-'));
    env = { ...srv.env, SCHED_CONFIG_DIR: join(dir, 'config') };
  });
  beforeEach(() => srv.reset({ delayMs: () => 15 }));
  afterEach(async () => {
    await term?.kill();
    term = undefined;
  });
  afterAll(async () => {
    await srv.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stdout and stderr on the terminal: the bar runs below the URLs and is gone at the end', async () => {
    term = await startSched(['link', 'create', A, '--count', '300', '--concurrency', '4'], {
      env,
    });
    await term.waitForScreen(BAR);
    expect(await term.waitForExit()).toBe(0);
    // The bar's line is left blank; tmux adds its own "Pane is dead" line.
    const screen = (await term.screen())
      .split('\n')
      .filter((l) => l.trim() !== '' && !/^Pane is dead/.test(l));
    expect(screen.join('\n')).not.toMatch(/Creating links/);
    // Every visible line is a whole URL: the bar never tore one apart.
    const created = new Set(srv.created.map((c) => c.url));
    expect(screen.length).toBeGreaterThan(10);
    expect(screen.filter((l) => !created.has(l.trim()))).toEqual([]);
  });

  it('stdout to a file: the bar on the terminal, the file holds only the URLs', async () => {
    const out = join(dir, 'links.txt');
    term = await startTerminal(
      ['sh', '-c', `"$NODE" "$BIN" link create ${A} --count 300 --concurrency 4 > "$OUT"`],
      { env: { ...env, NODE: process.execPath, BIN, OUT: out } },
    );
    await term.waitForScreen(BAR);
    expect(await term.waitForExit()).toBe(0);
    // Nothing left on the terminal but tmux's own "Pane is dead" line.
    const left = (await term.screen()).split('\n').filter((l) => l && !/^Pane is dead/.test(l));
    expect(left).toEqual([]);
    const urls = readFileSync(out, 'utf8').split('\n').filter(Boolean);
    expect(urls).toHaveLength(300);
    expect([...urls].sort()).toEqual(srv.created.map((c) => c.url).sort());
  });

  it('Ctrl-C at the terminal: exit 130, the links made so far printed, the count said', async () => {
    const out = join(dir, 'cut.txt');
    term = await startTerminal(
      ['sh', '-c', `"$NODE" "$BIN" link create ${A} --count 300 --concurrency 4 > "$OUT"`],
      { env: { ...env, NODE: process.execPath, BIN, OUT: out } },
    );
    await term.waitForScreen(BAR);
    await term.sendKeys('C-c');
    const status = await term.waitForExit();
    // sh passes on the status of the command it ran (130), or dies of the signal itself.
    expect([130, 128 + 2]).toContain(status);
    const screen = await term.waitForScreen(/interrupted: created \d+ of 300 links/);
    const urls = readFileSync(out, 'utf8').split('\n').filter(Boolean);
    expect(screen).toContain(`interrupted: created ${urls.length} of 300 links`);
    expect([...urls].sort()).toEqual(srv.created.map((c) => c.url).sort());
  });
});
