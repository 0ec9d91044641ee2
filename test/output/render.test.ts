import { describe, expect, it } from 'vitest';
import { createBufferIO, type BufferIO } from '../helpers/buffer-io.js';
import { renderLines, show, type Column } from '../../src/output/render.js';
import { renderList, renderObject } from '../helpers/render.js';
import { fitWidths } from '../../src/output/terminal-table.js';
import { QuietExit } from '../../src/errors.js';
import type { OutputFormat } from '../../src/context.js';
import { OUTPUT_FORMATS } from '../../src/output/formats.js';

interface Row {
  name: string;
  slug: string;
  duration: number;
  tags?: string[];
  uuid: string;
  extra?: unknown;
}

const columns: Column<Row>[] = [
  { key: 'name', value: (r) => r.name, shrink: true },
  { key: 'slug', value: (r) => r.slug, style: 'cyan' },
  { key: 'duration', value: (r) => r.duration },
  { key: 'tags', value: (r) => r.tags },
  { key: 'uuid', value: (r) => r.uuid, style: 'dim' },
];

const rows: Row[] = [
  {
    name: 'Intro call',
    slug: 'intro',
    duration: 30,
    tags: ['a', 'b'],
    uuid: '11111111-1111-4111-8111-111111111111',
    extra: { nested: [1, 2] },
  },
  { name: 'Deep dive', slug: 'deep', duration: 90, uuid: '22222222-2222-4222-8222-222222222222' },
];

function io(opts: Parameters<typeof createBufferIO>[0] = {}): BufferIO {
  return createBufferIO({ columns: 200, ...opts });
}

