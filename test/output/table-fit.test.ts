// Fitting a terminal table to the width: which column gives way, how text wraps, when a
// detail column is hidden, and that TSV/CSV never see the terminal-only forms.
import { describe, expect, it } from 'vitest';
import { createBufferIO } from '../helpers/buffer-io.js';
import { MAX_TEXT_CELL, MAX_WHOLE_CELL, type Column } from '../../src/output/render.js';
import { renderList, renderObject } from '../helpers/render.js';
import { planWidths, wrapText } from '../../src/output/terminal-table.js';
import { OUTPUT_FORMATS } from '../../src/output/formats.js';

describe('wrapText', () => {
  it('keeps text that fits as one line', () => {
    expect(wrapText('Intro call', 10)).toEqual(['Intro call']);
  });
  it('breaks after spaces and commas, dropping the trailing space', () => {
    expect(wrapText('Technical deep dive', 15)).toEqual(['Technical deep', 'dive']);
    expect(wrapText('scheduled, rescheduled', 12)).toEqual(['scheduled,', 'rescheduled']);
  });
  it('breaks a path after a slash, else inside a word; nothing is lost', () => {
    const path = 'hooks.example.com/sched/all-events';
    const wrapped = wrapText(path, 20);
    expect(wrapped).toEqual(['hooks.example.com/', 'sched/all-events']);
    expect(wrapped.join('')).toBe(path);
    const hard = wrapText('abcdefghijklmnopqrstuvwxyz', 10);
    expect(hard).toEqual(['abcdefghij', 'klmnopqrst', 'uvwxyz']);
  });
  it('never breaks a URL or a UUID: each gets a line of its own, wider if it must', () => {
    // Before: 'https://hooks.example.com/' / 'sched/all-events' — a copied URL was broken.
    const url = 'https://hooks.example.com/sched/all-events';
    expect(wrapText(url, 29)).toEqual([url]);
    expect(wrapText(`see ${url}, then`, 29)).toEqual(['see', `${url},`, 'then']);
    const uuid = '11111111-1111-4111-8111-111111111111';
    expect(wrapText(`Intro ${uuid} call`, 20)).toEqual(['Intro', uuid, 'call']);
    expect(wrapText('a-b-c-d-e-f-g-h-i-j', 8)).toEqual(['a-b-c-d-', 'e-f-g-h-', 'i-j']);
  });
  it('gives empty text one empty line', () => {
    expect(wrapText('', 10)).toEqual(['']);
  });
  it('counts combining marks as no column', () => {
    // "e" + U+0301 five times: 10 code points, 5 columns.
    expect(wrapText('e\u0301'.repeat(5) + ' x', 7)).toEqual(['e\u0301'.repeat(5) + ' x']);
    expect(wrapText('e\u0301'.repeat(5) + ' x', 6)).toEqual(['e\u0301'.repeat(5), 'x']);
  });
  it('counts wide characters as two columns', () => {
    for (const l of wrapText('面談 (consultation in Japanese)', 12)) {
      const w = [...l].reduce((n, ch) => n + (/[\u3000-\u9fff]/.test(ch) ? 2 : 1), 0);
      expect(w).toBeLessThanOrEqual(12);
    }
  });
});

describe('planWidths', () => {
  const uuid = { natural: 36, min: 36, reducible: false };
  it('keeps natural widths when they fit', () => {
    expect(planWidths([uuid, { natural: 20, min: 8, reducible: true }], 80)).toEqual([36, 20]);
  });
  it('narrows narrowFirst columns before the others, never below their minimum', () => {
    const url = { natural: 42, min: 24, reducible: true };
    const events = { natural: 22, min: 11, reducible: true, narrowFirst: true };
    // 36 + 42 + 22 + 4 = 104 on 102 columns: the events give the 2 columns, not the URL.
    expect(planWidths([uuid, url, events], 102)).toEqual([36, 42, 20]);
    // 90 columns: the events go to 11, then the URL gives the rest.
    expect(planWidths([uuid, url, events], 90)).toEqual([36, 39, 11]);
  });
  it('hides an optional column only when narrowing cannot make the table fit', () => {
    const url = { natural: 42, min: 24, reducible: true };
    const created = { natural: 16, min: 16, reducible: false, optional: true };
    expect(planWidths([uuid, url, created], 100)).toEqual([36, 42, 16]);
    expect(planWidths([uuid, url, created], 80)).toEqual([36, 24, 16]);
    expect(planWidths([uuid, url, created], 70)).toEqual([36, 32, null]);
  });
  it('narrows the widest reducible column first, one column at a time', () => {
    const a = { natural: 30, min: 10, reducible: true };
    const b = { natural: 20, min: 10, reducible: true };
    // 30 + 20 + 2 = 52 on 42 columns: the wider gives way until both are as wide.
    expect(planWidths([b, a], 42)).toEqual([20, 20]);
    expect(planWidths([b, a], 38)).toEqual([18, 18]);
  });
  it('leaves the table too wide rather than cutting a column that cannot shrink', () => {
    expect(planWidths([uuid, uuid], 40)).toEqual([36, 36]);
  });
});

