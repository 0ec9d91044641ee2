// One way to join the clauses of a message line, over every kind of caller: an API error with a
// server sentence, an error re-worded with what was (not) done.
import { describe, expect, it } from 'vitest';
import { joinClauses } from '../../src/text/clauses.js';

describe('joinClauses', () => {
  it.each([
    [
      ['the API rejected the key (401): Invalid API key.', 'nothing was stored'],
      'the API rejected the key (401): Invalid API key; nothing was stored',
    ],
    [
      ['not found (404): GET /x: Not found;', 'nothing was stored'],
      'not found (404): GET /x: Not found; nothing was stored',
    ],
    [['a: b, ', undefined, '', 'c.'], 'a: b; c'],
    [['only one sentence.'], 'only one sentence'],
    [['keeps an ellipsis…', 'and a question?'], 'keeps an ellipsis…; and a question?'],
    [[], ''],
  ] as const)('%j', (parts, want) => {
    expect(joinClauses(...parts)).toBe(want);
  });
});