async function render(
  format: OutputFormat,
  items: Row[],
  o: Parameters<typeof createBufferIO>[0] = {},
) {
  const b = io(o);
  const n = await renderList(b, items, { format, columns });
  return { n, out: b.stdoutText(), err: b.stderrText() };
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/;

describe('renderList: table', () => {
  it('on a terminal: header row, aligned columns, colour', async () => {
    const r = await render('table', rows, { tty: true });
    expect(r.n).toBe(2);
    expect(r.out).toMatch(ANSI);
    // eslint-disable-next-line no-control-regex
    const plain = r.out.replace(/\x1b\[[0-9;]*m/g, '');
    const lines = plain.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^NAME\s+SLUG\s+DURATION\s+TAGS\s+UUID$/);
    expect(lines[1]).toMatch(
      /^Intro call\s+intro\s+30\s+a, b\s+11111111-1111-4111-8111-111111111111$/,
    );
    // Columns line up: each UUID starts at the same offset as the header.
    const at = lines[0]!.indexOf('UUID');
    expect(lines[1]!.indexOf('1111')).toBe(at);
    expect(lines[2]!.indexOf('2222')).toBe(at);
    expect(r.err).toBe('');
  });

  it('on a terminal without colour (NO_COLOR or --no-color): no escape codes', async () => {
    expect((await render('table', rows, { tty: true, env: { NO_COLOR: '1' } })).out).not.toMatch(
      ANSI,
    );
    expect((await render('table', rows, { tty: true, color: false })).out).not.toMatch(ANSI);
  });

  it('fits a narrow terminal by truncating text columns, never the UUID', async () => {
    const long = { ...rows[0]!, name: 'A meeting type with a remarkably long descriptive name' };
    const r = await render('table', [long], { tty: true, columns: 70, env: { NO_COLOR: '1' } });
    const lines = r.out.trimEnd().split('\n');
    expect(lines[1]).toContain('…');
    expect(lines[1]).toContain(long.uuid);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(70);
  });

  it('piped: tab-separated rows, no header, no colour, arrays comma-joined', async () => {
    const r = await render('table', rows, { tty: false, env: { FORCE_COLOR: undefined } });
    expect(r.out).toBe(
      'Intro call\tintro\t30\ta,b\t11111111-1111-4111-8111-111111111111\n' +
        'Deep dive\tdeep\t90\t\t22222222-2222-4222-8222-222222222222\n',
    );
  });

  it('piped: tabs and newlines inside values never split a row', async () => {
    const r = await render('table', [{ ...rows[1]!, name: 'a\tb\nc' }]);
    expect(r.out.split('\n')).toHaveLength(2);
    expect(r.out.split('\t')).toHaveLength(5);
    expect(r.out.startsWith('a b c\t')).toBe(true);
  });

  it('strips escape sequences from server strings on a terminal and when piped', async () => {
    const evil = { ...rows[1]!, name: '\x1b[2J\x1b]0;title\x07Evil\x1b[31m', slug: 'e\x9b1Avil' };
    for (const tty of [true, false]) {
      const r = await render('table', [evil], { tty, env: { NO_COLOR: '1' } });
      expect(r.out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/); // eslint-disable-line no-control-regex
      expect(r.out).toContain('Evil');
      expect(r.out).toContain('evil');
    }
  });

  it('an empty list prints nothing at all', async () => {
    expect((await render('table', [], { tty: true })).out).toBe('');
    expect((await render('table', [], { tty: false })).out).toBe('');
  });
});

describe('renderList: json', () => {
  it('piped: compact array of exactly the given objects, unknown fields kept', async () => {
    const r = await render('json', rows);
    expect(r.out).toBe(JSON.stringify(rows) + '\n');
    expect(JSON.parse(r.out)).toEqual(rows);
  });

  it('on a terminal: pretty-printed with 2 spaces, same as JSON.stringify', async () => {
    const r = await render('json', rows, { tty: true });
    expect(r.out).toBe(JSON.stringify(rows, null, 2) + '\n');
    expect(r.out).not.toMatch(ANSI);
  });

  it('keeps server strings exactly (no sanitizing in JSON)', async () => {
    const evil = { ...rows[1]!, name: '\x1b[31mred\ttab' };
    const r = await render('json', [evil]);
    expect(JSON.parse(r.out)[0].name).toBe('\x1b[31mred\ttab');
  });

  it('prints [] for an empty list, piped and on a terminal', async () => {
    expect((await render('json', [])).out).toBe('[]\n');
    expect((await render('json', [], { tty: true })).out).toBe('[]\n');
  });
});

describe('renderList: ndjson', () => {
  it('one compact object per line', async () => {
    const r = await render('ndjson', rows, { tty: true });
    const lines = r.out.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => JSON.parse(l))).toEqual(rows);
    expect(lines[0]).not.toContain('\n  ');
  });

  it('nothing for an empty list', async () => {
    expect((await render('ndjson', [])).out).toBe('');
  });
});

