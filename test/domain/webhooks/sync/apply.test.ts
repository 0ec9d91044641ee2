import { describe, expect, it } from 'vitest';
import type { Webhook } from '../../../../src/api/types.js';
import {
  applySteps,
  SyncStopped,
  type StepDone,
  type SyncOps,
} from '../../../../src/domain/webhooks/sync/apply.js';
import { executionSteps, planSync } from '../../../../src/domain/webhooks/sync/plan.js';
import {
  plannedResult,
  resultFromDone,
  resultRecords,
  stoppedDetails,
  summaryLine,
  countsOf,
  planLines,
  doneLine,
} from '../../../../src/domain/webhooks/sync/report.js';
import type { DesiredWebhook } from '../../../../src/domain/webhooks/sync/types.js';
import { urlKey } from '../../../../src/domain/webhooks/url.js';
import { Chalk } from 'chalk';

const SECRET = 'Zq-distinctive-SECRET-0042';

function want(index: number, url: string, events: DesiredWebhook['events']): DesiredWebhook {
  return {
    index,
    url,
    key: urlKey(url),
    events,
    secret: SECRET,
    secretSource: { kind: 'env', name: 'X' },
  };
}

function hook(uuid: string, url: string, events: string[]): Webhook {
  return { uuid, url, events, secret: null, created_at: '2024-01-01T00:00:00+00:00' };
}

/** Fake ops recording the calls; `failAt` makes the nth call (1-based) throw. */
function fakeOps(failAt?: number) {
  const calls: string[] = [];
  let n = 0;
  const ops: SyncOps = {
    async create(input) {
      n++;
      calls.push(`POST ${input.url}`);
      if (n === failAt) throw new Error('boom');
      return {
        ...input,
        created_at: '2024-06-01T00:00:00+00:00',
        uuid: `new-${n}`,
        secret: input.secret,
      };
    },
    async remove(uuid) {
      n++;
      calls.push(`DELETE ${uuid}`);
      if (n === failAt) throw new Error('boom');
      return uuid === 'vanished' ? 'gone' : 'deleted';
    },
  };
  return { ops, calls };
}

const entries = [
  want(0, 'https://a.test/h', ['meetingScheduled']),
  want(1, 'https://b.test/h', ['meetingScheduled', 'meetingCancelled']),
  want(2, 'https://c.test/h', ['meetingCancelled']),
];
const current = [
  hook('old-b', 'https://b.test/h', ['meetingScheduled']),
  hook('same-c', 'https://c.test/h', ['meetingCancelled']),
  hook('vanished', 'https://x.test/h', ['meetingCancelled']),
];

