// The stdio transport of `sched mcp` on its own: the line reader (any chunking, linear, a bound),
// the id of a frame that cannot be parsed, what each bad frame is answered, the writer's
// masking and a response that cannot be serialised. (The run over stdin, end to end:
// test/security/mcp-hostile.test.ts.)
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  idInText,
  idOf,
  INTERNAL_ERROR,
  INVALID_REQUEST,
  LineReader,
  LineTransport,
  PARSE_ERROR,
} from '../../src/mcp/stdio.js';
import { masker } from '../../src/mask.js';

function reader(max: number) {
  const got: string[] = [];
  const r = new LineReader(max, {
    frame: (b) => got.push(b.toString()),
    tooLong: (head, bytes) => got.push(`TOO LONG ${bytes}: ${head.toString().slice(0, 10)}`),
  });
  return { got, push: (s: string) => r.push(Buffer.from(s)) };
}

describe('LineReader', () => {
  it('one frame a line, whatever the chunks; empty lines skipped', () => {
    const r = reader(100);
    for (const c of ['{"a"', ':1}\n{"b":2}\n\n{"c"', ':', '3}\n', 'tail']) r.push(c);
    expect(r.got).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('a line over the bound: its head and length, read to its end; the next line is read', () => {
    const r = reader(10);
    r.push('0123456789');
    r.push('abc');
    r.push('def\n{"ok":1}\n');
    expect(r.got).toEqual(['TOO LONG 16: 0123456789', '{"ok":1}']);
    const exact = reader(10);
    exact.push('0123456789\n');
    expect(exact.got).toEqual(['0123456789']);
  });
});

describe('the id of a frame', () => {
  it.each([
    ['{"jsonrpc":"2.0","id":7,"method":"x",', 7],
    ['{"id":"a\\"b","method":', 'a"b'],
    ['  {"method":"x","params":{"id":3},"id":-4.5e1,', -45],
    ['{"params":{"id":3}', null],
    ['{"method":"id","x":', null],
    ['[{"id":1}', null],
    ['not json', null],
    ['{"id":true,', null],
    ['{"id', null],
    ['{"a":["]"],"id":2', 2],
  ])('%s: %j', (text, id) => {
    expect(idInText(text)).toEqual(id);
  });

  it.each([
    [{ id: 1 }, 1],
    [{ id: 'x' }, 'x'],
    [{ id: null }, null],
    [{ id: Infinity }, null],
    [{ id: {} }, null],
    [[{ id: 1 }], null],
    [null, null],
    ['s', null],
  ])('of %j: %j', (value, id) => {
    expect(idOf(value)).toEqual(id);
  });
});

function transport(o: { maxFrameBytes?: number; secrets?: string[] } = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const written: string[] = [];
  output.on('data', (c: Buffer) => written.push(...c.toString().split('\n').filter(Boolean)));
  const notes: string[] = [];
  const received: JSONRPCMessage[] = [];
  const t = new LineTransport(input, output, {
    mask: () => masker(o.secrets ?? []),
    note: (l) => notes.push(l),
    maxFrameBytes: o.maxFrameBytes,
  });
  t.onmessage = (m) => received.push(m);
  return { t, input, written, notes, received };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('LineTransport', () => {
  it('hands on messages; answers bad frames with the code and id, a note each', async () => {
    const s = transport({ maxFrameBytes: 200 });
    await s.t.start();
    s.input.write(
      [
        '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        '{"jsonrpc":"2.0","method":"notifications/initialized"}\r',
        '{"jsonrpc":"2.0","id":2,"method":',
        '[{"jsonrpc":"2.0","id":3,"method":"ping"}]',
        '{"id":4,"method":"ping"}',
        `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":"${'a'.repeat(300)}"}}`,
        '   ',
      ].join('\n') + '\n',
    );
    await tick();
    expect(s.received).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    const answers = s.written.map(
      (l) => JSON.parse(l) as { id: unknown; error: { code: number; message: string } },
    );
    expect(answers.map((a) => [a.id, a.error.code])).toEqual([
      [2, PARSE_ERROR],
      [null, INVALID_REQUEST],
      [4, INVALID_REQUEST],
      [5, INVALID_REQUEST],
    ]);
    expect(answers[1]!.error.message).toContain('a batch');
    expect(answers[2]!.error.message).toContain('not a JSON-RPC 2.0');
    expect(answers[3]!.error.message).toMatch(/the frame is \d+ bytes, over the 200/);
    expect(s.notes).toHaveLength(4);
    expect(s.notes[0]).toBe(
      'sched mcp: a frame was answered -32700 (Parse error: the frame is not JSON)',
    );
  });

  it('send: string values masked, never keys or tokens; a response that cannot be serialised is an error for its id', async () => {
    const s = transport({ secrets: ['true', 'result-key'] });
    await s.t.start();
    await s.t.send({ jsonrpc: '2.0', id: 1, result: { 'result-key': 'is true', ok: true } });
    await s.t.send({ jsonrpc: '2.0', id: 2, result: { n: 10n as unknown as number } });
    await expect(
      s.t.send({
        jsonrpc: '2.0',
        method: 'notifications/x',
        params: { n: 10n as unknown as number },
      }),
    ).rejects.toThrow(/BigInt/);
    expect(s.written.map((l) => JSON.parse(l) as unknown)).toEqual([
      { jsonrpc: '2.0', id: 1, result: { 'result-key': 'is ****', ok: true } },
      {
        jsonrpc: '2.0',
        id: 2,
        error: {
          code: INTERNAL_ERROR,
          message: expect.stringMatching(/^the answer could not be sent: .*BigInt/),
        },
      },
    ]);
  });

  it('stdin failing: the failure kept, onerror and onclose called once; chunks as strings read', async () => {
    const s = transport();
    s.input.setEncoding('utf8');
    const errors: Error[] = [];
    let closed = 0;
    s.t.onerror = (e) => errors.push(e);
    s.t.onclose = () => (closed += 1);
    await s.t.start();
    s.input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    await tick();
    expect(s.received).toHaveLength(1);
    s.input.destroy(new Error('read EIO'));
    await tick();
    expect(s.t.failure?.message).toBe('read EIO');
    expect(errors.map((e) => e.message)).toEqual(['read EIO']);
    expect(closed).toBe(1);
    await s.t.close();
    expect(closed).toBe(1);
  });

  it('a frame that cannot be handled ends the connection with the failure', async () => {
    const s = transport();
    await s.t.start();
    s.t.onmessage = () => {
      // A bug's throw need not be an Error.
      throw 'handler broke';
    };
    s.input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    await tick();
    expect(s.t.failure?.message).toBe('handler broke');
    // Closed: nothing more is read.
    s.t.onmessage = () => expect.unreachable();
    s.input.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await tick();
  });
});
