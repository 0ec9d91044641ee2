// `sched sandbox book|cancel|reschedule`, run in-process against a real sandbox, with a real
// webhook receiver: what the user sees (stdout, stderr, exit code) and what the receiver got.
import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSched, type RunOptions } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { f, startFaultServer } from '../helpers/fault-server.js';
import { EVENT_NAMES } from '../../src/api/types.js';

const INTRO = '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c'; // "Intro call", 15 minutes

let sb: TestSandbox;
let rx: Receiver;
let config: string;

function sched(argv: string[], opts: RunOptions = {}) {
  return runSched(argv, { ...opts, env: { ...sb.env, SCHED_CONFIG_DIR: config, ...opts.env } });
}

async function mintLink(): Promise<{ code: string; url: string }> {
  const r = await sb.api('/single-use-link', {
    method: 'POST',
    body: JSON.stringify({ meeting_type_uuid: INTRO }),
  });
  return (await r.json()) as { code: string; url: string };
}

beforeEach(async () => {
  sb = await startTestSandbox();
  rx = await startReceiver();
  config = await mkdtemp(join(tmpdir(), 'sched-sb-cmd-'));
  await sb.api('/webhooks', {
    method: 'POST',
    body: JSON.stringify({
      url: rx.url,
      events: EVENT_NAMES,
      secret: 'cmd-secret',
    }),
  });
});
afterEach(async () => {
  await sb.close();
  await rx.close();
  await rm(config, { recursive: true, force: true });
});

const future = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCHours(14, 0, 0, 0);
  return d.toISOString().replace('.000Z', 'Z');
};