describe('applySteps', () => {
  it('creates before deleting and reports the result in the contract shape, secrets nulled', async () => {
    const plan = planSync(entries, current, { prune: true });
    const { ops, calls } = fakeOps();
    const done = await applySteps(executionSteps(plan), ops, {
      signal: new AbortController().signal,
    });
    expect(calls).toEqual([
      'POST https://a.test/h',
      'POST https://b.test/h',
      'DELETE old-b',
      'DELETE vanished',
    ]);
    const result = resultFromDone(plan, done);
    expect(result).toEqual({
      created: [expect.objectContaining({ uuid: 'new-1', url: 'https://a.test/h', secret: null })],
      replaced: [{ old: 'old-b', new: expect.objectContaining({ uuid: 'new-2', secret: null }) }],
      deleted: ['vanished'],
      unchanged: [expect.objectContaining({ uuid: 'same-c', secret: null })],
    });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(summaryLine(countsOf(result), false)).toBe(
      '1 created, 1 replaced, 1 deleted, 1 unchanged',
    );
  });

  it('stops at the first failure and says exactly what was done and what was not', async () => {
    const plan = planSync(entries, current, { prune: true });
    const { ops, calls } = fakeOps(3);
    const err = await applySteps(executionSteps(plan), ops, {
      signal: new AbortController().signal,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SyncStopped);
    const stopped = err as SyncStopped;
    expect(calls).toEqual(['POST https://a.test/h', 'POST https://b.test/h', 'DELETE old-b']);
    expect(stoppedDetails(stopped, false)).toEqual([
      'done:     created new-1 https://a.test/h',
      'done:     created new-2 https://b.test/h (replacement for old-b)',
      'failed:   delete old-b https://b.test/h (replaced)',
      'not done: delete vanished https://x.test/h (not in the file)',
    ]);
    // The half-done replace is reported as a create: the old webhook is still there.
    const partial = resultFromDone(plan, stopped.done);
    expect(partial.created.map((w) => w.uuid)).toEqual(['new-1', 'new-2']);
    expect(partial.replaced).toEqual([]);
  });

  it('a stop after deletes lists them done; a delete already gone says so', async () => {
    const more = [...current, hook('extra', 'https://y.test/h', ['meetingScheduled'])];
    const plan = planSync(entries, more, { prune: true });
    const { ops, calls } = fakeOps(5);
    const done: StepDone[] = [];
    const err = await applySteps(executionSteps(plan), ops, {
      signal: new AbortController().signal,
      onDone: (d) => done.push(d),
    }).catch((e: unknown) => e);
    expect(calls.at(-1)).toBe('DELETE extra');
    expect(stoppedDetails(err as SyncStopped, true)).toEqual([
      'done:     created new-1 https://a.test/h',
      'done:     created new-2 https://b.test/h (replacement for old-b)',
      'done:     deleted old-b https://b.test/h (replaced)',
      'done:     deleted vanished https://x.test/h (not in the file)',
      'unknown:  delete extra https://y.test/h (not in the file) (sent, but no answer came back: it may have been applied)',
    ]);
    const c = new Chalk({ level: 0 });
    expect(done.map((d) => doneLine(d, c))).toEqual([
      'created  new-1  https://a.test/h',
      'created  new-2  https://b.test/h  (replaces old-b)',
      'deleted  old-b  https://b.test/h  (replaced)',
      'deleted  vanished  https://x.test/h  (not in the file; it was already gone)',
    ]);
    // The records of what was deleted carry the URL and events the plan knew.
    expect(resultRecords(plan, resultFromDone(plan, done))).toContainEqual({
      action: 'deleted',
      uuid: 'vanished',
      url: 'https://x.test/h',
      events: ['meetingCancelled'],
      old: null,
      webhook: null,
    });
  });

  it('stops between requests when the signal is aborted', async () => {
    const plan = planSync(entries, current, { prune: false });
    const ac = new AbortController();
    const { ops, calls } = fakeOps();
    const err = await applySteps(executionSteps(plan), ops, {
      signal: ac.signal,
      onDone: () => ac.abort('SIGINT'),
    }).catch((e: unknown) => e);
    expect(calls).toEqual(['POST https://a.test/h']);
    expect(err).toMatchObject({ aborted: true, failed: undefined });
    expect(stoppedDetails(err as SyncStopped, false)).toEqual([
      'done:     created new-1 https://a.test/h',
      'not done: create https://b.test/h [meetingScheduled, meetingCancelled] (to replace old-b)',
      'not done: delete old-b https://b.test/h (replaced)',
    ]);
  });
});

describe('report', () => {
  it('builds the planned result for --dry-run without uuids for new webhooks', () => {
    const plan = planSync(entries, current, { prune: true });
    expect(plannedResult(plan)).toEqual({
      dryRun: true,
      created: [{ url: 'https://a.test/h', events: ['meetingScheduled'], secret: null }],
      replaced: [
        {
          old: 'old-b',
          new: {
            url: 'https://b.test/h',
            events: ['meetingScheduled', 'meetingCancelled'],
            secret: null,
          },
        },
      ],
      deleted: ['vanished'],
      unchanged: [expect.objectContaining({ uuid: 'same-c', secret: null })],
    });
    expect(
      resultRecords(plan, plannedResult(plan)).map((r) => [r.action, r.uuid, r.url, r.old]),
    ).toEqual([
      ['created', null, 'https://a.test/h', null],
      ['replaced', null, 'https://b.test/h', 'old-b'],
      ['deleted', 'vanished', 'https://x.test/h', null],
      ['unchanged', 'same-c', 'https://c.test/h', null],
    ]);
  });

  it('prints the plan as a diff with + ~ = - and ! markers', () => {
    const plan = planSync(
      entries,
      [...current, hook('dup-c', 'https://c.test/h', ['meetingCancelled'])],
      {
        prune: false,
      },
    );
    const lines = planLines(plan, new Chalk({ level: 0 }));
    expect(lines.map((l) => l.slice(0, 12))).toEqual([
      '+ create    ',
      '~ replace   ',
      '= unchanged ',
      '! keep      ',
      '! keep      ',
    ]);
    expect(lines[1]).toContain(
      '[meetingScheduled] -> [meetingScheduled, meetingCancelled]  (old old-b)',
    );
    expect(lines[3]).toContain('dup-c: a duplicate at this URL; --prune deletes it');
    expect(lines[4]).toContain('vanished: not in the file; --prune deletes it');
  });

  it('strips terminal escape sequences from server-provided URLs in the plan', () => {
    const plan = planSync([], [hook('evil', 'https://e.test/\x1b[2Jx', ['meetingScheduled'])], {
      prune: true,
    });
    const [line] = planLines(plan, new Chalk({ level: 0 }));
    expect(line).not.toContain('\x1b');
  });
});