interface Hook {
  uuid: string;
  url: string;
  events: string[];
  created: string;
}

const HOOK: Hook = {
  uuid: '11111111-1111-4111-8111-111111111111',
  url: 'https://hooks.example.com/sched/all-events',
  events: ['meetingScheduled', 'meetingCancelled'],
  created: '2026-11-22T02:15:09+00:00',
};

const COLUMNS: Column<Hook>[] = [
  { key: 'uuid', value: (h) => h.uuid },
  { key: 'url', value: (h) => h.url, wrap: true, minWidth: 24 },
  {
    key: 'events',
    value: (h) => h.events,
    display: () => ['scheduled', 'cancelled'],
    wrap: true,
    narrowFirst: true,
  },
  {
    key: 'created',
    value: (h) => h.created,
    display: () => '2026-11-22 02:15',
    optional: true,
  },
  { key: 'note', value: () => 'terminal only', terminalOnly: true },
];

async function render(
  opts: Parameters<typeof createBufferIO>[0],
  format: 'table' | 'csv',
  columns: Column<Hook>[] = COLUMNS,
) {
  const io = createBufferIO({ env: { NO_COLOR: '1' }, ...opts });
  await renderList(io, [HOOK], { format, columns });
  return io.stdoutText();
}

describe('terminal-only forms', () => {
  it('the terminal table shows display values and terminal-only columns', async () => {
    const out = await render({ tty: true, columns: 200 }, 'table');
    expect(out).toContain('scheduled, cancelled');
    expect(out).toContain('2026-11-22 02:15');
    expect(out).toContain('terminal only');
    expect(out).not.toContain('meetingScheduled');
  });
  it('TSV and CSV carry the values, without terminal-only columns', async () => {
    expect(await render({}, 'table')).toBe(
      `${HOOK.uuid}\t${HOOK.url}\tmeetingScheduled,meetingCancelled\t${HOOK.created}\n`,
    );
    expect((await render({}, 'csv')).split('\r\n')).toEqual([
      'uuid,url,events,created',
      `${HOOK.uuid},${HOOK.url},"meetingScheduled,meetingCancelled",${HOOK.created}`,
      '',
    ]);
  });
  it('on 100 columns: the optional column goes, the events wrap, the URL stays whole', async () => {
    const withoutNote = COLUMNS.filter((c) => !c.terminalOnly);
    const out = await render({ tty: true, columns: 100 }, 'table', withoutNote);
    const lines = out.trimEnd().split('\n');
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(100);
    expect(lines[0]).toMatch(/^UUID +URL +EVENTS$/);
    expect(lines[1]).toBe(`${HOOK.uuid}  ${HOOK.url}  scheduled,`);
    expect(lines[2]!.trim()).toBe('cancelled');
    expect(out).not.toContain('…');
  });
  it('on 80 columns, where the URL would have to break: records, every field, nothing cut', async () => {
    // Before: the URL wrapped in its column ('https://hooks.example.com/' / 'sched/all-events').
    const withoutNote = COLUMNS.filter((c) => !c.terminalOnly);
    const out = await render({ tty: true, columns: 80 }, 'table', withoutNote);
    expect(out).toBe(
      [
        // The rule is as wide as the widest line.
        '-[ RECORD 1 ]'.padEnd(`URL      ${HOOK.url}`.length, '-'),
        `UUID     ${HOOK.uuid}`,
        `URL      ${HOOK.url}`,
        'EVENTS   scheduled, cancelled',
        'CREATED  2026-11-22 02:15',
        '',
      ].join('\n'),
    );
  });
  it('the field list shows a terminal-only field only when it has a value', async () => {
    const cols: Column<{ a: string; b: string | null }>[] = [
      { key: 'a', value: (x) => x.a },
      { key: 'b', value: (x) => x.b, terminalOnly: true },
    ];
    const io = createBufferIO({ tty: true, env: { NO_COLOR: '1' } });
    await renderObject(io, { a: 'x', b: null }, { format: 'table', columns: cols });
    await renderObject(io, { a: 'y', b: 'z' }, { format: 'table', columns: cols });
    expect(io.stdoutText()).toBe('A  x\nA  y\nB  z\n');
  });
  it('the field list puts a long list one item per line', async () => {
    const cols: Column<{ urls: string[] }>[] = [{ key: 'urls', value: (x) => x.urls }];
    const urls = ['https://a.example.com/hook/one', 'https://b.example.com/hook/two'];
    const io = createBufferIO({ tty: true, columns: 50, env: { NO_COLOR: '1' } });
    await renderObject(io, { urls }, { format: 'table', columns: cols });
    expect(io.stdoutText()).toBe(`URLS  ${urls[0]}\n      ${urls[1]}\n`);
  });
});