describe('renderList: csv', () => {
  it('header of column keys, CRLF records, RFC 4180 quoting', async () => {
    const tricky = { ...rows[1]!, name: 'Say "hi", then\nleave', slug: 'plain' };
    const r = await render('csv', [rows[0]!, tricky]);
    expect(r.out).toBe(
      'name,slug,duration,tags,uuid\r\n' +
        'Intro call,intro,30,"a,b",11111111-1111-4111-8111-111111111111\r\n' +
        '"Say ""hi"", then\nleave",plain,90,,22222222-2222-4222-8222-222222222222\r\n',
    );
  });

  it('strips escape sequences but no colour even on a terminal', async () => {
    const r = await render('csv', [{ ...rows[1]!, name: '\x1b[31mred\x1b[0m' }], { tty: true });
    expect(r.out).not.toMatch(ANSI);
    expect(r.out).toContain('\r\nred,');
  });

  it('an empty list is just the header', async () => {
    expect((await render('csv', [])).out).toBe('name,slug,duration,tags,uuid\r\n');
  });

  it('a list is a number field only when every item is a number', async () => {
    const b = io();
    const lists = [
      ['=1+1', 2],
      [2, '=1+1'],
      [-1, 2],
    ];
    await renderList(b, lists, { format: 'csv', columns: [{ key: 'v', value: (r) => r }] });
    // Text anywhere in it: a formula at its start is neutralised, as for any text.
    expect(b.stdoutText()).toBe('v\r\n"\'=1+1,2"\r\n"2,=1+1"\r\n"-1,2"\r\n');
  });

  it('--csv-bom: the byte order mark once, before the header', async () => {
    const b = io();
    await show(b, { output: 'csv', csvBom: true }, { records: rows, columns });
    const out = b.stdoutText();
    expect(out.startsWith('\uFEFFname,slug,')).toBe(true);
    expect(out.split('\uFEFF')).toHaveLength(2);
  });
});

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('streaming', () => {
  // Every format in a pipe, and a JSON array on a terminal (a terminal table holds its rows).
  const formats = OUTPUT_FORMATS.map((f) => [f, false] as const);
  for (const [format, tty] of [...formats, ['json', true] as const]) {
    it(`${format}${tty ? ' (terminal)' : ''} writes each item before the source ends`, async () => {
      const b = io({ tty });
      const seen: string[] = [];
      async function* source() {
        yield rows[0]!;
        await tick();
        seen.push(b.stdoutText());
        yield rows[1]!;
      }
      await renderList(b, source(), { format, columns });
      expect(seen[0]).toContain('intro');
      expect(seen[0]).not.toContain('deep');
      expect(b.stdoutText()).toContain('deep');
    });
  }

  it('a failing source after some items: json array closed so it parses, then the error', async () => {
    const b = io();
    async function* source() {
      yield rows[0]!;
      throw new Error('page 2 failed');
    }
    await expect(renderList(b, source(), { format: 'json', columns })).rejects.toThrow(
      'page 2 failed',
    );
    expect(JSON.parse(b.stdoutText())).toEqual([rows[0]]);
  });

  it('a source failing before any item leaves stdout empty', async () => {
    const b = io();
    // eslint-disable-next-line require-yield
    async function* source(): AsyncGenerator<Row> {
      throw new Error('no');
    }
    await expect(renderList(b, source(), { format: 'json', columns })).rejects.toThrow('no');
    expect(b.stdoutText()).toBe('');
  });

  it('a failing source on a terminal table still shows the rows it had', async () => {
    const b = io({ tty: true, env: { NO_COLOR: '1' } });
    async function* source() {
      yield rows[0]!;
      throw new Error('boom');
    }
    await expect(renderList(b, source(), { format: 'table', columns })).rejects.toThrow('boom');
    expect(b.stdoutText()).toContain('Intro call');
  });

  it('lets QuietExit (stdout closed) propagate, writes nothing more and stops the source', async () => {
    const b = io();
    let writes = 0;
    const closing = {
      ...b,
      async out(text: string) {
        writes += 1;
        if (writes > 1) throw new QuietExit();
        await b.out(text);
      },
    };
    let pulled = 0;
    let finished = false;
    async function* source() {
      try {
        for (let i = 0; i < 100; i++) {
          pulled += 1;
          yield rows[i % 2]!;
          await tick(); // like a page fetch: the renderer writes what it has
        }
      } finally {
        finished = true;
      }
    }
    await expect(renderList(closing, source(), { format: 'json', columns })).rejects.toBeInstanceOf(
      QuietExit,
    );
    expect(pulled).toBeLessThanOrEqual(3);
    expect(writes).toBe(2);
    expect(finished).toBe(true);
    expect(b.stdoutText()).toBe('[' + JSON.stringify(rows[0]));
  });

  it('waits on a full pipe (backpressure): the source is not drained meanwhile', async () => {
    const b = io();
    const releases: Array<() => void> = [];
    const slow = {
      ...b,
      out: (text: string) =>
        new Promise<void>((resolve) => {
          releases.push(() => void b.out(text).then(resolve));
        }),
    };
    let pulled = 0;
    async function* source() {
      for (let i = 0; i < 50; i++) {
        pulled += 1;
        yield rows[i % 2]!;
        await tick();
      }
    }
    const done = renderList(slow, source(), { format: 'ndjson', columns });
    for (let i = 0; i < 20; i++) await tick();
    expect(releases).toHaveLength(1);
    expect(pulled).toBeLessThanOrEqual(2);
    while (releases.length > 0 || pulled < 50) {
      releases.shift()?.();
      await tick();
    }
    await done;
    expect(b.stdoutText().trimEnd().split('\n')).toHaveLength(50);
  });

  it('writes a paged source one page per write, streaming page by page', async () => {
    const b = io();
    let writes = 0;
    const counting = { ...b, out: (t: string) => ((writes += 1), b.out(t)) };
    const seen: string[] = [];
    async function* pages() {
      for (let p = 0; p < 10; p++) {
        if (p === 1) seen.push(b.stdoutText());
        yield Array.from({ length: 100 }, (_, i) => ({ ...rows[0]!, duration: p * 100 + i }));
        await tick();
      }
    }
    expect(await renderList(counting, { pages: pages() }, { format: 'ndjson', columns })).toBe(
      1000,
    );
    expect(writes).toBe(10);
    expect(seen[0]!.split('\n')).toHaveLength(101);
    const out = b.stdoutText().trimEnd().split('\n');
    expect(out.map((l) => JSON.parse(l).duration)).toEqual([...Array(1000).keys()]);
  });

  it('writes an array of records with one write', async () => {
    const b = io();
    let writes = 0;
    const counting = { ...b, out: (t: string) => ((writes += 1), b.out(t)) };
    const many = Array.from({ length: 5 }, (_, i) => ({ ...rows[0]!, duration: i }));
    expect(await renderList(counting, many, { format: 'ndjson', columns })).toBe(5);
    expect(writes).toBe(1);
    expect(b.stdoutText().trimEnd().split('\n')).toHaveLength(5);
  });

  it('a paged json listing is one valid array', async () => {
    const b = io();
    async function* pages() {
      yield rows.slice(0, 1);
      yield [];
      yield rows.slice(1);
    }
    await renderList(b, { pages: pages() }, { format: 'json', columns });
    expect(JSON.parse(b.stdoutText())).toEqual(rows);
  });
});

