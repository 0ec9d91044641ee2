// How the terminal tables of `types list`, `webhooks ls` and the sandbox actions read at 80
// and 120 columns: nothing people copy is cut (UUIDs, URLs), names and events stay readable,
// no line is wider than the terminal — while TSV, CSV and JSON stay exactly the API's values.
import { describe, expect, it } from 'vitest';
import type { RunOptions } from '../helpers/run.js';
import { lines, useSandbox } from '../helpers/command-harness.js';
import { EVENT_NAMES } from '../../src/api/types.js';
import { FORMAT_ROWS, OUTPUT_FORMATS } from '../../src/output/formats.js';

const h = useSandbox();
const term = (columns: number): RunOptions => ({ tty: true, columns, env: { NO_COLOR: '1' } });

const HOOKS = [
  { url: 'https://example.com/hook', events: ['meetingScheduled', 'meetingRescheduled'] },
  {
    url: 'https://hooks.example.com/sched/all-events',
    events: [...EVENT_NAMES],
  },
  { url: 'https://api.example.org/webhooks/cancel', events: ['meetingCancelled'] },
];

async function seedWebhooks(): Promise<Array<{ uuid: string; created_at: string }>> {
  const made = [];
  for (const w of HOOKS) {
    const res = await h.sb.api('/webhooks', { method: 'POST', body: JSON.stringify(w) });
    expect(res.status).toBe(201);
    made.push((await res.json()) as { uuid: string; created_at: string });
  }
  return made;
}

/** The records of records mode: the lines of each, without the `-[ RECORD n ]---` rules. */
function records(out: string): string[][] {
  const all = lines(out);
  expect(all[0]).toMatch(/^-\[ RECORD 1 \]-+$/);
  const recs: string[][] = [];
  for (const l of all) {
    const rule = /^-\[ RECORD (\d+) \]-+$/.exec(l);
    if (rule) {
      expect(Number(rule[1])).toBe(recs.length + 1);
      recs.push([]);
    } else {
      recs[recs.length - 1]!.push(l);
    }
  }
  return recs;
}

const isWide = (ch: string) => /[\u3000-\u9fff\uff00-\uff60]/.test(ch);
const width = (s: string) => [...s].reduce((w, ch) => w + (isWide(ch) ? 2 : 1), 0);
/** The screen columns of a line: a wide character takes two, the second one ''. */
const screenCells = (l: string) => [...l].flatMap((ch) => (isWide(ch) ? [ch, ''] : [ch]));

/**
 * The text of the cells of one table column, a wrapped cell's lines joined with a space. A
 * row starts on a line where the `anchor` column (never wrapped, never empty) has text.
 */
function column(out: string, header: string, next: string | undefined, anchor: string): string[] {
  const all = lines(out);
  const start = all[0]!.indexOf(header);
  const end = next ? all[0]!.indexOf(next) : undefined;
  const a = all[0]!.indexOf(anchor);
  const rows: string[] = [];
  for (const l of all.slice(1)) {
    const screen = screenCells(l);
    const cell = screen.slice(start, end).join('').trim();
    if ((screen[a] ?? ' ') === ' ' && rows.length > 0) {
      rows[rows.length - 1] += cell === '' ? '' : ' ' + cell;
    } else {
      rows.push(cell);
    }
  }
  return rows;
}

describe('types list on a terminal', () => {
  for (const cols of [80, 120]) {
    it(`${cols} columns: whole UUIDs and slugs, whole names, nothing wider than the terminal`, async () => {
      const r = await h.run(['types', 'list', '--all'], term(cols));
      expect(r.code).toBe(0);
      const out = lines(r.stdout);
      expect(out[0]).toMatch(/^NAME +SLUG +MIN +UUID$/);
      for (const l of out) expect(width(l), l).toBeLessThanOrEqual(cols);
      const seeded = h.sb.state.meetingTypes;
      for (const t of seeded) {
        expect(r.stdout).toContain(t.uuid);
        expect(r.stdout).toContain(t.slug);
      }
      // A wrapped name reads back whole once its lines are joined.
      const names = column(r.stdout, 'NAME', 'SLUG', 'SLUG');
      for (const t of seeded) expect(names).toContain(t.name);
      expect(r.stdout).not.toContain('…');
    });
  }

  it('120 columns: one line per meeting type', async () => {
    const r = await h.run(['types', 'list', '--all'], term(120));
    expect(lines(r.stdout)).toHaveLength(1 + h.sb.state.meetingTypes.length);
  });

  it('piped and csv: unchanged (name, slug, duration, uuid; the API values)', async () => {
    const t = await h.run(['types', 'list', '--limit', '2']);
    for (const l of lines(t.stdout)) expect(l.split('\t')).toHaveLength(4);
    expect(lines(t.stdout)[0]).toMatch(/^[^\t]+\t[a-z0-9-]+\t\d+\t[0-9a-f-]{36}$/);
    const c = await h.run(['types', 'list', '--limit', '2', '-o', 'csv']);
    expect(c.stdout.split('\r\n')[0]).toBe('name,slug,duration,uuid');
  });
});

