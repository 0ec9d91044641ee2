// One rule: a webhook that names no events subscribes to every event, wherever it is made
// (issue 33, item 5: a sync entry without `events` was an error while `webhooks add` without
// --event took all three). The default lives in domain/webhooks/event-names.ts (defaultEvents);
// each caller is run here and what reached the server (or the plan) is compared with it.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../src/api/types.js';
import { defaultEvents, parseEventList } from '../../src/domain/webhooks/event-names.js';
import { validateSyncDocument } from '../../src/domain/webhooks/sync/validate.js';
import { useSandbox } from '../helpers/command-harness.js';

const h = useSandbox();
const URL_ = 'https://hooks.example.com/defaults';

async function eventsSent(): Promise<unknown> {
  const post = h.sb.requests.find((r) => r.method === 'POST' && r.pathname.endsWith('/webhooks'));
  return (post!.body as { events: unknown }).events;
}

describe('the default events of a webhook that names none', () => {
  it('is every event, in the API order', () => {
    expect(defaultEvents()).toEqual([...EVENT_NAMES]);
  });

  const callers: Array<[string, () => Promise<unknown>]> = [
    ['--event left out (parseEventList)', async () => parseEventList(undefined)],
    [
      'a sync entry without events (validateSyncDocument)',
      async () =>
        validateSyncDocument({ webhooks: [{ url: URL_, secretEnv: 'S' }] }, { S: 'x' }).entries[0]
          ?.events,
    ],
    [
      'sched webhooks add --url … (what the server got)',
      async () => {
        const r = await h.run(['webhooks', 'add', '--url', URL_, '-q'], {
          env: { SCHED_WEBHOOK_SECRET: 'add-secret' },
        });
        expect(r.code, r.stderr).toBe(0);
        return eventsSent();
      },
    ],
    [
      'sched webhooks sync with an entry without events (what the server got)',
      async () => {
        const file = join(h.config, 'no-events.yaml');
        await writeFile(file, `webhooks:\n  - url: ${URL_}\n    secretEnv: SYNC_SECRET\n`);
        const r = await h.run(['webhooks', 'sync', '--file', file], {
          env: { SYNC_SECRET: 'sync-secret' },
        });
        expect(r.code, r.stderr).toBe(0);
        return eventsSent();
      },
    ],
  ];
  it.each(callers)('%s', async (_, events) => {
    expect(await events()).toEqual(defaultEvents());
  });

  it('a sync file without events matches a webhook added without --event: nothing to change', async () => {
    const add = await h.run(['webhooks', 'add', '--url', URL_, '-q'], {
      env: { SCHED_WEBHOOK_SECRET: 'add-secret' },
    });
    expect(add.code, add.stderr).toBe(0);
    const file = join(h.config, 'same.yaml');
    await writeFile(file, `webhooks:\n  - url: ${URL_}\n    secretEnv: SYNC_SECRET\n`);
    const r = await h.run(['webhooks', 'sync', '--file', file], { env: { SYNC_SECRET: 'x' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Already in sync');
  });
});
