// The sync file reader (src/domain/webhooks/sync/parse.ts, validate.ts) on any input: JSON or YAML,
// valid or not, it either validates or names every problem, each by its place in the file —
// and never throws.
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { fc } from '../helpers/fc.js';
import { parseSyncText } from '../../src/domain/webhooks/sync/parse.js';
import { validateSyncDocument } from '../../src/domain/webhooks/sync/validate.js';
import { EVENT_NAMES } from '../../src/api/types.js';

const ENV = { HOOK_SECRET: 's3cr3t', EMPTY_SECRET: '' };

/** Reads a text as `webhooks sync` does: parse, then validate. */
async function read(name: string, text: string) {
  const parsed = await parseSyncText(name, text);
  if (!parsed.ok) return { problems: [parsed.problem], entries: [] };
  return validateSyncDocument(parsed.value, ENV);
}

/** One mistake in an entry, and the place in the file its problem must name. */
const DEFECTS: Array<{ apply: (e: Record<string, unknown>) => void; at: string }> = [
  { apply: (e) => delete e.url, at: '.url' },
  { apply: (e) => (e.url = 42), at: '.url' },
  { apply: (e) => (e.url = 'https://user:pw@example.com/h'), at: '.url' },
  { apply: (e) => (e.url = '/relative/hook'), at: '.url' },
  { apply: (e) => (e.url = 'ftp://example.com/h'), at: '.url' },
  // Leaving events out is no mistake: it means every event (issue 33, item 5).
  { apply: (e) => (e.events = null), at: '.events' },
  { apply: (e) => (e.events = []), at: '.events' },
  { apply: (e) => (e.events = 'meetingScheduled'), at: '.events' },
  { apply: (e) => (e.events = ['meetingSchedlued']), at: '.events[0]' },
  { apply: (e) => (e.events = [7]), at: '.events[0]' },
  { apply: (e) => (e.Url = 'x'), at: ': unknown key' },
  { apply: (e) => (e.secret = 'inline'), at: ': give either secret or secretEnv' },
  { apply: (e) => delete e.secretEnv, at: ': missing secretEnv' },
  { apply: (e) => (e.secretEnv = 'NOT_SET_ANYWHERE'), at: '.secretEnv' },
  { apply: (e) => (e.secretEnv = 'EMPTY_SECRET'), at: '.secretEnv' },
  { apply: (e) => (e.secretEnv = '1-not-a-name'), at: '.secretEnv' },
];

const entry = (i: number) => ({
  url: `https://hooks${i}.example.com/sched`,
  events: [EVENT_NAMES[i % EVENT_NAMES.length]!],
  secretEnv: 'HOOK_SECRET',
});

/** A document of n entries, some with one mistake each; serialised as JSON or YAML. */
const documents = fc
  .array(fc.option(fc.nat({ max: DEFECTS.length - 1 }), { nil: undefined }), {
    minLength: 1,
    maxLength: 6,
  })
  .chain((defects) =>
    fc.record({
      defects: fc.constant(defects),
      format: fc.constantFrom('json', 'json-pretty', 'yaml'),
    }),
  );

function serialise(doc: unknown, format: string): { name: string; text: string } {
  if (format === 'yaml') return { name: 'hooks.yaml', text: YAML.stringify(doc) };
  return {
    name: 'hooks.json',
    text: format === 'json' ? JSON.stringify(doc) : JSON.stringify(doc, null, 2),
  };
}

describe('sync file reader (property)', () => {
  it('names every entry that has a mistake, at its place; a file without one validates', async () => {
    await fc.assert(
      fc.asyncProperty(documents, async ({ defects, format }) => {
        const webhooks = defects.map((d, i) => {
          const e: Record<string, unknown> = entry(i);
          if (d !== undefined) DEFECTS[d]!.apply(e);
          return e;
        });
        const { name, text } = serialise({ webhooks }, format);
        const v = await read(name, text);
        const wrong = defects.flatMap((d, i) => (d === undefined ? [] : [[i, d] as const]));
        for (const [i, d] of wrong) {
          const at = `webhooks[${i}]${DEFECTS[d]!.at}`;
          expect(
            v.problems.some((p) => p.startsWith(at)),
            `no problem names ${at}: ${JSON.stringify(v.problems)}`,
          ).toBe(true);
        }
        // No problem about an entry without a mistake.
        for (const p of v.problems) {
          const i = Number(/^webhooks\[(\d+)\]/.exec(p)?.[1]);
          expect(defects[i], `a problem for a good entry: ${p}`).not.toBeUndefined();
        }
        if (wrong.length === 0) {
          expect(v.problems).toEqual([]);
          expect(v.entries.map((e) => e.url)).toEqual(webhooks.map((w) => w.url));
        } else {
          expect(v.entries).toEqual([]);
        }
      }),
    );
  });

  it('any text, JSON value or YAML document: a result or named problems, never a throw', async () => {
    const texts = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.json({ maxDepth: 2 }),
      fc.jsonValue({ maxDepth: 2 }).map((v) => YAML.stringify(v)),
      fc
        .jsonValue({ maxDepth: 2 })
        .chain((v) => fc.nat().map((cut) => JSON.stringify({ webhooks: [v] }).slice(0, cut))),
      fc.string({
        unit: fc.constantFrom(
          '{',
          '}',
          '[',
          ']',
          ':',
          ',',
          '"',
          '-',
          ' ',
          '\n',
          'a',
          '&',
          '*',
          '!',
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        texts,
        fc.constantFrom('hooks.json', 'hooks.yaml', 'stdin'),
        async (text, name) => {
          const v = await read(name, text);
          for (const p of v.problems) {
            expect(p.trim()).not.toBe('');
            expect(p).not.toContain('\n');
          }
          if (v.problems.length > 0) expect(v.entries).toEqual([]);
        },
      ),
    );
  });
});
