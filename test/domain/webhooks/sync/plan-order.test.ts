// What `webhooks sync` decides and in which order its requests go out (plan.ts): events that
// only overlap are not "the same"; among duplicates with the same creation time the first the
// server listed is kept; every create first, then the deletes that finish replaces and stale
// webhooks, then the prunes; a plan whose only change is a prune is a change.
import { describe, expect, it } from 'vitest';
import type { EventName, Webhook } from '../../../../src/api/types.js';
import { executionSteps, hasChanges, planSync } from '../../../../src/domain/webhooks/sync/plan.js';
import type { DesiredWebhook, Step } from '../../../../src/domain/webhooks/sync/types.js';
import { urlKey } from '../../../../src/domain/webhooks/url.js';

const S: EventName = 'meetingScheduled';
const C: EventName = 'meetingCancelled';
const R: EventName = 'meetingRescheduled';
const A = 'https://a.example/hook';
const B = 'https://b.example/hook';

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

function hook(uuid: string, url: string, events: string[], createdAt: string): Webhook {
  return { url, events, secret: null, created_at: createdAt, uuid };
}

const T1 = '2024-01-01T00:00:00+00:00';
const T2 = '2024-01-02T00:00:00+00:00';

/** Each request as `op uuid-or-url`, in the order they are sent. */
function order(steps: Step[]): string[] {
  return steps.map((s) => {
    if (s.op === 'create' || s.op === 'replace-create') return `${s.op} ${s.item.entry.url}`;
    if (s.op === 'replace-delete') return `${s.op} ${s.item.old.uuid}`;
    return `${s.op} ${s.item.webhook.uuid} (${s.item.reason})`;
  });
}

describe('what sync decides', () => {
  it('events that only overlap are replaced, not left alone', () => {
    const plan = planSync([want(0, A, [S, R])], [hook('old', A, [S, C], T1)], { prune: false });
    expect(plan.items.map((i) => i.kind)).toEqual(['replace']);
  });

  it('among duplicates created at the same time, the first the server listed is kept', () => {
    const current = [
      hook('first', A, [S], T1),
      hook('second', A, [S], T1),
      hook('third', A, [S], T1),
      hook('fourth', A, [S], T1),
    ];
    const plan = planSync([want(0, A, [S])], current, { prune: true });
    expect(plan.items.map((i) => `${i.kind} ${'webhook' in i ? i.webhook.uuid : ''}`)).toEqual([
      'unchanged first',
      'delete second',
      'delete third',
      'delete fourth',
    ]);
  });

  it('a plan whose only change is a prune has changes (it is not "up to date")', () => {
    const plan = planSync([], [hook('gone', A, [S], T1)], { prune: true });
    expect(hasChanges(plan)).toBe(true);
    expect(hasChanges(planSync([], [hook('gone', A, [S], T1)], { prune: false }))).toBe(false);
  });
});

describe('the order requests go out', () => {
  it('a duplicate pruned at one URL waits until a replace at the next is finished', () => {
    const current = [
      hook('a-kept', A, [S], T1),
      hook('a-dup', A, [S], T2),
      hook('b-old', B, [C], T1),
    ];
    const plan = planSync([want(0, A, [S]), want(1, B, [S])], current, { prune: true });
    expect(order(executionSteps(plan))).toEqual([
      `replace-create ${B}`,
      'replace-delete b-old',
      'delete a-dup (duplicate)',
    ]);
  });

  it('a stale webhook at one URL is deleted with the replaces, before any prune', () => {
    const current = [
      hook('a-kept', A, [S], T1),
      hook('a-stale', A, [C], T2),
      hook('b-old', B, [C], T1),
      hook('elsewhere', 'https://c.example/hook', [S], T1),
    ];
    const plan = planSync([want(0, A, [S]), want(1, B, [S])], current, { prune: true });
    expect(order(executionSteps(plan))).toEqual([
      `replace-create ${B}`,
      'delete a-stale (stale)',
      'replace-delete b-old',
      'delete elsewhere (not-in-file)',
    ]);
  });
});
