// The one renderer (show): the format table's rows and what each part of a Shown does. The
// formats are read from the table (test/rules/binding-names.test.ts spells the contract's).
import { describe, expect, it } from 'vitest';
import { createBufferIO } from '../helpers/buffer-io.js';
import {
  FORMAT_ROWS,
  type FormatRow,
  NO_CSV,
  OUTPUT_FORMATS,
  TEXT_ONLY,
  TEXT_OR_JSON,
} from '../../src/output/formats.js';
import {
  forPeople,
  humanFormat,
  printsData,
  refuseRecordPerLine,
  renderEvent,
  show,
  type Column,
  type OutputSettings,
  type Shown,
} from '../../src/output/render.js';

interface Rec {
  id: string;
  n: number;
}
const RECS: Rec[] = [
  { id: 'a1', n: 1 },
  { id: 'b2', n: 2 },
];
const COLUMNS: Column<Rec>[] = [
  { key: 'id', value: (r) => r.id },
  { key: 'n', value: (r) => r.n },
];

async function out(settings: OutputSettings, shown: Shown<Rec>, tty = false) {
  const io = createBufferIO({ tty, columns: 80 });
  const n = await show(io, settings, shown);
  return { n, text: io.stdoutText() };
}

describe('the format table', () => {
  it('the sets commands declare follow its rows, in its order', () => {
    const where = (test: (r: FormatRow) => boolean) =>
      OUTPUT_FORMATS.filter((f) => test(FORMAT_ROWS[f]));
    expect(TEXT_OR_JSON).toEqual(where((r) => r.human || (r.data && !r.streams)));
    expect(NO_CSV).toEqual(where((r) => r.human || r.data));
    expect(TEXT_ONLY).toEqual(where((r) => r.human));
  });

  it('every format prints a list and one record (no format without a writer)', async () => {
    for (const output of OUTPUT_FORMATS) {
      for (const tty of [false, true]) {
        const list = await out({ output }, { records: RECS, columns: COLUMNS }, tty);
        expect(list.n, output).toBe(2);
        expect(list.text, output).toContain('b2');
        const one = await out(
          { output },
          { records: [RECS[0]!], one: true, columns: COLUMNS },
          tty,
        );
        expect(one.text, output).toContain('a1');
      }
    }
  });

  it('the questions commands ask of a format answer from its row', () => {
    for (const output of OUTPUT_FORMATS) {
      const row = FORMAT_ROWS[output];
      expect(humanFormat({ output })).toBe(row.human);
      expect(printsData({ output })).toBe(row.data);
      const hint = 'drop -o, or add --paginate';
      const refuse = () => refuseRecordPerLine({ output }, '--paginate', hint);
      if (row.data && row.streams) {
        expect(refuse).toThrow(`-o ${output} prints one item per line: it needs --paginate`);
        // The caller's way out is said with it.
        expect(refuse).toThrow(expect.objectContaining({ hint }));
      } else expect(refuse).not.toThrow();
      expect(forPeople({ output, quiet: true })).toBe(false);
      expect(forPeople({ output })).toBe(row.human);
    }
  });
});

describe('show', () => {
  const lines = (r: Rec) => `id ${r.id}`;

  it('lines replace the table with -q; a machine format asked for wins over -q', async () => {
    expect(
      (await out({ output: 'table', quiet: true }, { records: RECS, columns: COLUMNS, lines }))
        .text,
    ).toBe('id a1\nid b2\n');
    expect(
      (await out({ output: 'csv', quiet: true }, { records: RECS, columns: COLUMNS, lines })).text,
    ).toBe('id,n\r\na1,1\r\nb2,2\r\n');
    // Without -q, the table.
    expect((await out({ output: 'table' }, { records: RECS, columns: COLUMNS, lines })).text).toBe(
      'a1\t1\nb2\t2\n',
    );
  });

  it("linesWhen 'default': lines unless the table was asked for by name; 'always': always", async () => {
    const shown: Shown<Rec> = { records: RECS, columns: COLUMNS, lines, linesWhen: 'default' };
    expect((await out({ output: 'table' }, shown)).text).toBe('id a1\nid b2\n');
    expect((await out({ output: 'table', outputGiven: true }, shown)).text).toBe('a1\t1\nb2\t2\n');
    const always: Shown<Rec> = { ...shown, linesWhen: 'always' };
    expect((await out({ output: 'table', outputGiven: true }, always)).text).toBe('id a1\nid b2\n');
    // Several lines for one record.
    const two: Shown<Rec> = { ...always, lines: (r) => [r.id, `  ${r.n}`] };
    expect((await out({ output: 'table' }, two)).text).toBe('a1\n  1\nb2\n  2\n');
  });

  it('summary: one line for people in place of the records, or nothing', async () => {
    const shown: Shown<Rec> = { records: RECS, columns: COLUMNS, summary: () => 'Done: 2.' };
    expect(await out({ output: 'table' }, shown)).toEqual({ n: 2, text: 'Done: 2.\n' });
    expect((await out({ output: 'table' }, { ...shown, summary: () => undefined })).text).toBe('');
    expect((await out({ output: 'ndjson' }, shown)).text).toBe(
      '{"id":"a1","n":1}\n{"id":"b2","n":2}\n',
    );
  });

  it('data and document: what the data formats print, the document written even on a failure', async () => {
    const shown: Shown<Rec> = {
      records: RECS,
      columns: COLUMNS,
      data: (r) => ({ x: r.id }),
      document: (all) => ({ all }),
    };
    expect((await out({ output: 'json' }, shown)).text).toBe('{"all":[{"x":"a1"},{"x":"b2"}]}\n');
    expect((await out({ output: 'ndjson' }, shown)).text).toBe('{"x":"a1"}\n{"x":"b2"}\n');
    expect((await out({ output: 'json' }, { ...shown, document: undefined })).text).toBe(
      '[{"x":"a1"},{"x":"b2"}]\n',
    );
    async function* failing(): AsyncGenerator<Rec> {
      yield RECS[0]!;
      throw new Error('page 2 failed');
    }
    const io = createBufferIO();
    await expect(show(io, { output: 'json' }, { ...shown, records: failing() })).rejects.toThrow(
      'page 2 failed',
    );
    expect(io.stdoutText()).toBe('{"all":[{"x":"a1"}]}\n');
  });

  it('humanColumns for people, columns for CSV; no columns: the data, as JSON', async () => {
    const shown: Shown<Rec> = { records: RECS, columns: COLUMNS, humanColumns: [COLUMNS[0]!] };
    expect((await out({ output: 'table' }, shown)).text).toBe('a1\nb2\n');
    expect((await out({ output: 'csv' }, shown)).text).toBe('id,n\r\na1,1\r\nb2,2\r\n');
    expect((await out({ output: 'table' }, { records: RECS })).text).toBe(
      '[{"id":"a1","n":1},{"id":"b2","n":2}]\n',
    );
    expect((await out({ output: 'table' }, { records: [RECS[0]!], one: true })).text).toBe(
      '{"id":"a1","n":1}\n',
    );
  });
});

describe('renderEvent', () => {
  it('a compact JSON line for the data formats, on a terminal too; the text for people', async () => {
    for (const output of OUTPUT_FORMATS) {
      const io = createBufferIO({ tty: true });
      await renderEvent(io, { output }, { ok: true }, ['ok']);
      expect(io.stdoutText()).toBe(FORMAT_ROWS[output].data ? '{"ok":true}\n' : 'ok\n');
    }
  });
});
