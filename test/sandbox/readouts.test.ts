// `sched sandbox meetings` and `sched sandbox deliveries` in every record format, their
// filters, and the library's sb.meetings() / sb.deliveries() giving the same objects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/library.js';
import { runSched } from '../helpers/run.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

let sb: Sandbox;
let rx: Receiver;
let env: Record<string, string>;
let webhook: string;
const meetings: string[] = [];

beforeAll(async () => {
  rx = await startReceiver();
  sb = await startSandbox({ seed: 7, retryDelaysMs: [] });
  env = { SCHED_BASE_URL: sb.baseUrl, SCHED_API_KEY: sb.apiKey };
  const post = async (path: string, body: unknown) =>
    (await (
      await fetch(sb.baseUrl + path, {
        method: 'POST',
        headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as Record<string, string>;
  webhook = (
    await post('/webhooks', { url: rx.url, events: ['meetingScheduled', 'meetingCancelled'] })
  ).uuid!;
  for (const name of ['Ada Lovelace', 'Grace, "Amazing" Hopper']) {
    const link = await post('/single-use-link', {
      meeting_type_uuid: '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c',
    });
    meetings.push((await sb.book(link.url!, { name })).meeting.uuid);
  }
  await sb.cancel(meetings[0]!);
});
afterAll(async () => {
  await sb.close();
  await rx.close();
});

describe('sched sandbox meetings', () => {
  it('--json: the sandbox own meeting objects, oldest first (what sb.meetings() gives)', async () => {
    const r = await runSched(['sandbox', 'meetings', '--json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(sb.meetings());
    expect(sb.meetings().map((m) => m.uuid)).toEqual(meetings);
    expect(sb.meetings()[0]!.state).toBe('canceled');
  });

  it('csv, ndjson, table and --quiet', async () => {
    const csv = await runSched(['sandbox', 'meetings', '-o', 'csv'], { env });
    const lines = csv.stdout.trim().split(/\r?\n/);
    expect(lines[0]).toBe('uuid,state,meeting_type,invitee,email,start,end,canceled_at');
    expect(lines[2]).toContain(`${meetings[1]},new,Intro call,"Grace, ""Amazing"" Hopper"`);
    const nd = await runSched(['sandbox', 'meetings', '-o', 'ndjson'], { env });
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { uuid: string })
        .map((m) => m.uuid),
    ).toEqual(meetings);
    const table = await runSched(['sandbox', 'meetings'], { env, columns: 200, stdoutIsTTY: true });
    expect(table.stdout).toContain('MEETING');
    expect(table.stdout).toContain('Ada Lovelace');
    const quiet = await runSched(['sandbox', 'meetings', '--quiet'], { env });
    expect(quiet.stdout).toBe(meetings.join('\n') + '\n');
  });
});

describe('sched sandbox deliveries', () => {
  it('--json: every delivery with its attempts; filters by event, webhook and meeting', async () => {
    const all = await runSched(['sandbox', 'deliveries', '--json'], { env });
    expect(JSON.parse(all.stdout)).toEqual(sb.deliveries());
    expect(sb.deliveries().map((d) => d.event)).toEqual([
      'meetingScheduled',
      'meetingScheduled',
      'meetingCancelled',
    ]);
    const cancelled = await runSched(
      ['sandbox', 'deliveries', '--event', 'meetingCancelled', '--webhook', webhook, '--json'],
      { env },
    );
    expect(JSON.parse(cancelled.stdout)).toEqual(sb.deliveries({ event: 'meetingCancelled' }));
    expect((JSON.parse(cancelled.stdout) as unknown[]).length).toBe(1);
    const ofSecond = await runSched(
      ['sandbox', 'deliveries', '--meeting', meetings[1]!, '-o', 'csv'],
      {
        env,
      },
    );
    const rows = ofSecond.stdout.trim().split(/\r?\n/);
    expect(rows[0]).toBe(
      'id,event,state,attempts,last_answer,url,webhook_uuid,meeting_uuid,notification_uuid,signed',
    );
    expect(rows.slice(1)).toEqual([expect.stringMatching(/^2,meetingScheduled,delivered,1,200,/)]);
    const quiet = await runSched(['sandbox', 'deliveries', '--quiet'], { env });
    expect(quiet.stdout).toBe('1\n2\n3\n');
  });

  it('nothing matching: an empty list, and "No deliveries found." on a terminal', async () => {
    const none = await runSched(
      ['sandbox', 'deliveries', '--event', 'meetingRescheduled', '--json'],
      {
        env,
      },
    );
    expect(none.stdout.trim()).toBe('[]');
    const table = await runSched(['sandbox', 'deliveries', '--event', 'meetingRescheduled'], {
      env,
    });
    expect(table.stderr).toContain('No deliveries found.');
  });

  it.each([
    [['--event', 'booked'], /"booked" is not an event name|booked/],
    [['--webhook', 'nope'], /"nope" is not a webhook UUID/],
    [['--meeting', '12'], /"12" is not a meeting UUID/],
  ])('%j is a usage error (exit 2), nothing sent', async (args, message) => {
    const r = await runSched(['sandbox', 'deliveries', ...args], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
