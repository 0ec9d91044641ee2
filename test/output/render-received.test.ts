// The renderer's doors for what is not a list of records: an answer as received (`sched api`),
// one JSON line, composed text; and the secrets the io knows (`webhooks sync`'s file secrets),
// masked in the data of what a renderer writes.
import { describe, expect, it } from 'vitest';
import { createBufferIO } from '../helpers/buffer-io.js';
import { renderJsonLine, renderReceived, renderText } from '../../src/output/render.js';
import { renderObject } from '../helpers/render.js';

describe('renderReceived', () => {
  const body = Buffer.from('{"n":12345678901234567890,"s":"a\\/b","l":[1,2]}');
  it('JSON as received, compact in a pipe (numbers and escapes untouched)', async () => {
    const io = createBufferIO({ stdoutIsTTY: false });
    await renderReceived(io, body);
    expect(io.stdoutText()).toBe('{"n":12345678901234567890,"s":"a\\/b","l":[1,2]}\n');
  });
  it('pretty on a terminal, after the status line and headers', async () => {
    const io = createBufferIO({ stdoutIsTTY: true });
    await renderReceived(io, body, ['HTTP/1.1 200 OK', 'content-type: application/json']);
    expect(io.stdoutText()).toBe(
      'HTTP/1.1 200 OK\ncontent-type: application/json\n\n' +
        '{\n  "n": 12345678901234567890,\n  "s": "a\\/b",\n  "l": [\n    1,\n    2\n  ]\n}\n',
    );
  });
  it('anything else exactly as it came; an empty body writes nothing', async () => {
    const io = createBufferIO({ stdoutIsTTY: false });
    await renderReceived(io, Buffer.from('plain text, no newline'));
    await renderReceived(io, Buffer.alloc(0));
    expect(io.stdoutText()).toBe('plain text, no newline');
  });
});

describe('renderJsonLine and renderText', () => {
  it('one compact line even on a terminal; text as composed', async () => {
    const io = createBufferIO({ stdoutIsTTY: true });
    await renderJsonLine(io, { baseUrl: 'http://x', n: [1] });
    await renderText(io, 'Base URL: http://x\n');
    expect(io.stdoutText()).toBe('{"baseUrl":"http://x","n":[1]}\nBase URL: http://x\n');
  });
});

describe('secrets the io knows', () => {
  it('are masked in what a renderer writes', async () => {
    const io = createBufferIO({ stdoutIsTTY: false });
    io.addSecrets(['s3cret']);
    await renderObject(
      io,
      { secret: 's3cret', url: 'https://x/?k=s3cret' },
      {
        format: 'json',
        columns: [],
      },
    );
    expect(io.stdoutText()).toBe('{"secret":"****","url":"https://x/?k=****"}\n');
  });
});