describe('what a terminal never breaks or cuts', () => {
  const uuid = '11111111-1111-4111-8111-111111111111';
  interface Link {
    ref: string;
    url: string;
  }
  const linkColumns: Column<Link>[] = [
    { key: 'meeting_type', header: 'MEETING TYPE', value: (l) => l.ref, shrink: true },
    { key: 'url', value: (l) => l.url },
  ];
  const linkUrl = 'https://example.com/s/AbCdEf123456';

  it('a shrink column cuts a name with … but never a UUID: records instead', async () => {
    const io = createBufferIO({ tty: true, columns: 50, env: { NO_COLOR: '1' } });
    const items = [
      { ref: 'a-rather-long-meeting-type-slug', url: linkUrl },
      { ref: 'intro', url: linkUrl },
    ];
    await renderList(io, items, { format: 'table', columns: linkColumns });
    expect(io.stdoutText()).toContain('\na-rather-long…  https://');
    const withUuid = createBufferIO({ tty: true, columns: 50, env: { NO_COLOR: '1' } });
    await renderList(withUuid, [{ ref: uuid, url: linkUrl }], {
      format: 'table',
      columns: linkColumns,
    });
    expect(withUuid.stdoutText()).toBe(
      `-[ RECORD 1 ]${'-'.repeat(37)}\nMEETING TYPE  ${uuid}\nURL           ${linkUrl}\n`,
    );
  });

  it('a wrapped column holding a URL is at least as wide as the URL', async () => {
    const io = createBufferIO({ tty: true, columns: 45, env: { NO_COLOR: '1' } });
    const cols: Column<{ note: string; id: string }>[] = [
      { key: 'id', value: (x) => x.id },
      { key: 'note', value: (x) => x.note, wrap: true, minWidth: 10 },
    ];
    await renderList(io, [{ id: 'abc', note: `moved to ${linkUrl} last week` }], {
      format: 'table',
      columns: cols,
    });
    expect(io.stdoutText()).toBe(`ID   NOTE\nabc  moved to\n     ${linkUrl} last\n     week\n`);
  });
});

