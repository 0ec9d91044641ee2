// The did-you-mean suggester over a long list (text/suggest.ts closest(), behind the meeting-type
// lookup of link create, types get and MCP): issue 38, finding 3 — at 10,000 names of 4,000
// characters it took 13 s, at 100,000 over 120 s. Its bounds are checked by count, not by clock:
// names far longer than any reference are never compared, and only so many items are looked at.
import { describe, expect, it } from 'vitest';
import {
  closest,
  editDistance,
  MAX_CANDIDATE,
  MAX_COMPARED,
  MAX_WORD,
  nearness,
} from '../../src/text/suggest.js';

interface Item {
  slug: string;
  name: string;
}
const namesOf = (t: Item) => [t.slug, t.name];

describe('closest(): what it suggests', () => {
  const items: Item[] = [
    { slug: 'team-sync', name: 'Team sync' },
    { slug: 'intro-call', name: 'Intro call' },
    { slug: 'intro-call-long', name: 'Long intro' },
    { slug: 'discovery', name: 'Intro_Cal' },
  ];
  it('near misses first (fewest edits, list order on ties), then names containing the word', () => {
    expect(closest('intro-cal', items, namesOf).items.map((t) => t.slug)).toEqual([
      'discovery',
      'intro-call',
      'intro-call-long',
    ]);
    expect(closest('sync', items, namesOf).items.map((t) => t.slug)).toEqual(['team-sync']);
    expect(closest('zzz', items, namesOf).items).toEqual([]);
  });

  it('at most `max` items', () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ slug: `call-${i}`, name: `Call ${i}` }));
    expect(closest('call', many, namesOf).items).toHaveLength(5);
    expect(closest('call', many, namesOf, 2).items).toHaveLength(2);
  });
});

describe('closest(): bounded', () => {
  it(`looks at the first ${MAX_COMPARED} items of 100,000`, () => {
    let looked = 0;
    const items = Array.from({ length: 100_000 }, (_, i) => ({ slug: `t${i}`, name: `Type ${i}` }));
    const r = closest('intro-call', items, (t) => {
      looked++;
      return namesOf(t);
    });
    expect(looked).toBe(MAX_COMPARED);
    expect(r.compared).toBe(2 * MAX_COMPARED);
  });

  it(`never compares a name longer than ${MAX_CANDIDATE} characters (4,000 and 40,000 here)`, () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({
      slug: `t${i}`,
      name: `intro call ${'x'.repeat(i % 2 ? 4000 : 40_000)}`,
    }));
    const r = closest('intro-call', items, namesOf);
    // Only the slugs were compared; the long names (which contain the word) are not suggested.
    expect(r.compared).toBe(1000);
    expect(r.items).toEqual([]);
    // A name at the bound is compared.
    const atBound = { slug: 'a', name: `intro-call${'x'.repeat(MAX_CANDIDATE - 10)}` };
    expect(closest('intro-call', [atBound], namesOf)).toEqual({ items: [atBound], compared: 2 });
  });

  it(`a word longer than ${MAX_WORD} characters gets no suggestion and compares nothing`, () => {
    const items = [{ slug: 'x'.repeat(MAX_WORD + 1), name: 'n' }];
    expect(closest('x'.repeat(MAX_WORD + 1), items, namesOf)).toEqual({ items: [], compared: 0 });
  });
});

describe('the bounded edit distance', () => {
  it('is the full distance where it matters, and says "far" for the rest', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(nearness('intro-call', 'intro_cal')).toBe(1);
    expect(nearness('intro-call', 'intorcall')).toBe(1);
    // 200 characters against 203: within the limit of 3, found without the whole table.
    const w = 'a'.repeat(MAX_WORD);
    expect(nearness(w, `${w}bcd`)).toBe(3);
    expect(nearness(w, `${w}bcde`)).toBeUndefined();
    expect(nearness(w, `b${'a'.repeat(MAX_WORD - 2)}cd`)).toBe(3);
  });
});
