// Finding a meeting type by name without grep: `types list --name <text>` (the API has no
// name filter: every page is read and filtered here) and `types get <uuid|slug|name>` (found
// as `link create` finds it), in-process against the sandbox (8 realistic types + generated).
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers/command-harness.js';

const h = useSandbox({ seedTypes: 30 });
const gets = () => h.sb.requests.filter((r) => r.method === 'GET').length;

describe('sched types list --name', () => {
  it('keeps the types whose name or slug contains the text, any case, over every page', async () => {
    const intro = h.sb.state.meetingTypes.find((t) => t.slug === 'intro-call')!;
    const before = gets();
    const r = await h.run(['types', 'list', '--name', 'INTRO', '--limit', '5']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${intro.name}\t${intro.slug}\t${intro.duration}\t${intro.uuid}\n`);
    expect(r.stderr).toBe('');
    expect(gets() - before).toBe(6); // 30 types, 5 a page: every page read
  });

  it('matches the slug too; --json is the matching objects; none is an empty list', async () => {
    const r = await h.run(['types', 'list', '--name', 'intro-c', '--json']);
    expect((JSON.parse(r.stdout) as Array<{ slug: string }>).map((t) => t.slug)).toEqual([
      'intro-call',
    ]);
    const none = await h.run(['types', 'list', '--name', 'no such thing', '--json']);
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout)).toEqual([]);
  });

  it('with --page: a usage error (it reads every page)', async () => {
    const r = await h.run(['types', 'list', '--name', 'x', '--page', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --name reads every page: give it without --page\n/);
  });
});

describe('sched types get', () => {
  it.each([['intro-call'], ['INTRO-CALL'], ['  intro   CALL '], ['uuid']])(
    'finds one by slug, name or UUID (%j): a table, or the object with --json',
    async (ref) => {
      const t = h.sb.state.meetingTypes.find((x) => x.slug === 'intro-call')!;
      const arg = ref === 'uuid' ? t.uuid.toUpperCase() : ref;
      const r = await h.run(['types', 'get', arg]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${t.name}\t${t.slug}\t${t.duration}\t${t.uuid}\n`);
      const j = await h.run(['types', 'get', arg, '--json']);
      expect(JSON.parse(j.stdout)).toMatchObject({ uuid: t.uuid, name: t.name, slug: t.slug });
      const q = await h.run(['types', 'get', arg, '-q']);
      expect(q.stdout).toBe(`${t.uuid}\n`);
    },
  );

  it('on a terminal: field/value lines', async () => {
    const r = await h.run(['types', 'get', 'intro-call', '--no-color'], {
      tty: true,
      columns: 100,
    });
    expect(r.stdout).toMatch(/^NAME +Intro call$/m);
    expect(r.stdout).toMatch(/^SLUG +intro-call$/m);
  });

  it('none: exit 5, naming what was given, with the closest', async () => {
    const r = await h.run(['types', 'get', 'intro-cal']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error: no meeting type with UUID, slug or name "intro-cal" \(30 meeting types checked\)\n {2}did you mean "intro-call"\?/,
    );
    const uuid = await h.run(['types', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(uuid.code).toBe(5);
  });
});
