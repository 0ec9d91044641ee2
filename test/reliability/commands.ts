// The command side of the fault table: every command that talks to the API, how to run it,
// the requests it makes (with the answer a healthy service gives), and what a good run
// prints. Adding a command here adds its rows to every fault (test/reliability/faults.ts).
import { expect } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { envelope, f, type Fault, type RecordedRequest } from '../helpers/fault-server.js';
import { API_KEY, MASKED_KEY, WEBHOOK_SECRET, type Run } from './harness.js';
import { mcpResult, mcpSession } from '../helpers/mcp-stdin.js';
import { EVENT_NAMES } from '../../src/api/types.js';

export type Method = 'GET' | 'POST' | 'DELETE';

/** What a healthy answer carries: the paged envelope, one object, or nothing (204). */
export type Shape = 'list' | 'object' | 'none';

export interface RequestSpec {
  /** Names the row, e.g. "GET meeting types". */
  id: string;
  method: Method;
  /** Path on the server; a trailing `*` matches a prefix. */
  path: string;
  /** Narrows the match (e.g. page 2 of a list). */
  match?: (req: RecordedRequest) => boolean;
  /** The healthy answer. */
  good: (req: RecordedRequest) => Fault;
  shape: Shape;
  /** Best effort: the command ends well whatever this request meets. */
  optional?: boolean;
  /** Every failure of this request ends the command with this instead of its own error. */
  failAs?: { code: number; error: RegExp };
}

export interface CaseContext {
  /** Where the command writes its config (SCHED_CONFIG_DIR). */
  configDir: string;
  /** A scratch directory for files the command reads. */
  dir: string;
  /** Every request that reached the server. */
  requests: RecordedRequest[];
}

export interface CommandSpec {
  name: string;
  argv: (c: CaseContext) => string[];
  stdin?: string;
  /** Environment beyond SCHED_BASE_URL, SCHED_API_KEY and SCHED_CONFIG_DIR. */
  env?: Record<string, string | undefined>;
  /** Leaves SCHED_API_KEY unset (auth login takes the key from stdin). */
  noEnvKey?: boolean;
  /** Files the command needs, written before the run. */
  setup?: (c: CaseContext) => void;
  requests: RequestSpec[];
  /** The exit code of a good run (0 unless said). */
  okCode?: number;
  /** Presses Ctrl-C when stderr shows this (commands that run until stopped). */
  stopWhen?: RegExp;
  /** What a good run prints. */
  checkOk: (r: Run, c: CaseContext) => void;
  /** Checked after every run, good or not (e.g. nothing stored after a failed login). */
  checkAlways?: (r: Run, c: CaseContext, ok: boolean) => void;
  /** Shell completion: never an error, never stderr, candidates or nothing. */
  completion?: boolean;
  /** Where the API key may legitimately be shown masked. */
  showsMaskedKey?: boolean;
  /**
   * A server on stdin and stdout (`sched mcp`): it serves on whatever the API does, so a
   * failure is not an exit code but an error result in its protocol. Returns that result's
   * text, undefined when the call succeeded.
   */
  protocolError?: (r: Run) => string | undefined;
}

// --- Data a healthy service answers with ---------------------------------------------------

const CREATED_AT = '2026-01-05T10:00:00+00:00';
export const MT1 = {
  uuid: '3f1c9a4e-8a52-4f0e-9d7b-2c5e6a1b0d11',
  name: 'Intro call',
  slug: 'intro-call',
  duration: 30,
  description: 'A first chat',
};
export const MT2 = {
  uuid: '8c0f3b7e-1d2a-4c5b-9e6f-7a8b9c0d1e2f',
  name: 'Deep dive',
  slug: 'deep-dive',
  duration: 60,
  description: 'Two hours of questions',
};
export const LINK = { code: 'q7Rx2K', url: 'https://secure.simplymeet.me/s/q7Rx2K' };
export const WH_OLD = {
  uuid: '0d5c7a52-9a43-4c55-8d6f-6f4f3b2f9e10',
  url: 'https://old.example.com/hooks/sched',
  events: [...EVENT_NAMES],
  secret: null,
  created_at: CREATED_AT,
};
export const WH_NEW_UUID = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
export const MEETING_UUID = '4b1d2f0e-2f44-4c1a-9a51-0f3f6a7c8d90';
const NOTIFICATION_UUID = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';
export const PUBLIC_HOOK = 'https://tunnel.example.com/hook';
export const NEW_HOOK = 'https://new.example.com/hooks/sched';