describe('renderObject', () => {
  const one = rows[0]!;

  it('json: the object itself, compact when piped and pretty on a terminal', async () => {
    const b = io();
    await renderObject(b, one, { format: 'json', columns });
    expect(b.stdoutText()).toBe(JSON.stringify(one) + '\n');
    const t = io({ tty: true });
    await renderObject(t, one, { format: 'json', columns });
    expect(t.stdoutText()).toBe(JSON.stringify(one, null, 2) + '\n');
  });

  it('table on a terminal: one field per line; piped: one TSV row', async () => {
    const t = io({ tty: true, env: { NO_COLOR: '1' } });
    await renderObject(t, one, { format: 'table', columns });
    expect(t.stdoutText()).toMatch(/^NAME\s+Intro call\nSLUG\s+intro\n/);
    expect(t.stdoutText()).toMatch(/UUID\s+11111111-1111-4111-8111-111111111111\n$/);
    const p = io();
    await renderObject(p, one, { format: 'table', columns });
    expect(p.stdoutText()).toBe(
      'Intro call\tintro\t30\ta,b\t11111111-1111-4111-8111-111111111111\n',
    );
  });

  it('ndjson and csv', async () => {
    const n = io();
    await renderObject(n, one, { format: 'ndjson', columns });
    expect(n.stdoutText()).toBe(JSON.stringify(one) + '\n');
    const c = io();
    await renderObject(c, one, { format: 'csv', columns });
    expect(c.stdoutText().split('\r\n')).toHaveLength(3);
  });
});

describe('renderLines', () => {
  it('one sanitized value per line', async () => {
    const b = io();
    expect(await renderLines(b, ['a', 'b\x1b[31m\nc'])).toBe(2);
    expect(b.stdoutText()).toBe('a\nb c\n');
  });
});

describe('fitWidths', () => {
  it('keeps natural widths when they fit', () => {
    expect(fitWidths([10, 5], [true, false], [8, 8], 80)).toEqual([10, 5]);
  });
  it('shrinks the widest shrinkable column, not below its minimum', () => {
    expect(fitWidths([40, 36], [true, false], [8, 8], 60)).toEqual([22, 36]);
    expect(fitWidths([40, 36], [true, false], [8, 8], 20)).toEqual([8, 36]);
  });
});
