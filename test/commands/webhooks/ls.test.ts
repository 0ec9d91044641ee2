// `sched webhooks ls` in-process against the sandbox.
import { describe, expect, it } from 'vitest';
import { runSched, type RunOptions } from '../../helpers/run.js';
import { envelope, f, startFaultServer } from '../../helpers/fault-server.js';
import { useSandbox } from '../../helpers/command-harness.js';

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

describe('sched webhooks ls: items of an odd shape', () => {
  it('events that are not a list and a time that is not a string: shown empty or as they came', async () => {
    const srv = await startFaultServer();
    try {
      const odd = [
        {
          uuid: 'u-1',
          url: 'https://a.example/h',
          events: 'meetingScheduled',
          created_at: 1767225600,
        },
        {
          uuid: 'u-2',
          url: 'https://b.example/h',
          events: ['meetingScheduled'],
          created_at: 'soon',
        },
      ];
      srv.on('GET', '/api/webhooks', f.json(200, envelope(odd)));
      const env = { SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: 'k' };
      const table = await runSched(['webhooks', 'ls'], {
        env: { ...env, NO_COLOR: '1' },
        tty: true,
      });
      expect(table.code, table.stderr).toBe(0);
      const rows = table.stdout
        .split('\n')
        .slice(1, 3)
        .map((l) => l.trim().split(/\s{2,}/));
      expect(rows).toEqual([
        ['u-1', 'https://a.example/h'],
        ['u-2', 'https://b.example/h', 'scheduled', 'soon'],
      ]);
      // Machine output keeps the API's values as they are.
      const json = await runSched(['webhooks', 'ls', '--json'], { env });
      expect(JSON.parse(json.stdout)).toEqual(odd);
    } finally {
      await srv.close();
    }
  });
});