const MT_PATH = '/api/users/me/meeting-types';
const WH_PATH = '/api/webhooks';

function pageOf(req: RecordedRequest): number {
  return Number(req.query.get('page') ?? '1');
}

/** Meeting types on one page (`pages` = 1) or, with `twoPages`, MT1 then MT2. */
function meetingTypes(twoPages: boolean) {
  return (req: RecordedRequest): Fault => {
    const limit = Number(req.query.get('limit') ?? '10');
    if (!twoPages) return f.json(200, envelope([MT1, MT2], { limit, path: MT_PATH }));
    const page = pageOf(req);
    return f.json(
      200,
      envelope(page === 1 ? [MT1] : page === 2 ? [MT2] : [], {
        page,
        pages: 2,
        limit,
        total: 2,
        path: MT_PATH,
      }),
    );
  };
}

const webhookList = (req: RecordedRequest): Fault =>
  f.json(200, envelope([WH_OLD], { limit: Number(req.query.get('limit') ?? '10') }));

/** POST /webhooks as the service answers it: 201 with the webhook, its secret echoed once. */
const webhookCreated = (req: RecordedRequest): Fault => {
  const body = JSON.parse(req.body || '{}') as { url?: string; events?: string[]; secret?: string };
  return f.json(201, {
    uuid: WH_NEW_UUID,
    url: body.url,
    events: body.events,
    secret: body.secret ?? null,
    created_at: CREATED_AT,
  });
};

const linkCreated = (): Fault => f.json(200, LINK);
const deleted = (): Fault => f.status(204);

function actionResult(state: string, event: string, status = 200) {
  return (): Fault =>
    f.json(status, {
      meeting: {
        uuid: MEETING_UUID,
        state,
        scheduled_at: '2026-12-01T14:00:00+00:00',
        pretty_scheduled_at_in_invitee_timezone: 'Tuesday, 1 December 2026 14:00',
        event_type: { name: MT1.name, slug: MT1.slug, duration: 30 },
        invitee: { full_name: 'Ada Lovelace', email: 'ada@example.com' },
      },
      notified: [
        {
          webhook_uuid: WH_OLD.uuid,
          url: WH_OLD.url,
          event,
          notification_uuid: NOTIFICATION_UUID,
          signed: true,
        },
      ],
    });
}

const deliveries = (): Fault =>
  f.json(200, {
    items: [
      {
        notification_uuid: NOTIFICATION_UUID,
        url: WH_OLD.url,
        state: 'delivered',
        attempts: [{ attempt: 1, status: 200, error: null }],
      },
    ],
  });

// --- Requests, by what they are -------------------------------------------------------------

const R = {
  meetingTypes: (id = 'GET meeting types'): RequestSpec => ({
    id,
    method: 'GET',
    path: MT_PATH,
    good: meetingTypes(false),
    shape: 'list',
  }),
  meetingTypesPage: (page: number): RequestSpec => ({
    id: `GET meeting types page ${page}`,
    method: 'GET',
    path: MT_PATH,
    match: (req) => pageOf(req) === page,
    good: meetingTypes(true),
    shape: 'list',
  }),
  createLink: (): RequestSpec => ({
    id: 'POST single-use link',
    method: 'POST',
    path: '/api/single-use-link',
    good: linkCreated,
    shape: 'object',
  }),
  listWebhooks: (extra: Partial<RequestSpec> = {}): RequestSpec => ({
    id: 'GET webhooks',
    method: 'GET',
    path: WH_PATH,
    good: webhookList,
    shape: 'list',
    ...extra,
  }),
  createWebhook: (extra: Partial<RequestSpec> = {}): RequestSpec => ({
    id: 'POST webhook',
    method: 'POST',
    path: WH_PATH,
    good: webhookCreated,
    shape: 'object',
    ...extra,
  }),
  deleteWebhook: (uuid: string, extra: Partial<RequestSpec> = {}): RequestSpec => ({
    id: 'DELETE webhook',
    method: 'DELETE',
    path: `${WH_PATH}/${uuid}`,
    good: deleted,
    shape: 'none',
    ...extra,
  }),
  sandboxAction: (id: string, p: string, good: () => Fault): RequestSpec => ({
    id,
    method: 'POST',
    path: `/api/_sandbox${p}`,
    good,
    shape: 'object',
  }),
  deliveries: (): RequestSpec => ({
    id: 'GET deliveries',
    method: 'GET',
    path: '/api/_sandbox/deliveries',
    good: deliveries,
    shape: 'object',
    optional: true,
  }),
};