describe('webhooks ls on a terminal', () => {
  it('120 columns: full URLs on one line, events compact, a short UTC creation time', async () => {
    const made = await seedWebhooks();
    const r = await h.run(['webhooks', 'ls'], term(120));
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(out[0]).toMatch(/^UUID +URL +EVENTS +CREATED \(UTC\)$/);
    for (const l of out) expect(l.length, l).toBeLessThanOrEqual(120);
    for (const w of HOOKS) expect(out.some((l) => l.includes(w.url))).toBe(true);
    for (const m of made) expect(r.stdout).toContain(m.uuid);
    expect(column(r.stdout, 'EVENTS', 'CREATED', 'UUID')).toEqual([
      'scheduled, rescheduled',
      'all',
      'cancelled',
    ]);
    const created = made[0]!.created_at; // e.g. 2026-11-22T02:44:01+00:00
    const short = new Date(created).toISOString().slice(0, 16).replace('T', ' ');
    expect(column(r.stdout, 'CREATED (UTC)', undefined, 'UUID')[0]).toBe(short);
    expect(r.stdout).not.toContain(created);
    expect(r.stdout).not.toContain('meeting');
  });

  it('100 columns: whole UUIDs and URLs, the events wrap and the time makes room', async () => {
    const made = await seedWebhooks();
    const r = await h.run(['webhooks', 'ls'], term(100));
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    for (const l of out) expect(l.length, l).toBeLessThanOrEqual(100);
    expect(out[0]).toMatch(/^UUID +URL +EVENTS$/);
    made.forEach((m, i) =>
      expect(out).toContainEqual(expect.stringMatching(`^${m.uuid}  ${HOOKS[i]!.url} `)),
    );
    expect(column(r.stdout, 'EVENTS', undefined, 'UUID')).toEqual([
      'scheduled, rescheduled',
      'all',
      'cancelled',
    ]);
    expect(r.stdout).not.toContain('…');
  });

  it('80 columns, too narrow for a URL beside a UUID: records, every URL and UUID whole', async () => {
    // Before: URLs wrapped inside their column ('https://hooks.example.com/' / 'sched/all-events'),
    // so a copied URL was broken.
    const made = await seedWebhooks();
    const r = await h.run(['webhooks', 'ls'], term(80));
    expect(r.code).toBe(0);
    for (const l of lines(r.stdout)) expect(l.length, l).toBeLessThanOrEqual(80);
    expect(records(r.stdout)).toEqual(
      made.map((m, i) => [
        `UUID           ${m.uuid}`,
        `URL            ${HOOKS[i]!.url}`,
        `EVENTS         ${['scheduled, rescheduled', 'all', 'cancelled'][i]}`,
        `CREATED (UTC)  ${new Date(m.created_at).toISOString().slice(0, 16).replace('T', ' ')}`,
      ]),
    );
  });
  it('piped, csv and json: the API values (full event names, full timestamps)', async () => {
    const made = await seedWebhooks();
    const t = await h.run(['webhooks', 'ls']);
    const row = lines(t.stdout).find((l) => l.startsWith(made[1]!.uuid))!;
    expect(row.split('\t')).toEqual([
      made[1]!.uuid,
      HOOKS[1]!.url,
      EVENT_NAMES.join(','),
      made[1]!.created_at,
    ]);
    const c = await h.run(['webhooks', 'ls', '-o', 'csv']);
    expect(c.stdout.split('\r\n')[0]).toBe('uuid,url,events,created_at');
    expect(c.stdout).toContain(`"meetingScheduled,meetingRescheduled",${made[0]!.created_at}`);
    const j = await h.run(['webhooks', 'ls', '--json'], term(80));
    const list = JSON.parse(j.stdout) as Array<{ events: string[]; created_at: string }>;
    expect(list.map((w) => w.events)).toEqual(HOOKS.map((w) => w.events));
    expect(list[0]!.created_at).toBe(made[0]!.created_at);
  });
});

