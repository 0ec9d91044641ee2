import { describe, expect, it } from 'vitest';
import type { EventName, Webhook } from '../../../../src/api/types.js';
import {
  executionSteps,
  hasChanges,
  planSync,
  sameEvents,
} from '../../../../src/domain/webhooks/sync/plan.js';
import type { DesiredWebhook, PlanItem } from '../../../../src/domain/webhooks/sync/types.js';
import { urlKey } from '../../../../src/domain/webhooks/url.js';

const S: EventName = 'meetingScheduled';
const C: EventName = 'meetingCancelled';
const R: EventName = 'meetingRescheduled';

function want(index: number, url: string, events: EventName[]): DesiredWebhook {
  return {
    index,
    url,
    key: urlKey(url),
    events,
    secret: 'sek',
    secretSource: { kind: 'env', name: 'X' },
  };
}

let n = 0;
function hook(
  url: string,
  events: string[],
  createdAt = `2024-01-0${(n % 9) + 1}T00:00:00+00:00`,
): Webhook {
  n++;
  return { url, events, secret: null, created_at: createdAt, uuid: `uuid-${n}` };
}

/** A compact view of a plan: kind, URL, uuid. */
function view(items: PlanItem[]): string[] {
  return items.map((i) => {
    switch (i.kind) {
      case 'create':
        return `create ${i.entry.url}`;
      case 'replace':
        return `replace ${i.entry.url} old=${i.old.uuid}`;
      case 'unchanged':
        return `unchanged ${i.entry.url} ${i.webhook.uuid}`;
      case 'delete':
        return `delete ${i.webhook.uuid} ${i.reason}`;
      case 'keep':
        return `keep ${i.webhook.uuid} ${i.reason}`;
    }
  });
}

describe('sameEvents', () => {
  it('compares as sets', () => {
    expect(sameEvents([S, C], [C, S])).toBe(true);
    expect(sameEvents([S, S, C], [C, S])).toBe(true);
    expect(sameEvents([S], [S, C])).toBe(false);
    expect(sameEvents([S, 'futureEvent'], [S])).toBe(false);
  });
});

describe('planSync', () => {
  it('creates everything when the server is empty', () => {
    const plan = planSync(
      [want(0, 'https://a.test/h', [S]), want(1, 'https://b.test/h', [C])],
      [],
      {
        prune: false,
      },
    );
    expect(view(plan.items)).toEqual(['create https://a.test/h', 'create https://b.test/h']);
    expect(hasChanges(plan)).toBe(true);
  });

  it('leaves matching webhooks alone, whatever the order of events or spelling of the URL', () => {
    const a = hook('https://A.test:443/h', [C, S]);
    const plan = planSync([want(0, 'https://a.test/h', [S, C])], [a], { prune: true });
    expect(view(plan.items)).toEqual([`unchanged https://a.test/h ${a.uuid}`]);
    expect(hasChanges(plan)).toBe(false);
    expect(executionSteps(plan)).toEqual([]);
  });

  it('replaces a webhook whose events differ', () => {
    const a = hook('https://a.test/h', [S]);
    const plan = planSync([want(0, 'https://a.test/h', [S, R])], [a], { prune: false });
    expect(view(plan.items)).toEqual([`replace https://a.test/h old=${a.uuid}`]);
  });

  it('keeps the oldest matching duplicate; deletes the others only with --prune', () => {
    const newer = hook('https://a.test/h', [S], '2024-05-01T00:00:00+00:00');
    const older = hook('https://a.test/h', [S], '2024-01-01T00:00:00+00:00');
    const entries = [want(0, 'https://a.test/h', [S])];
    expect(view(planSync(entries, [newer, older], { prune: false }).items)).toEqual([
      `unchanged https://a.test/h ${older.uuid}`,
      `keep ${newer.uuid} duplicate`,
    ]);
    expect(view(planSync(entries, [newer, older], { prune: true }).items)).toEqual([
      `unchanged https://a.test/h ${older.uuid}`,
      `delete ${newer.uuid} duplicate`,
    ]);
  });

  it('always deletes a webhook at a file URL whose events differ (finishes a half-done replace)', () => {
    const oldOne = hook('https://a.test/h', [S], '2024-01-01T00:00:00+00:00');
    const newOne = hook('https://a.test/h', [S, C], '2024-02-01T00:00:00+00:00');
    const plan = planSync([want(0, 'https://a.test/h', [S, C])], [oldOne, newOne], {
      prune: false,
    });
    expect(view(plan.items)).toEqual([
      `unchanged https://a.test/h ${newOne.uuid}`,
      `delete ${oldOne.uuid} stale`,
    ]);
  });

  it('with several non-matching webhooks at a URL: replaces the oldest, deletes the rest', () => {
    const w1 = hook('https://a.test/h', [S], '2024-01-01T00:00:00+00:00');
    const w2 = hook('https://a.test/h', [C], '2024-02-01T00:00:00+00:00');
    const plan = planSync([want(0, 'https://a.test/h', [R])], [w2, w1], { prune: false });
    expect(view(plan.items)).toEqual([
      `replace https://a.test/h old=${w1.uuid}`,
      `delete ${w2.uuid} stale`,
    ]);
  });

  it('prunes webhooks not in the file only with --prune', () => {
    const other = hook('https://other.test/h', [S]);
    const entries = [want(0, 'https://a.test/h', [S])];
    expect(view(planSync(entries, [other], { prune: false }).items)).toEqual([
      'create https://a.test/h',
      `keep ${other.uuid} not-in-file`,
    ]);
    expect(view(planSync(entries, [other], { prune: true }).items)).toEqual([
      'create https://a.test/h',
      `delete ${other.uuid} not-in-file`,
    ]);
    expect(view(planSync([], [other], { prune: true }).items)).toEqual([
      `delete ${other.uuid} not-in-file`,
    ]);
  });
});

describe('executionSteps', () => {
  it('sends every create first, then replace deletes, then prunes', () => {
    const stale = hook('https://r.test/h', [S], '2024-01-01T00:00:00+00:00');
    const rOld = hook('https://q.test/h', [S]);
    const gone = hook('https://gone.test/h', [S]);
    const dup1 = hook('https://u.test/h', [C], '2024-01-01T00:00:00+00:00');
    const dup2 = hook('https://u.test/h', [C], '2024-03-01T00:00:00+00:00');
    const keepR = hook('https://r.test/h', [C], '2024-02-01T00:00:00+00:00');
    const plan = planSync(
      [
        want(0, 'https://gone.test/new', [S]),
        want(1, 'https://q.test/h', [C]),
        want(2, 'https://r.test/h', [C]),
        want(3, 'https://u.test/h', [C]),
        want(4, 'https://z.test/h', [R]),
      ],
      [gone, stale, rOld, dup2, dup1, keepR],
      { prune: true },
    );
    const steps = executionSteps(plan).map((s) => {
      if (s.op === 'create' || s.op === 'replace-create') return `${s.op} ${s.item.entry.url}`;
      if (s.op === 'replace-delete') return `${s.op} ${s.item.old.uuid}`;
      return `delete ${s.item.webhook.uuid} ${s.item.reason}`;
    });
    expect(steps).toEqual([
      'create https://gone.test/new',
      'replace-create https://q.test/h',
      'create https://z.test/h',
      `replace-delete ${rOld.uuid}`,
      `delete ${stale.uuid} stale`,
      `delete ${dup2.uuid} duplicate`,
      `delete ${gone.uuid} not-in-file`,
    ]);
  });
});