// --- Checks of a good run -------------------------------------------------------------------

function lines(s: string): string[] {
  return s.split('\n').filter((l) => l !== '');
}

function readConfig(dir: string): { profiles?: Record<string, { apiKey?: string }> } | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')) as {
      profiles?: Record<string, { apiKey?: string }>;
    };
  } catch {
    return undefined;
  }
}

// --- The table ------------------------------------------------------------------------------

export const COMMANDS: CommandSpec[] = [
  {
    name: 'types list',
    argv: () => ['types', 'list'],
    requests: [R.meetingTypes()],
    checkOk: (r) => {
      expect(lines(r.stdout).map((l) => l.split('\t')[1])).toEqual([MT1.slug, MT2.slug]);
    },
  },
  {
    name: 'types list --all',
    argv: () => ['types', 'list', '--all', '-o', 'ndjson'],
    requests: [R.meetingTypesPage(1), R.meetingTypesPage(2)],
    checkOk: (r) => {
      expect(lines(r.stdout).map((l) => (JSON.parse(l) as { uuid: string }).uuid)).toEqual([
        MT1.uuid,
        MT2.uuid,
      ]);
    },
  },
  {
    name: 'types get <slug>',
    argv: () => ['types', 'get', MT2.slug],
    requests: [R.meetingTypes()],
    checkOk: (r) => expect(r.stdout.split('\t')[3]).toBe(`${MT2.uuid}\n`),
  },
  {
    name: 'link create <uuid>',
    argv: () => ['link', 'create', MT1.uuid],
    requests: [R.createLink()],
    checkOk: (r) => expect(r.stdout).toBe(`${LINK.url}\n`),
  },
  {
    name: 'link create <slug> --count 1',
    argv: () => ['link', 'create', MT2.slug, '--count', '1', '--json'],
    requests: [R.meetingTypes(), R.createLink()],
    checkOk: (r, c) => {
      // `--count` given (even 1): always an array, so a script's shape never depends on N.
      expect(JSON.parse(r.stdout)).toEqual([LINK]);
      const post = c.requests.find((q) => q.method === 'POST');
      expect(JSON.parse(post!.body)).toEqual({ meeting_type_uuid: MT2.uuid });
    },
  },
  {
    name: 'mcp',
    argv: () => ['mcp'],
    stdin: mcpSession('list_meeting_types', { all: true }),
    requests: [R.meetingTypes()],
    protocolError: (r) => {
      const res = mcpResult(r.stdout);
      return res.isError ? res.content.map((c) => c.text).join('\n') : undefined;
    },
    checkOk: (r) => {
      const res = mcpResult(r.stdout);
      expect(JSON.stringify(res.structuredContent)).toContain(MT1.uuid);
    },
  },
  {
    name: 'webhooks add',
    argv: () => ['webhooks', 'add', '--url', NEW_HOOK, '--secret', WEBHOOK_SECRET],
    requests: [R.createWebhook()],
    checkOk: (r) => expect(r.stdout.split('\t')[0]).toBe(WH_NEW_UUID),
  },
  {
    name: 'webhooks add --if-absent',
    argv: () => [
      'webhooks',
      'add',
      '--url',
      NEW_HOOK,
      '--event',
      'meetingScheduled',
      '--secret',
      WEBHOOK_SECRET,
      '--if-absent',
    ],
    requests: [R.listWebhooks(), R.createWebhook()],
    checkOk: (r) => expect(r.stdout.split('\t')[0]).toBe(WH_NEW_UUID),
  },
  {
    name: 'webhooks ls',
    argv: () => ['webhooks', 'ls'],
    requests: [R.listWebhooks()],
    checkOk: (r) => expect(lines(r.stdout).map((l) => l.split('\t')[0])).toEqual([WH_OLD.uuid]),
  },
  {
    name: 'webhooks rm <uuid>',
    argv: () => ['webhooks', 'rm', WH_OLD.uuid],
    requests: [R.deleteWebhook(WH_OLD.uuid)],
    checkOk: (r) => expect(r.stdout).toBe(`${WH_OLD.uuid}\n`),
  },
  {
    name: 'webhooks rm --all --yes',
    argv: () => ['webhooks', 'rm', '--all', '--yes', '--json'],
    requests: [R.listWebhooks(), R.deleteWebhook(WH_OLD.uuid)],
    checkOk: (r) => expect(JSON.parse(r.stdout)).toEqual({ deleted: [WH_OLD.uuid] }),
  },
  {
    // The file's one webhook replaces the account's only one: a plan that deletes every webhook
    // of the account, which off a terminal needs --prune-all (issue 33, item 4).
    name: 'webhooks sync --prune-all',
    setup: (c) => {
      const doc = {
        webhooks: [{ url: NEW_HOOK, events: ['meetingScheduled'], secretEnv: 'SCHED_HOOK_SECRET' }],
      };
      writeFileSync(path.join(c.dir, 'hooks.json'), JSON.stringify(doc));
    },
    argv: (c) => [
      'webhooks',
      'sync',
      '--file',
      path.join(c.dir, 'hooks.json'),
      '--prune-all',
      '--json',
    ],
    env: { SCHED_HOOK_SECRET: WEBHOOK_SECRET },
    requests: [R.listWebhooks(), R.createWebhook(), R.deleteWebhook(WH_OLD.uuid)],
    checkOk: (r, c) => {
      const out = JSON.parse(r.stdout) as {
        created: Array<{ uuid: string; secret: unknown }>;
        deleted: unknown[];
      };
      expect(out.created.map((w) => [w.uuid, w.secret])).toEqual([[WH_NEW_UUID, null]]);
      expect(out.deleted).toEqual([WH_OLD.uuid]);
      // Create before delete: no event is missed while the set changes.
      const order = c.requests.filter((q) => q.method !== 'GET').map((q) => q.method);
      expect(order.filter((m, i) => m !== order[i - 1])).toEqual(['POST', 'DELETE']);
    },
  },
  {
    name: 'auth login --with-key',
    argv: () => ['auth', 'login', '--with-key'],
    stdin: `${API_KEY}\n`,
    noEnvKey: true,
    showsMaskedKey: true,
    requests: [R.meetingTypes('GET meeting types (key check)')],
    checkOk: (r, c) => {
      expect(r.stderr).toContain('Logged in');
      expect(readConfig(c.configDir)?.profiles?.default?.apiKey).toBe(API_KEY);
      const check = c.requests[c.requests.length - 1]!;
      expect(check.headers['x-api-key']).toBe(API_KEY);
    },
    checkAlways: (_r, c, ok) => {
      // A key the API did not accept is never stored.
      if (!ok) expect(readConfig(c.configDir)?.profiles?.default?.apiKey).toBeUndefined();
    },
  },
  {
    name: 'auth status',
    argv: () => ['auth', 'status', '--json'],
    requests: [R.meetingTypes('GET meeting types (key check)')],
    showsMaskedKey: true,
    checkOk: (r) => {
      expect(JSON.parse(r.stdout)).toMatchObject({
        keySource: 'env',
        key: MASKED_KEY,
        valid: true,
      });
    },
  },
  {
    name: 'webhooks listen --register',
    argv: () => [
      'webhooks',
      'listen',
      '--port',
      '0',
      '--secret',
      WEBHOOK_SECRET,
      '--register',
      PUBLIC_HOOK,
    ],
    stopWhen: /ready; Ctrl-C to stop/,
    requests: [
      R.listWebhooks({ id: 'GET webhooks (courtesy check)', optional: true }),
      R.createWebhook(),
      R.deleteWebhook(WH_NEW_UUID, {
        id: 'DELETE webhook (at exit)',
        failAs: { code: 1, error: /left behind/ },
      }),
    ],
    checkOk: (r) => {
      expect(r.stderr).toContain(`registered webhook ${WH_NEW_UUID}`);
      expect(r.stderr).toContain(`deleted webhook ${WH_NEW_UUID}`);
    },
    checkAlways: (r, c) => {
      // Registered means deleted on the way out, or a clear "left behind" error.
      if (r.stderr.includes(`registered webhook ${WH_NEW_UUID}`)) {
        expect(c.requests.some((q) => q.method === 'DELETE')).toBe(true);
        if (!r.stderr.includes(`deleted webhook ${WH_NEW_UUID}`)) {
          expect(r.stderr).toMatch(/left behind/);
        }
      }
    },
  },
  {
    name: 'sandbox book',
    argv: () => ['sandbox', 'book', LINK.code],
    requests: [
      R.sandboxAction('POST book', '/book', actionResult('scheduled', 'meetingScheduled', 201)),
      R.deliveries(),
    ],
    checkOk: (r) => expect(r.stdout.split('\t')[0]).toBe(MEETING_UUID),
  },
  {
    name: 'sandbox cancel',
    argv: () => ['sandbox', 'cancel', MEETING_UUID, '--reason', 'clash'],
    requests: [
      R.sandboxAction(
        'POST cancel',
        `/meetings/${MEETING_UUID}/cancel`,
        actionResult('cancelled', 'meetingCancelled'),
      ),
      R.deliveries(),
    ],
    checkOk: (r) => expect(r.stdout.split('\t')[0]).toBe(MEETING_UUID),
  },
  {
    name: 'sandbox reschedule',
    argv: () => ['sandbox', 'reschedule', MEETING_UUID, '--at', '2026-12-01T14:00:00Z'],
    requests: [
      R.sandboxAction(
        'POST reschedule',
        `/meetings/${MEETING_UUID}/reschedule`,
        actionResult('scheduled', 'meetingRescheduled'),
      ),
      R.deliveries(),
    ],
    checkOk: (r) => expect(r.stdout.split('\t')[0]).toBe(MEETING_UUID),
  },
  {
    name: 'sandbox meetings',
    argv: () => ['sandbox', 'meetings', '--json'],
    requests: [
      {
        id: 'GET meetings',
        method: 'GET',
        path: '/api/_sandbox/meetings',
        good: () =>
          f.json(
            200,
            envelope([{ uuid: MEETING_UUID, state: 'new' }], {
              limit: 100,
              path: '/_sandbox/meetings',
            }),
          ),
        shape: 'list',
      },
    ],
    checkOk: (r) => expect(JSON.parse(r.stdout)).toEqual([{ uuid: MEETING_UUID, state: 'new' }]),
  },
  {
    name: 'sandbox deliveries',
    argv: () => ['sandbox', 'deliveries', '--meeting', MEETING_UUID, '-o', 'ndjson'],
    requests: [{ ...R.deliveries(), optional: false }],
    checkOk: (r) =>
      expect(JSON.parse(r.stdout.trim())).toMatchObject({ notification_uuid: NOTIFICATION_UUID }),
  },
  {
    // `sched api` checks no shapes: a 2xx body (HTML, broken JSON, empty) is printed as it
    // came, so its request is 'none' (nothing to check); every status and failure follows
    // the table like any POST.
    name: 'api -X POST webhooks -f -F',
    argv: () => [
      'api',
      '-X',
      'POST',
      'webhooks',
      '-f',
      `url=${NEW_HOOK}`,
      '-f',
      'events[]=meetingScheduled',
      '-F',
      'active=true',
    ],
    requests: [R.createWebhook({ id: 'POST webhook (raw)', shape: 'none' })],
    checkOk: (r, c) => {
      const post = c.requests.filter((q) => q.method === 'POST');
      expect(post.at(-1)!.body).toBe(
        `{"url":"${NEW_HOOK}","events":["meetingScheduled"],"active":true}`,
      );
      if (r.stdout.startsWith('{"uuid"')) {
        expect((JSON.parse(r.stdout) as { uuid: string }).uuid).toBe(WH_NEW_UUID);
      }
    },
  },
  {
    // --paginate reads a paged list like --all does, so its answers are checked as a list.
    name: 'api --paginate',
    argv: () => ['api', 'users/me/meeting-types?limit=1', '--paginate', '-o', 'ndjson'],
    requests: [R.meetingTypesPage(1), R.meetingTypesPage(2)],
    checkOk: (r) => {
      expect(lines(r.stdout).map((l) => (JSON.parse(l) as { uuid: string }).uuid)).toEqual([
        MT1.uuid,
        MT2.uuid,
      ]);
    },
  },
  {
    name: '__complete meeting-types',
    argv: () => ['__complete', 'meeting-types'],
    requests: [R.meetingTypes()],
    completion: true,
    checkOk: (r) =>
      expect(r.stdout).toBe(`${MT1.slug}\tIntro call (30 min)\n${MT2.slug}\tDeep dive (60 min)\n`),
  },
  {
    name: '__complete webhooks',
    argv: () => ['__complete', 'webhooks'],
    requests: [R.listWebhooks()],
    completion: true,
    checkOk: (r) => expect(r.stdout.startsWith(`${WH_OLD.uuid}\t`)).toBe(true),
  },
];
