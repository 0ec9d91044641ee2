// One rule for an event name (src/domain/webhooks/event-names.ts), one table over every command that
// takes one: `webhooks add --event`, `webhooks listen --register --event`, the events of a
// `webhooks sync` file, `events sample <event>` and `events send <event>`, in-process. Each must
// accept the same names (case forgiven, sent in the API's spelling) and refuse the same ones
// with exit 2, the rule's own words, and nothing sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { canonicalEventName, eventNameProblem } from '../../src/domain/webhooks/event-names.js';
import { envelope, f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { runSched } from '../helpers/run.js';
import { EVENT_NAMES } from '../../src/api/types.js';

let api: FaultServer;
let rx: Receiver;
let dir: string;

beforeAll(async () => {
  api = await startFaultServer();
  rx = await startReceiver();
  dir = mkdtempSync(path.join(tmpdir(), 'sched-event-rule-'));
});
afterAll(async () => {
  await api.close();
  await rx.close();
  rmSync(dir, { recursive: true, force: true });
});

const HOOK = 'https://example.com/hooks/sched';

interface Outcome {
  code: number;
  stderr: string;
  /** The event names that went out (in a create-webhook request, or a delivery), if any. */
  sent: string[] | undefined;
}

/** Runs a command against an API that lists nothing and fails every create (500). */
async function viaApi(argv: string[]): Promise<Outcome> {
  api.clear();
  api.on('GET', '/api/webhooks', f.json(200, envelope([])));
  api.on('POST', '/api/webhooks', f.json(500, { code: 500, message: 'not today' }));
  const r = await runSched(argv, {
    env: {
      SCHED_BASE_URL: api.baseUrl,
      SCHED_API_KEY: 'test-key',
      SCHED_CONFIG_DIR: dir,
      SYNC_SECRET: 'sync-secret-value',
    },
  });
  const post = api.requests.find((q) => q.method === 'POST');
  const sent = post ? (JSON.parse(post.body) as { events: string[] }).events : undefined;
  return { code: r.code, stderr: r.stderr, sent };
}

const CALLERS: Array<{ name: string; run(event: string): Promise<Outcome> }> = [
  {
    name: 'webhooks add --event',
    run: (e) => viaApi(['webhooks', 'add', '--url', HOOK, '--no-secret', '--event', e]),
  },
  {
    name: 'webhooks listen --register --event',
    run: (e) => viaApi(['webhooks', 'listen', '--port', '0', '--register', HOOK, '--event', e]),
  },
  {
    name: 'webhooks sync (file events)',
    run: (e) => {
      const file = path.join(dir, 'hooks.json');
      const doc = { webhooks: [{ url: HOOK, events: [e], secretEnv: 'SYNC_SECRET' }] };
      writeFileSync(file, JSON.stringify(doc));
      return viaApi(['webhooks', 'sync', '--file', file]);
    },
  },
  {
    name: 'events sample',
    run: async (e) => {
      const r = await runSched(['events', 'sample', e], { env: { SCHED_CONFIG_DIR: dir } });
      const sent = r.code === 0 ? [(JSON.parse(r.stdout) as { event: string }).event] : undefined;
      return { code: r.code, stderr: r.stderr, sent };
    },
  },
  {
    name: 'events send',
    run: async (e) => {
      const before = rx.received.length;
      const r = await runSched(['events', 'send', e, '--to', rx.url], {
        env: { SCHED_CONFIG_DIR: dir },
      });
      const got = rx.received.slice(before);
      const sent = got.map((q) => (JSON.parse(q.body.toString()) as { event: string }).event);
      return { code: r.code, stderr: r.stderr, sent: got.length > 0 ? sent : undefined };
    },
  },
];

/** [input, what the API receives, or undefined when refused]. */
const INPUTS: Array<[string, string | undefined]> = [
  ['meetingScheduled', 'meetingScheduled'],
  ['meetingcancelled', 'meetingCancelled'],
  ['MEETINGRESCHEDULED', 'meetingRescheduled'],
  [' meetingScheduled ', 'meetingScheduled'],
  ['meetingBooked', undefined],
  ['meetingCanceled', undefined],
  ['meeting_scheduled', undefined],
  ['MEETING_SCHEDULED', undefined],
  ['', undefined],
  ['🙂', undefined],
  ['meetingScheduled\u001b[31m', undefined],
];

describe('the event name rule', () => {
  it('gives each input its verdict, with the nearest name when there is one', () => {
    for (const [input, canonical] of INPUTS) {
      expect(canonicalEventName(input), JSON.stringify(input)).toBe(canonical);
    }
    expect(eventNameProblem('meetingCanceled')).toBe(
      `unknown event "meetingCanceled" (did you mean "meetingCancelled"?); allowed: ${EVENT_NAMES.join(', ')}`,
    );
    expect(eventNameProblem('meetingBooked')).not.toMatch(/did you mean/);
    expect(eventNameProblem('x\u001b[2J')).toContain('"x\\u001b[2J"');
  });

  for (const caller of CALLERS) {
    it(`${caller.name}: the same verdict and words for every input`, async () => {
      for (const [input, canonical] of INPUTS) {
        const r = await caller.run(input);
        const label = `${caller.name} ${JSON.stringify(input)}`;
        if (canonical) {
          expect(r.code, `${label}: ${r.stderr}`).not.toBe(2);
          expect(r.sent, label).toEqual([canonical]);
        } else {
          expect(r.code, `${label}: ${r.stderr}`).toBe(2);
          expect(r.sent, `${label}: something went out`).toBeUndefined();
          expect(r.stderr, label).toContain(eventNameProblem(input));
          expect(r.stderr, label).not.toContain('\u001b');
        }
      }
    });
  }
});