describe('cells are capped before layout (the full value stays in TSV, CSV and JSON)', () => {
  const huge = 'q'.repeat(100_000);
  const cols: Column<{ name: string; url: string }>[] = [
    { key: 'name', value: (x) => x.name, wrap: true },
    { key: 'url', value: (x) => x.url },
  ];
  const url = 'https://example.com/' + 'p'.repeat(5_000);

  it('a 100,000-character name: at most MAX_TEXT_CELL characters shown, ending in …', async () => {
    for (const columns of [200, 40]) {
      const io = createBufferIO({ tty: true, columns, env: { NO_COLOR: '1' } });
      await renderList(io, [{ name: huge, url: 'https://example.com/h' }], {
        format: 'table',
        columns: cols,
      });
      const shown = io.stdoutText().match(/[q…]+/g)!.join('');
      expect(shown).toBe('q'.repeat(MAX_TEXT_CELL - 1) + '…');
    }
    const one = createBufferIO({ tty: true, columns: 80, env: { NO_COLOR: '1' } });
    await renderObject(one, { name: huge, url: 'u' }, { format: 'table', columns: cols });
    expect(one.stdoutText().match(/[q…]+/g)!.join('')).toBe('q'.repeat(MAX_TEXT_CELL - 1) + '…');
  });

  it('a URL longer than any real one is capped too, and says so with …', async () => {
    const io = createBufferIO({ tty: true, columns: 80, env: { NO_COLOR: '1' } });
    await renderList(io, [{ name: 'n', url }], { format: 'table', columns: cols });
    const line = io
      .stdoutText()
      .split('\n')
      .find((l) => l.includes('https://'))!;
    expect(line.trim()).toBe(url.slice(0, MAX_WHOLE_CELL - 1) + '…');
  });

  it('every format in a pipe (TSV, CSV, JSON, …) carries the whole values', async () => {
    for (const format of OUTPUT_FORMATS) {
      const io = createBufferIO({ env: { NO_COLOR: '1' } });
      await renderList(io, [{ name: huge, url }], { format, columns: cols });
      expect(io.stdoutText()).toContain(huge);
      expect(io.stdoutText()).toContain(url);
    }
  });
});

describe('capping counts characters, not UTF-16 units', () => {
  const cols: Column<{ name: string }>[] = [{ key: 'name', value: (x) => x.name, wrap: true }];
  async function shown(name: string): Promise<string> {
    const io = createBufferIO({ tty: true, columns: 1000, env: { NO_COLOR: '1' } });
    await renderList(io, [{ name }], { format: 'table', columns: cols });
    return io.stdoutText().split('\n')[1]!;
  }
  it('MAX_TEXT_CELL emoji are shown whole; one more is capped without splitting a pair', async () => {
    const emoji = '🙂'; // two UTF-16 units
    expect(await shown(emoji.repeat(MAX_TEXT_CELL))).toBe(emoji.repeat(MAX_TEXT_CELL));
    expect(await shown(emoji.repeat(MAX_TEXT_CELL + 1))).toBe(
      emoji.repeat(MAX_TEXT_CELL - 1) + '…',
    );
  });
});

// The terminal table measures with string-width (the library cli-table3 pads with): an emoji
// sequence takes the two columns a terminal gives it. The hand-made table counted a ZWJ family
// as 6, a skin-toned thumb as 4, and a keycap or an emoji with VS16 as 1, so such a name
// pushed the columns after it out of line.
describe('emoji sequences and wide characters', () => {
  const FAMILY = '👨‍👩‍👧';
  it('an emoji sequence is two columns wide, and is never cut inside', () => {
    expect(wrapText(`${FAMILY} x`, 4)).toEqual([`${FAMILY} x`]);
    expect(wrapText(`${FAMILY} x`, 3)).toEqual([FAMILY, 'x']);
    expect(wrapText('👍🏽👍🏽👍🏽', 4)).toEqual(['👍🏽👍🏽', '👍🏽']);
  });

  it('keeps the columns after an emoji or CJK name in line', async () => {
    const io = createBufferIO({ tty: true, columns: 80, env: { NO_COLOR: '1' } });
    const rows = [
      { name: `${FAMILY} Family call`, slug: 'family' },
      { name: '1️⃣ First ❤️', slug: 'first' },
      { name: '面談 (30分)', slug: 'mendan' },
      { name: 'Plain', slug: 'plain' },
    ];
    const columns: Column<(typeof rows)[number]>[] = [
      { key: 'name', value: (r) => r.name },
      { key: 'slug', value: (r) => r.slug },
    ];
    await renderList(io, rows, { format: 'table', columns });
    const lines = io.stdoutText().trimEnd().split('\n');
    // Where SLUG starts on screen: every row's slug starts in the same screen column.
    const { default: stringWidth } = await import('string-width');
    const starts = lines.map((l, i) =>
      stringWidth(l.slice(0, l.lastIndexOf(i === 0 ? 'SLUG' : rows[i - 1]!.slug))),
    );
    expect(new Set(starts).size, lines.join('\n')).toBe(1);
    expect(starts[0]).toBe(stringWidth(`${FAMILY} Family call`) + 2);
  });
});
