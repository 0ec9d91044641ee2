// The result of a tool call is serialised in its handler (src/mcp/server.ts, sized): a value
// that cannot be serialised, or a result over the bound, is an error result the client gets,
// never an answer dropped on the way out.
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_RESULT_BYTES, sized } from '../../src/mcp/server.js';

describe('sized', () => {
  it('a result within the bound is the result', () => {
    const r: CallToolResult = { content: [{ type: 'text', text: 'x'.repeat(1000) }] };
    expect(sized(r)).toBe(r);
  });

  it('a result that cannot be serialised is an error result saying so', () => {
    const r = sized({ content: [], structuredContent: { n: 1n } });
    expect(r).toEqual({
      content: [
        {
          type: 'text',
          text: expect.stringMatching(/^error: the result could not be serialised: .*BigInt/),
        },
      ],
      isError: true,
    });
  });

  it('a result over the bound is an error result with the fix', () => {
    const r = sized({ content: [{ type: 'text', text: 'x'.repeat(MAX_RESULT_BYTES) }] });
    expect(r.isError).toBe(true);
    expect(r.content).toEqual([
      {
        type: 'text',
        text: expect.stringMatching(
          new RegExp(
            `^error: the result is \\d+ bytes, over the ${MAX_RESULT_BYTES} a result may have\nhint: ask for less`,
          ),
        ),
      },
    ]);
  });
});
