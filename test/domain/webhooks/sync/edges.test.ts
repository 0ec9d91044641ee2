// The sync file's less travelled paths: what a user is told for each.
import { describe, expect, it } from 'vitest';
import type { Webhook } from '../../../../src/api/types.js';
import { planSync } from '../../../../src/domain/webhooks/sync/plan.js';
import {
  describeType,
  validateSyncDocument,
} from '../../../../src/domain/webhooks/sync/validate.js';
import { urlKey } from '../../../../src/domain/webhooks/url.js';

describe('describeType names every JSON/YAML value', () => {
  it.each([
    [null, 'null'],
    [[1], 'an array'],
    [{ a: 1 }, 'an object'],
    ['x', 'a string'],
    [1.5, 'a number'],
    [true, 'a boolean'],
    [undefined, 'undefined'],
  ])('%j is %s', (value, name) => {
    expect(describeType(value)).toBe(name);
  });
});

describe('validateSyncDocument', () => {
  it('a secretEnv that is not a string is named with what it is', () => {
    const v = validateSyncDocument(
      { webhooks: [{ url: 'https://a.test/h', events: ['meetingScheduled'], secretEnv: false }] },
      {},
    );
    expect(v.problems).toEqual([
      'webhooks[0].secretEnv: expected the name of an environment variable, found a boolean',
    ]);
  });
});

describe('planSync', () => {
  it('among duplicates, one with an unreadable created_at counts as the newest', () => {
    const hook = (uuid: string, created_at: string): Webhook => ({
      uuid,
      url: 'https://a.test/h',
      events: ['meetingScheduled'],
      secret: null,
      created_at,
    });
    const entry = {
      index: 0,
      url: 'https://a.test/h',
      key: urlKey('https://a.test/h'),
      events: ['meetingScheduled' as const],
      secret: 's',
      secretSource: { kind: 'literal' as const },
    };
    const plan = planSync(
      [entry],
      [hook('bad-date', 'not a date'), hook('old', '2024-01-01T00:00:00+00:00')],
      { prune: true },
    );
    expect(plan.items.map((i) => [i.kind, 'webhook' in i ? i.webhook.uuid : ''])).toEqual([
      ['unchanged', 'old'],
      ['delete', 'bad-date'],
    ]);
  });
});
