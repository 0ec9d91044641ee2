// The console: `/` on the sandbox's public URL, a page that shows what the sandbox knows
// (meeting types, links, meetings, webhooks, faults) and the delivery log live, and acts on it
// (mint, book, reschedule, cancel, resend, set faults). The page (console-page.ts) is plain
// HTML, CSS and a small script; everything it reads and does goes through control endpoints
// under /api/_sandbox, with X-API-KEY like every script's request — so a page on another
// origin can neither read them nor send them (a custom header needs CORS, which the sandbox
// never grants), and faults never hit the console itself.
//
// On a loopback address with the documented key the page carries it (anyone who can open it
// could use that key anyway); with a key of your own (--api-key), or elsewhere, it asks for the
// key first and keeps it for the tab (sessionStorage), never in a URL.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createSingleUseLink, linkView } from './api.js';
import { CONSOLE_CSS, CONSOLE_JS, consoleHtml } from './console-page.js';
import type { SandboxCore } from './core.js';
import type { DeliveryRecord } from './deliveries.js';
import type { Route } from './router.js';

/** How many of each list the snapshot carries (newest first where they grow). */
export const SNAPSHOT_LIMIT = 200;
/** Bytes an event stream may have waiting for a slow reader before it is ended (it reconnects). */
export const MAX_STREAM_BUFFER = 1024 * 1024;
/** State changes are told at most this often (a soak creates thousands a second). */
export const CHANGED_EVERY_MS = 250;
const PING_EVERY_MS = 15_000;

const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

function newest<T>(items: Iterable<T>, n: number): T[] {
  const all = [...items];
  return all.slice(Math.max(0, all.length - n)).reverse();
}

/** Everything the console shows, bounded: what a fresh page (or a reconnect) starts from. */
export function snapshot(core: SandboxCore) {
  const types = core.state.sortedMeetingTypes([['position', 'asc']]);
  return {
    baseUrl: core.baseUrl,
    publicUrl: core.publicUrl,
    types: {
      total: types.length,
      items: types.slice(0, SNAPSHOT_LIMIT).map((t) => ({
        uuid: t.uuid,
        name: t.name,
        slug: t.slug,
        duration: t.duration,
      })),
    },
    links: {
      total: core.state.links.size,
      items: newest(core.state.links.values(), SNAPSHOT_LIMIT).map((l) => linkView(core, l)),
    },
    meetings: {
      total: core.state.meetings.size,
      items: newest(core.state.meetings.values(), SNAPSHOT_LIMIT).map((r) => r.meeting),
    },
    webhooks: {
      total: core.state.webhooks.size,
      // Never the secret: whether there is one is all the console shows.
      items: newest(core.state.webhooks.values(), SNAPSHOT_LIMIT).map((w) => ({
        uuid: w.uuid,
        url: w.url,
        events: w.events,
        created_at: w.created_at,
        signed: w.secret !== null && w.secret !== '',
      })),
    },
    deliveries: {
      total: core.deliveries.records.length,
      items: newest(core.deliveries.records, SNAPSHOT_LIMIT),
    },
    faults: core.faults.list(),
  };
}

/**
 * The live stream: `delivery` (a record, each time it changes) and `changed` (anything else
 * changed: fetch the snapshot again), as server-sent events. A reader that falls behind by
 * more than MAX_STREAM_BUFFER is cut off rather than buffered for; it reconnects and starts
 * from a snapshot.
 */
function eventStream(core: SandboxCore) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-content-type-options': 'nosniff',
    });
    res.write('retry: 1000\n\n');
    let timer: NodeJS.Timeout | undefined;
    let open = true;
    const send = (event: string, data: unknown) => {
      if (!open) return;
      if (res.writableLength > MAX_STREAM_BUFFER) {
        stop();
        res.destroy();
        return;
      }
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    const changed = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        send('changed', {});
      }, CHANGED_EVERY_MS);
    };
    const offs = [
      core.deliveries.onUpdate((d: DeliveryRecord) => send('delivery', d)),
      core.state.onChange(changed),
      core.faults.onChange(changed),
    ];
    const ping = setInterval(() => {
      if (open && res.writableLength <= MAX_STREAM_BUFFER) res.write(': ping\n\n');
    }, PING_EVERY_MS);
    function stop() {
      if (!open) return;
      open = false;
      for (const off of offs) off();
      clearInterval(ping);
      clearTimeout(timer);
    }
    res.on('close', stop);
    req.on('close', stop);
  };
}

/** The console's own control endpoints (X-API-KEY, like all of /api/_sandbox). */
export const consoleControlRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/_sandbox/snapshot',
    handle: (core) => ({ status: 200, json: snapshot(core) }),
  },
  {
    method: 'GET',
    path: '/api/_sandbox/events',
    handle: (core) => ({ status: 200, stream: eventStream(core) }),
  },
  {
    // Minting from the console: what POST /api/single-use-link does, never faulted.
    method: 'POST',
    path: '/api/_sandbox/links',
    body: 'json',
    handle: (core, r) => ({ status: 201, json: createSingleUseLink(core, r.body) }),
  },
];

/** The page and its two files, without a key (the page asks the API with one). */
export const consolePageRoutes: Route[] = [
  {
    method: 'GET',
    path: '/',
    handle: (core) => ({
      status: 200,
      html: consoleHtml({ key: core.consoleKey }),
      headers: PAGE_HEADERS,
    }),
  },
  {
    method: 'GET',
    path: '/_console/app.js',
    handle: () => ({
      status: 200,
      text: CONSOLE_JS,
      contentType: 'text/javascript; charset=utf-8',
    }),
  },
  {
    method: 'GET',
    path: '/_console/app.css',
    handle: () => ({ status: 200, text: CONSOLE_CSS, contentType: 'text/css; charset=utf-8' }),
  },
];
