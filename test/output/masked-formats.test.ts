// Issue 39, masking on values: the secrets a command knows are replaced in the DATA the
// renderer receives, before any format, cutting, wrapping or layout. The rule, for every
// output format (read from the code's own table) and every layout of the terminal table:
// with secrets full of quotes, colons, commas, newlines and `*` planted in every field (keys
// too), the output still parses as its format says, and no piece of a secret of 6 or more
// characters survives.
import { describe, expect, it } from 'vitest';
import { createBufferIO } from '../helpers/buffer-io.js';
import { parseCsv } from '../helpers/csv-parse.js';
import { leakedPieces } from '../helpers/leak.js';
import { renderJsonLine, renderReceived, type Column } from '../../src/output/render.js';
import { renderList, renderObject } from '../helpers/render.js';
import { masker, maskValue } from '../../src/mask.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../../src/output/formats.js';

const SECRETS = [
  'k3y:"quoted",\n*star*:value,with,commas"and\'more\'',
  '****sk_live_Q7xP2mZr9TkWb4LnYc8VhJd3Fs6Gq****',
  'wh:sec,"x"\r\n- *alias &anchor: {y}',
];
const [A, B, C] = SECRETS as [string, string, string];

interface Item {
  name: string;
  slug: string;
  uuid: string;
  events: string[];
  count: number;
  nested: Record<string, unknown>;
}

const item = (n: number): Item => ({
  name: `Intro call ${n} ${A} then ${B}`,
  slug: B,
  uuid: `3f1c9a4e-8a52-4f0e-9d7b-2c5e6a1b0d1${n}`,
  events: ['meetingScheduled', C, `x${B}y`],
  count: n,
  nested: { [A]: C, deep: [[B]], [`key ${B}`]: 1 },
});

const COLUMNS: Column<Item>[] = [
  { key: 'name', value: (i) => i.name, wrap: true },
  { key: 'slug', value: (i) => i.slug, shrink: true },
  { key: 'uuid', value: (i) => i.uuid },
  { key: 'events', value: (i) => i.events, wrap: true, narrowFirst: true },
  { key: 'count', value: (i) => i.count, align: 'right' },
];

/** Lines of output, the empty last one dropped. */
const linesOf = (out: string) => out.split('\n').filter(Boolean);

/**
 * How each format's output is read back, checking it has the records it should: a record keyed
 * by the format, so a format without its reader does not compile.
 */
const PARSES: Record<OutputFormat, (out: string, records: number, tty: boolean) => void> = {
  json(out, records) {
    const v = JSON.parse(out) as unknown;
    if (Array.isArray(v)) expect(v).toHaveLength(records);
  },
  ndjson(out, records) {
    const lines = linesOf(out);
    expect(lines).toHaveLength(records);
    for (const l of lines) expect(() => JSON.parse(l) as unknown).not.toThrow();
  },
  csv(out, records) {
    const rows = parseCsv(out);
    expect(rows).toHaveLength(records + 1);
    for (const r of rows) expect(r).toHaveLength(COLUMNS.length);
  },
  table(out, records, tty) {
    if (!tty) {
      // TSV: one line per record, one tab between each two columns.
      const lines = linesOf(out);
      expect(lines).toHaveLength(records);
      for (const l of lines) expect(l.split('\t')).toHaveLength(COLUMNS.length);
      return;
    }
    // The terminal table, its records or the field list: every item's UUID whole, once.
    for (let n = 0; n < records; n++) {
      expect(out.split(`3f1c9a4e-8a52-4f0e-9d7b-2c5e6a1b0d1${n}`)).toHaveLength(2);
    }
  },
};

const WIDTHS = [40, 60, 90, 200];

describe('every format, every layout: secrets masked in the data, output still parses', () => {
  for (const format of OUTPUT_FORMATS) {
    for (const tty of [false, true]) {
      for (const columns of tty ? WIDTHS : [80]) {
        for (const shape of ['list', 'object'] as const) {
          it(`${format}, ${tty ? `terminal ${columns} wide` : 'pipe'}, ${shape}`, async () => {
            const io = createBufferIO({ tty, columns });
            io.addSecrets(SECRETS);
            const items = [item(0), item(1)];
            if (shape === 'list') await renderList(io, items, { format, columns: COLUMNS });
            else await renderObject(io, items[0]!, { format, columns: COLUMNS });
            const out = io.stdoutText();
            const records = shape === 'list' ? 2 : 1;
            PARSES[format](out, records, tty);
            for (const s of SECRETS) expect(leakedPieces(out, s), out).toEqual([]);
            expect(out).toContain('****');
          });
        }
      }
    }
  }
});

describe('the other writers of data mask values too', () => {
  it('an answer as received (`sched api`): masked inside its strings, still JSON', async () => {
    for (const tty of [false, true]) {
      const io = createBufferIO({ tty });
      io.addSecrets(SECRETS);
      const body = `{${JSON.stringify(A)}:[${JSON.stringify(B)},{"c":${JSON.stringify(`x${C}y`)}}],"n":12345678901234567890}`;
      await renderReceived(io, Buffer.from(body));
      const out = io.stdoutText();
      expect(Object.keys(JSON.parse(out) as object)).toEqual(['****', 'n']);
      expect(out).toContain('12345678901234567890');
      for (const s of SECRETS) expect(leakedPieces(out, s)).toEqual([]);
    }
  });

  it('one JSON line: masked, still JSON', async () => {
    const io = createBufferIO();
    io.addSecrets(SECRETS);
    await renderJsonLine(io, { a: A, list: [B, C] });
    expect(JSON.parse(io.stdoutText())).toEqual({ a: '****', list: ['****', '****'] });
  });
});

describe('maskValue', () => {
  const mask = masker(SECRETS);

  it('masks strings and keys at any depth, keeps the rest, copies and leaves the input', () => {
    const input = JSON.parse(
      `{${JSON.stringify(A)}:{"b":[${JSON.stringify(B)},1,true,null],"__proto__":${JSON.stringify(C)}}}`,
    ) as Record<string, unknown>;
    const out = maskValue(input, mask);
    expect(JSON.stringify(out)).toBe('{"****":{"b":["****",1,true,null],"__proto__":"****"}}');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(input)).toEqual([A]);
  });

  it('a value nested 20,000 deep is masked without overflowing the stack', () => {
    let deep: unknown = B;
    for (let i = 0; i < 20_000; i++) deep = [deep];
    let v = maskValue(deep, mask);
    for (let i = 0; i < 20_000; i++) v = (v as unknown[])[0];
    expect(v).toBe('****');
  });

  it('an object that is not plain (a Date) and a bare string', () => {
    const d = new Date(0);
    expect(maskValue(d, mask)).toBe(d);
    expect(maskValue(`a${B}`, mask)).toBe('a****');
    expect(maskValue(7, mask)).toBe(7);
  });
});
