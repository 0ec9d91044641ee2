// One rule over the three callers of every meeting action of the sandbox (its row in
// src/sandbox/actions.ts): the library method (which sends the row's `body`), `sched sandbox
// <verb>` and the console's button (which send only `at` and `reason`) make the same change to
// a meeting. What the action itself decides (who did it, its state) must therefore be decided
// by the sandbox, not by a body only the library sends: a row whose `body` alone said
// "canceled_by: host" delivered "invitee" from the CLI and the console (issue 39's try-action).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Meeting, type Sandbox } from '../../src/sandbox/library.js';
import {
  ACTION_VERBS,
  actionName,
  actionPath,
  SANDBOX_ACTIONS,
} from '../../src/sandbox/actions.js';
import { runSched } from '../helpers/run.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sb.close();
});

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const r = await fetch(sb.baseUrl + path, {
    method: 'POST',
    headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(r.status, path).toBeLessThan(300);
  return (await r.json()) as Record<string, unknown>;
}

async function booked(): Promise<string> {
  const types = (await (
    await fetch(`${sb.baseUrl}/users/me/meeting-types`, { headers: { 'x-api-key': sb.apiKey } })
  ).json()) as { _embedded: { items: Array<{ uuid: string }> } };
  const link = await post('/single-use-link', {
    meeting_type_uuid: types._embedded.items[0]!.uuid,
  });
  return (await sb.book(link.url as string)).meeting.uuid;
}

/** The value of `key` anywhere in the meeting (`canceled_by` is in `cancellation`). */
function find(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  if (key in value) return (value as Record<string, unknown>)[key];
  for (const v of Object.values(value)) {
    const found = find(v, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

const AT = '2031-03-04T15:00:00+00:00';
const meetingVerbs = ACTION_VERBS.filter((v) => SANDBOX_ACTIONS[v].on === 'meeting');

describe('every meeting action: the library, the CLI and the console change a meeting alike', () => {
  it('there are meeting actions to check', () => {
    expect(meetingVerbs.length).toBeGreaterThan(0);
  });

  for (const verb of meetingVerbs) {
    const row = SANDBOX_ACTIONS[verb];
    it(`${verb}: the same state, start and "${row.meeting!.byField}"`, async () => {
      const moves = row.meeting!.moves === true;
      const [viaLibrary, viaCli, viaConsole] = [await booked(), await booked(), await booked()];
      const method = sb[verb] as (
        uuid: string,
        ...rest: unknown[]
      ) => Promise<{ meeting: Meeting }>;
      const library = (await method(viaLibrary, ...(moves ? [AT, {}] : [{}]))).meeting;

      const r = await runSched(
        ['sandbox', actionName(verb), viaCli, ...(moves ? ['--at', AT] : []), '--json'],
        { env: { SCHED_BASE_URL: sb.baseUrl, SCHED_API_KEY: sb.apiKey } },
      );
      expect(r.code, r.stderr).toBe(0);
      const cli = JSON.parse(r.stdout) as Meeting;

      // What the console's script posts (console-page.ts): `at` for a moving action, else {}.
      const reply = await post(actionPath(verb, viaConsole), moves ? { at: AT } : {});
      const console = reply.meeting as Meeting;

      const what = (m: Meeting) => ({
        state: m.state,
        scheduled_at: m.scheduled_at,
        by: find(m, row.meeting!.byField),
      });
      expect(what(cli), 'sched sandbox').toEqual(what(library));
      expect(what(console), 'the console').toEqual(what(library));
      expect(what(library).by).toBeDefined();
    });
  }
});
