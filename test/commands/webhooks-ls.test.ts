// `sched webhooks ls` in-process against the sandbox.
import { describe, expect, it } from 'vitest';
import type { RunOptions } from '../helpers/run.js';
import { useSandbox } from './core-harness.js';

const h = useSandbox();
const ls = (args: string[], opts: RunOptions = {}) => h.run(['webhooks', 'ls', ...args], opts);

async function seed(n: number) {
  for (let i = 0; i < n; i++) {
    const res = await h.sb.api('/webhooks', {
      method: 'POST',
      body: JSON.stringify({
        url: `https://hooks.example.com/${i}`,
        events: i % 2 ? ['meetingScheduled'] : ['meetingScheduled', 'meetingCancelled'],
        secret: `s3cret-${i}-never-shown`,
      }),
    });
    expect(res.status).toBe(201);
  }
  h.sb.requests.length = 0;
}

describe('sched webhooks ls', () => {
  it('piped: uuid, url, events, created_at as TSV', async () => {
    await seed(2);
    const r = await ls([]);
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows).toHaveLength(2);
    const byUuid = new Map([...h.sb.state.webhooks.values()].map((w) => [w.uuid, w]));
    for (const [uuid, url, events, created] of rows) {
      const w = byUuid.get(uuid!)!;
      expect([url, events, created]).toEqual([w.url, w.events.join(','), w.created_at]);
    }
    expect(r.stdout).not.toContain('never-shown');
  });

  it('--json: the API objects (secret null), [] when there are none', async () => {
    expect((await ls(['--json'])).stdout).toBe('[]\n');
    await seed(3);
    const list = JSON.parse((await ls(['--json'])).stdout) as Array<{ secret: unknown }>;
    expect(list).toHaveLength(3);
    for (const w of list) expect(w.secret).toBeNull();
  });

  it('an empty list in table format: nothing on stdout, a note on stderr', async () => {
    const r = await ls([]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('No webhooks found.');
  });

  it('more pages: a hint on stderr; --all reads them all', async () => {
    await seed(12);
    const one = await ls([]);
    expect(one.stdout.trimEnd().split('\n')).toHaveLength(10);
    expect(one.stderr).toContain('Showing page 1 of 2 (10 of 12 webhooks)');
    const all = await ls(['--all', '--limit', '5', '-o', 'ndjson']);
    expect(all.stdout.trimEnd().split('\n')).toHaveLength(12);
    expect(all.stderr).toBe('');
    expect(h.sb.requests.filter((q) => q.method === 'GET').length).toBe(1 + 3);
  });

  it('on a terminal: a table with a header', async () => {
    await seed(1);
    const r = await ls([], { tty: true, columns: 200, env: { NO_COLOR: '1' } });
    expect(r.stdout.split('\n')[0]).toMatch(/^UUID\s+URL\s+EVENTS\s+CREATED \(UTC\)$/);
    expect(r.stdout).toContain('scheduled, cancelled'); // short names (terminal only)
  });

  it('-o csv and --quiet', async () => {
    await seed(1);
    const c = await ls(['-o', 'csv']);
    expect(c.stdout.split('\r\n')[0]).toBe('uuid,url,events,created_at');
    expect(c.stdout.split('\r\n')[1]).toContain('"meetingScheduled,meetingCancelled"');
    const q = await ls(['-q']);
    expect(q.stdout).toBe([...h.sb.state.webhooks.keys()][0] + '\n');
  });
});