describe('webhooks rm --url --yes', () => {
  it('the UUID on stdout; the summary only on a stderr terminal', async () => {
    const [made] = await seedWebhooks();
    const tty = await h.run(['webhooks', 'rm', '--url', HOOKS[0]!.url, '--yes'], term(80));
    expect(tty.code).toBe(0);
    expect(tty.stdout).toBe(made!.uuid + '\n');
    expect(tty.stderr).toBe('Deleted 1 webhook.\n');
    const piped = await h.run(['webhooks', 'rm', '--url', HOOKS[1]!.url, '--yes']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(piped.stderr).toBe('');
  });
});

describe('sandbox cancel / reschedule on a terminal', () => {
  async function booked(): Promise<string> {
    const link = await h.run(['link', 'create', 'intro-call']);
    const r = await h.run(['sandbox', 'book', link.stdout.trim(), '-q']);
    expect(r.code).toBe(0);
    return r.stdout.trim();
  }

  it('reschedule shows the new start and the previous one', async () => {
    const uuid = await booked();
    const before = h.sb.state.meetings.get(uuid)!.meeting.scheduled_at;
    const r = await h.run(
      ['sandbox', 'reschedule', uuid, '--at', '2031-03-04T15:00:00+01:00'],
      term(80),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^STATE +rescheduled$/m);
    expect(r.stdout).toMatch(/^START +2031-03-04T14:00:00\+00:00$/m);
    expect(r.stdout).toMatch(new RegExp(`^PREVIOUS START +${before.replace(/\+/g, '\\+')}$`, 'm'));
    expect(r.stdout).not.toMatch(/CANCELED/);
    expect(r.stderr).toContain(`Rescheduled meeting ${uuid}.`);
    for (const l of lines(r.stdout + r.stderr)) expect(l.length, l).toBeLessThanOrEqual(80);
  });

  it('cancel shows the state, when, by whom and the reason', async () => {
    const uuid = await booked();
    const r = await h.run(
      ['sandbox', 'cancel', uuid, '--reason', 'Invitee asked to move it'],
      term(80),
    );
    expect(r.code).toBe(0);
    const canceledAt = h.sb.state.meetings.get(uuid)!.meeting.canceled_at!;
    expect(r.stdout).toMatch(/^STATE +canceled$/m);
    expect(r.stdout).toMatch(new RegExp(`^CANCELED AT +${canceledAt.replace(/\+/g, '\\+')}$`, 'm'));
    expect(r.stdout).toMatch(/^CANCELED BY +\w+$/m);
    expect(r.stdout).toMatch(/^REASON +Invitee asked to move it$/m);
    expect(r.stderr).toContain('no webhook is subscribed');
  });

  it('piped: the same eight TSV columns as before (the details are terminal-only)', async () => {
    const uuid = await booked();
    const r = await h.run(['sandbox', 'cancel', uuid, '--reason', 'x']);
    expect(r.code).toBe(0);
    const cells = r.stdout.replace(/\n$/, '').split('\t');
    expect(cells).toHaveLength(8);
    expect(cells.slice(0, 2)).toEqual([uuid, 'canceled']);
    const csv = await h.run(['sandbox', 'cancel', await booked(), '-o', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe(
      'uuid,state,meeting_type,invitee,email,start,invitee_time,notified',
    );
  });
});

/**
 * What a person copying from the terminal relies on: every line fits the width (but for a
 * line holding nothing but one URL or UUID wider than the terminal), and every URL and UUID
 * is whole on one line.
 */
function expectCopyable(out: string, cols: number, whole: readonly string[]): void {
  const all = lines(out);
  for (const l of all) {
    if (whole.includes(l.trim())) continue;
    expect(width(l), l).toBeLessThanOrEqual(cols);
  }
  for (const v of whole)
    expect(
      all.some((l) => l.includes(v)),
      v,
    ).toBe(true);
}

const isRecords = (out: string) => out.startsWith('-[ RECORD 1 ]-');

describe('every terminal table at 40, 80 and 120 columns', () => {
  const layouts: Array<[number, { webhooks: boolean; types: boolean; links: boolean }]> = [
    [40, { webhooks: true, types: true, links: true }],
    [80, { webhooks: true, types: false, links: false }],
    [120, { webhooks: false, types: false, links: false }],
  ];
  for (const [cols, recordsMode] of layouts) {
    it(`${cols} columns: webhooks ls ${recordsMode.webhooks ? 'as records' : 'as a table'}`, async () => {
      const made = await seedWebhooks();
      const r = await h.run(['webhooks', 'ls'], term(cols));
      expect(r.code).toBe(0);
      expect(isRecords(r.stdout)).toBe(recordsMode.webhooks);
      expectCopyable(r.stdout, cols, [...made.map((m) => m.uuid), ...HOOKS.map((w) => w.url)]);
    });

    it(`${cols} columns: types list ${recordsMode.types ? 'as records' : 'as a table'}`, async () => {
      const r = await h.run(['types', 'list', '--all'], term(cols));
      expect(r.code).toBe(0);
      expect(isRecords(r.stdout)).toBe(recordsMode.types);
      const seeded = h.sb.state.meetingTypes;
      expectCopyable(r.stdout, cols, [...seeded.map((t) => t.uuid), ...seeded.map((t) => t.slug)]);
      if (recordsMode.types) {
        const recs = records(r.stdout);
        expect(recs).toHaveLength(seeded.length);
        // Names aligned: each value starts in the same column.
        for (const rec of recs) expect(rec[0]).toMatch(/^NAME {2}\S/);
        expect(recs.map((rec) => rec[0]!.slice(6)).sort()).toEqual(
          seeded.map((t) => t.name).sort(),
        );
      }
    });

    it(`${cols} columns: link create -o table ${recordsMode.links ? 'as records' : 'as a table'}`, async () => {
      const r = await h.run(
        ['link', 'create', 'intro-call', '--count', '2', '-o', 'table'],
        term(cols),
      );
      expect(r.code).toBe(0);
      expect(isRecords(r.stdout)).toBe(recordsMode.links);
      const codes = [...h.sb.state.links.keys()];
      expect(codes).toHaveLength(2);
      const urls = codes.map((c) => `${h.sb.baseUrl.replace(/\/api$/, '')}/s/${c}`);
      expectCopyable(r.stdout, cols, [...urls, ...codes]);
    });
  }

  it('40 columns: a created webhook is a field list, its UUID and URL below their names, whole', async () => {
    const url = 'https://example.com/hooks/sched';
    const r = await h.run(['webhooks', 'add', '--url', url, '--no-secret'], term(40));
    expect(r.code).toBe(0);
    const [made] = [...h.sb.state.webhooks.values()];
    const out = lines(r.stdout);
    expect(out.slice(0, 5)).toEqual([
      'UUID',
      `  ${made!.uuid}`,
      'URL',
      `  ${url}`,
      'EVENTS         meetingScheduled',
    ]);
    expectCopyable(r.stdout, 40, [made!.uuid, url]);
  });
});

describe('COLUMNS', () => {
  it('when a positive integer, it wins over the terminal width', async () => {
    await seedWebhooks();
    const narrow = await h.run(['webhooks', 'ls'], {
      ...term(120),
      env: { NO_COLOR: '1', COLUMNS: '40' },
    });
    expect(isRecords(narrow.stdout)).toBe(true);
    expect(narrow.stdout).toMatch(/^UUID$/m); // the UUID goes below its name at 40
    const wide = await h.run(['webhooks', 'ls'], {
      ...term(40),
      env: { NO_COLOR: '1', COLUMNS: '150' },
    });
    expect(lines(wide.stdout)[0]).toMatch(/^UUID +URL +EVENTS +CREATED \(UTC\)$/);
  });

  for (const bad of ['', '0', '-5', 'wide', '80px']) {
    it(`COLUMNS=${JSON.stringify(bad)} is ignored: the terminal width is used`, async () => {
      await seedWebhooks();
      const r = await h.run(['webhooks', 'ls'], {
        ...term(120),
        env: { NO_COLOR: '1', COLUMNS: bad },
      });
      expect(lines(r.stdout)[0]).toMatch(/^UUID +URL +EVENTS +CREATED \(UTC\)$/);
    });
  }

  it('piped output ignores it: the same TSV at any COLUMNS', async () => {
    await seedWebhooks();
    const plain = await h.run(['webhooks', 'ls']);
    const narrow = await h.run(['webhooks', 'ls'], { env: { COLUMNS: '20' } });
    expect(narrow.stdout).toBe(plain.stdout);
    expect(plain.stdout.split('\n')[0]!.split('\t')).toHaveLength(4);
    for (const format of OUTPUT_FORMATS.filter((o) => !FORMAT_ROWS[o].human)) {
      const a = await h.run(['webhooks', 'ls', '-o', format]);
      const b = await h.run(['webhooks', 'ls', '-o', format], { env: { COLUMNS: '20' } });
      expect(b.stdout).toBe(a.stdout);
    }
  });
});
