// One walker of values (src/mask.ts: mapStrings), one table over its callers: the renderer's
// masking of the data (renderJsonLine), `sched mcp`'s results (resultOf: cleaned, cut, bounded)
// and its frames' last net (LineTransport.send). Each row is a value a server could send; each
// caller's column says what a user (or an MCP client) reads back from it.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createBufferIO } from '../helpers/buffer-io.js';
import { renderJsonLine } from '../../src/output/render.js';
import { resultOf } from '../../src/mcp/server.js';
import { LineTransport } from '../../src/mcp/stdio.js';
import { DEEP_MARKER, MAX_DEPTH } from '../../src/mcp/clean.js';
import { masker } from '../../src/mask.js';

const SECRET = 'sk_live_walk_0123456789';
const M = '****';

type Caller = 'renderer' | 'mcp result' | 'mcp frame';

const CALLERS: Record<Caller, (value: unknown) => Promise<unknown>> = {
  renderer: async (value) => {
    const io = createBufferIO();
    io.addSecrets([SECRET]);
    await renderJsonLine(io, value);
    return JSON.parse(io.stdoutText());
  },
  'mcp result': async (value) =>
    JSON.parse(JSON.stringify(resultOf({ text: '', structured: { v: value } }, masker([SECRET]))))
      .structuredContent.v,
  'mcp frame': async (value) => {
    const output = new PassThrough();
    const lines: string[] = [];
    output.on('data', (c: Buffer) => lines.push(c.toString()));
    const t = new LineTransport(new PassThrough(), output, { mask: () => masker([SECRET]) });
    await t.send({ jsonrpc: '2.0', id: 1, result: { v: value } });
    return (JSON.parse(lines.join('')) as { result: { v: unknown } }).result.v;
  },
};

function nest(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** How deep a value of nested arrays is, and its leaf. */
function depthOf(v: unknown): [number, unknown] {
  let n = 0;
  while (Array.isArray(v)) [v, n] = [v[0], n + 1];
  return [n, v];
}

class Holder {
  constructor(readonly token: string) {}
}

const ROWS: Array<[string, unknown, Record<Caller, unknown>]> = [
  [
    'a secret in values at any depth; numbers, booleans and null kept',
    { a: `x ${SECRET}`, b: [[SECRET, 1, true, null]] },
    {
      renderer: { a: `x ${M}`, b: [[M, 1, true, null]] },
      'mcp result': { a: `x ${M}`, b: [[M, 1, true, null]] },
      'mcp frame': { a: `x ${M}`, b: [[M, 1, true, null]] },
    },
  ],
  [
    'a secret in a key: masked in data, never in a frame (keys are its structure)',
    { [SECRET]: 1 },
    { renderer: { [M]: 1 }, 'mcp result': { [M]: 1 }, 'mcp frame': { [SECRET]: 1 } },
  ],
  [
    'a "__proto__" key (as JSON.parse makes one) stays a key, masked inside',
    JSON.parse(`{"__proto__":{"s":"${SECRET}"},"n":1}`),
    Object.fromEntries(
      Object.keys(CALLERS).map((c) => [c, JSON.parse('{"__proto__":{"s":"****"},"n":1}')]),
    ) as Record<Caller, unknown>,
  ],
  [
    'an object that serialises itself (a Date) is its own text',
    { when: new Date(0) },
    {
      renderer: { when: '1970-01-01T00:00:00.000Z' },
      'mcp result': { when: '1970-01-01T00:00:00.000Z' },
      'mcp frame': { when: '1970-01-01T00:00:00.000Z' },
    },
  ],
  [
    'an object of a class: its fields, masked',
    { h: new Holder(SECRET) },
    {
      renderer: { h: { token: M } },
      'mcp result': { h: { token: M } },
      'mcp frame': { h: { token: M } },
    },
  ],
];

describe.each(Object.keys(CALLERS) as Caller[])('%s', (caller) => {
  it.each(ROWS)('%s', async (_what, value, expected) => {
    expect(await CALLERS[caller](value)).toEqual(expected[caller]);
  });

  it('a value nested 1,000 deep: walked whole by the renderer; the MCP ones bounded', async () => {
    const [depth, leaf] = depthOf(await CALLERS[caller](nest(1_000, SECRET)));
    // The renderer keeps it whole; a result is bounded at MAX_DEPTH below structuredContent
    // (one level above v); a frame at 4 × MAX_DEPTH below the frame (two levels above v).
    expect([depth, leaf]).toEqual(
      {
        renderer: [1_000, M],
        'mcp result': [MAX_DEPTH - 1, DEEP_MARKER],
        'mcp frame': [4 * MAX_DEPTH - 2, DEEP_MARKER],
      }[caller],
    );
  });
});