describe('sched sandbox book', () => {
  it('books a link by code: prints the meeting, reports the notified webhook and its answer', async () => {
    const link = await mintLink();
    const at = future(7);
    const r = await sched([
      'sandbox',
      'book',
      link.code,
      '--name',
      'Grace Hopper',
      '--email',
      'grace@example.com',
      '--timezone',
      'America/New_York',
      '--at',
      at,
    ]);
    expect(r.stderr).toContain('Booked meeting');
    expect(r.code).toBe(0);
    // Not a terminal: one tab-separated row, no header.
    const cols = r.stdout.trimEnd().split('\t');
    expect(cols[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(cols.slice(1, 6)).toEqual([
      'new',
      'Intro call',
      'Grace Hopper',
      'grace@example.com',
      at.replace('Z', '+00:00'),
    ]);
    expect(cols[7]).toBe(rx.url);
    expect(r.stderr).toMatch(
      new RegExp(`meetingScheduled sent to 1 webhook:\\n  ${rx.url}  signed  HTTP 200`),
    );

    const [got] = await rx.waitFor(1);
    expect(got!.headers['webhook-signature']).toBe(
      createHmac('sha256', 'cmd-secret').update(got!.body).digest('base64'),
    );
    const payload = JSON.parse(got!.body.toString()) as { event: string; data: { uuid: string } };
    expect(payload.event).toBe('meetingScheduled');
    expect(payload.data.uuid).toBe(cols[0]);
  });

  it('--json prints exactly the meeting object', async () => {
    const link = await mintLink();
    const r = await sched(['sandbox', 'book', link.url, '--json']);
    expect(r.code).toBe(0);
    const meeting = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(meeting.state).toBe('new');
    expect(meeting).toHaveProperty('pretty_scheduled_at_in_invitee_timezone');
    expect(meeting).not.toHaveProperty('notified');
    const stored = (await (
      await sb.api(`/_sandbox/meetings/${meeting.uuid as string}`)
    ).json()) as unknown;
    expect(stored).toEqual(meeting);
  });

  it('finds the sandbox from a link URL when no base URL is configured', async () => {
    const link = await mintLink();
    const r = await runSched(['sandbox', 'book', link.url, '-q'], {
      env: { SCHED_CONFIG_DIR: config },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(sb.requests.at(-1)!.headers['x-api-key']).toBe('sandbox_test_key');
  });

  it('refuses a used link with exit 2 and a clear line', async () => {
    const link = await mintLink();
    expect((await sched(['sandbox', 'book', link.code])).code).toBe(0);
    const r = await sched(['sandbox', 'book', link.code]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`error: The single-use link ${link.code} has already been used.`);
  });

  it('answers an unknown link with exit 5 naming the link and the sandbox', async () => {
    const r = await sched(['sandbox', 'book', 'noSuchCode']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(
      `error: no single-use link "noSuchCode" in the sandbox at ${sb.baseUrl}`,
    );
  });

  it('--at without an offset is on the invitee clock (--timezone, else UTC), as on the booking page', async () => {
    const day = new Date(Date.now() + 10 * 86400_000).toISOString().slice(0, 10);
    for (const [tz, extra] of [
      ['Europe/London', ['--timezone', 'Europe/London']],
      ['America/New_York', ['--timezone', 'America/New_York']],
      ['UTC', []],
    ] as const) {
      const r = await sched([
        'sandbox',
        'book',
        (await mintLink()).code,
        '--at',
        `${day}T11:00`,
        ...extra,
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const start = (JSON.parse(r.stdout) as { scheduled_at: string }).scheduled_at;
      // The instant booked shows 11:00 on that day on the invitee's wall clock.
      const wall = new Intl.DateTimeFormat('sv-SE', {
        timeZone: tz,
        dateStyle: 'short',
        timeStyle: 'short',
      }).format(new Date(start));
      expect(wall, `${tz}: ${start}`).toBe(`${day} 11:00`);
    }
  });

  it('--at 2026-02-30T10:00:00Z: there is no such date, exit 2, nothing sent', async () => {
    const link = await mintLink();
    const before = sb.requests.length;
    const r = await sched(['sandbox', 'book', link.code, '--at', '2026-02-30T10:00:00Z']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: --at "2026-02-30T10:00:00Z": there is no such date \(February 2026 has 28 days\)\n/,
    );
    expect(sb.requests.length).toBe(before);
  });

  it.each([
    [['--at', 'tomorrow']],
    [['--at', '2026-02-30T10:00']],
    [['--at', '2026-12-01T24:00']],
    [['--timezone', 'Mars/Olympus']],
  ])('rejects %j locally with exit 2, sending nothing', async (extra) => {
    const link = await mintLink();
    const before = sb.requests.length;
    const r = await sched(['sandbox', 'book', link.code, ...extra]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --(at|timezone) /);
    expect(sb.requests.length).toBe(before);
  });

  it('rejects something that is neither a code nor a link URL with exit 2', async () => {
    const r = await sched(['sandbox', 'book', 'https://example.com/not-a-link']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not a single-use link URL');
  });

  it('says so when no webhook is subscribed', async () => {
    const list = (await (await sb.api('/webhooks')).json()) as {
      _embedded: { items: Array<{ uuid: string }> };
    };
    for (const w of list._embedded.items) await sb.api(`/webhooks/${w.uuid}`, { method: 'DELETE' });
    const r = await sched(['sandbox', 'book', (await mintLink()).code]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('no webhook is subscribed');
  });
});

describe('sched sandbox cancel / reschedule', () => {
  async function bookedUuid(): Promise<string> {
    const r = await sched(['sandbox', 'book', (await mintLink()).code, '-q', '--at', future(3)]);
    expect(r.code).toBe(0);
    await rx.waitFor(1);
    return r.stdout.trim();
  }

  it('cancel delivers meetingCancelled and prints the cancelled meeting as JSON', async () => {
    const uuid = await bookedUuid();
    const r = await sched(['sandbox', 'cancel', uuid, '--reason', 'Double-booked', '--json']);
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(m.uuid).toBe(uuid);
    expect(m.canceled_at).not.toBeNull();
    expect(m.cancellation).toMatchObject({ reason: 'Double-booked' });
    const [, got] = await rx.waitFor(2);
    expect((JSON.parse(got!.body.toString()) as { event: string }).event).toBe('meetingCancelled');
    const again = await sched(['sandbox', 'cancel', uuid]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('error: The meeting is already cancelled.');
  });

  it('reschedule delivers meetingRescheduled with the new start', async () => {
    const uuid = await bookedUuid();
    const at = future(9);
    const r = await sched(['sandbox', 'reschedule', uuid, '--at', at]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\t')[5]).toBe(at.replace('Z', '+00:00'));
    expect(r.stderr).toContain('meetingRescheduled sent to 1 webhook');
    const [, got] = await rx.waitFor(2);
    const p = JSON.parse(got!.body.toString()) as { event: string; data: { scheduled_at: string } };
    expect(p.event).toBe('meetingRescheduled');
    expect(p.data.scheduled_at).toBe(at.replace('Z', '+00:00'));
  });

  it('reschedule with an invalid --at is exit 2 before any request', async () => {
    const before = sb.requests.length;
    const r = await sched([
      'sandbox',
      'reschedule',
      '4b1d2f0e-2f44-4c1a-9a51-0f3f6a7c8d90',
      '--at',
      'next tuesday',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--at "next tuesday" is not an ISO 8601 time');
    expect(sb.requests.length).toBe(before);
  });

  it('an unknown meeting is exit 5; a malformed uuid is exit 2', async () => {
    const unknown = await sched(['sandbox', 'cancel', '4b1d2f0e-2f44-4c1a-9a51-0f3f6a7c8d90']);
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toContain(
      'no meeting 4b1d2f0e-2f44-4c1a-9a51-0f3f6a7c8d90 in the sandbox',
    );
    const bad = await sched(['sandbox', 'cancel', 'nope']);
    expect(bad.code).toBe(2);
  });

  it('a wrong key is exit 4', async () => {
    const r = await sched(['sandbox', 'cancel', '4b1d2f0e-2f44-4c1a-9a51-0f3f6a7c8d90'], {
      env: { SCHED_API_KEY: 'wrong' },
    });
    expect(r.code).toBe(4);
  });
});

describe('which sandbox, with which key', () => {
  it('SCHED_BASE_URL without a key: the documented sandbox key', async () => {
    const r = await sched(['sandbox', 'book', (await mintLink()).code, '-q'], {
      env: { SCHED_API_KEY: undefined },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(sb.requests.at(-1)!.headers['x-api-key']).toBe('sandbox_test_key');
  });

  it("a profile's base URL, with its stored key or without one", async () => {
    // A sandbox of its own key, so the key sent tells which rule chose it.
    const own = await startTestSandbox({ apiKey: 'sk_profile' });
    try {
      const env = { SCHED_CONFIG_DIR: config };
      const login = await runSched(['auth', 'login', '--with-key', '--base-url', own.baseUrl], {
        env,
        stdin: 'sk_profile\n',
      });
      expect(login.code, login.stderr).toBe(0);
      const link = (await (
        await own.api('/single-use-link', {
          method: 'POST',
          body: JSON.stringify({ meeting_type_uuid: INTRO }),
        })
      ).json()) as { code: string };
      const r = await runSched(['sandbox', 'book', link.code, '-q'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(own.requests.at(-1)!.headers['x-api-key']).toBe('sk_profile');
      // The profile without its key: the documented sandbox key goes to the profile's base URL.
      await writeFile(
        join(config, 'config.json'),
        JSON.stringify({ profiles: { default: { baseUrl: own.baseUrl } } }),
        { mode: 0o600 },
      );
      const keyless = await runSched(
        ['sandbox', 'cancel', '4b1d2f0e-2f44-4c1a-9a51-0f3f6a7c8d90'],
        {
          env,
        },
      );
      expect(keyless.code).toBe(4);
      expect(own.requests.at(-1)!.headers['x-api-key']).toBe('sandbox_test_key');
    } finally {
      await own.close();
    }
  });
});

describe('what the sandbox answered', () => {
  it('a receiver that fails with no retry left: "gave up"', async () => {
    const once = await startTestSandbox({ retryDelaysMs: [] });
    const failing = await startReceiver({ statuses: [500] });
    try {
      await once.api('/webhooks', {
        method: 'POST',
        body: JSON.stringify({ url: failing.url, events: ['meetingScheduled'] }),
      });
      const link = (await (
        await once.api('/single-use-link', {
          method: 'POST',
          body: JSON.stringify({ meeting_type_uuid: INTRO }),
        })
      ).json()) as { code: string };
      const r = await runSched(['sandbox', 'book', link.code], {
        env: { ...once.env, SCHED_CONFIG_DIR: config },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(new RegExp(`^  ${failing.url} +unsigned +HTTP 500, gave up$`, 'm'));
    } finally {
      await once.close();
      await failing.close();
    }
  });

  it.each([
    [
      '2xx without a list of notified webhooks',
      f.json(201, { meeting: { uuid: 'm' }, notified: 'all of them' }),
      1,
      'error: unexpected response shape from the sandbox at BASE: `notified` is missing or not a list of objects',
    ],
    [
      '422 without field errors',
      f.json(422, { message: 'Invalid arguments', errors: {} }),
      2,
      'error: the API rejected POST BASE/_sandbox/book (422): Invalid arguments',
    ],
  ])('%s: one clear error', async (_what, answer, code, line) => {
    const srv = await startFaultServer();
    try {
      srv.on('POST', '/api/_sandbox/book', answer);
      const r = await runSched(['sandbox', 'book', 'someCode'], {
        env: { SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: 'k', SCHED_CONFIG_DIR: config },
      });
      expect(r.code).toBe(code);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toContain(line.replace('BASE', srv.baseUrl));
    } finally {
      await srv.close();
    }
  });
});
