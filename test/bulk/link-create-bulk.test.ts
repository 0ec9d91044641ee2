// `sched link create --count` at scale, in-process, against a server that rate-limits or fails:
// every link the server minted is printed exactly once and in request order, the job slows
// down as a whole on 429, connections are reused, and a run cut short says so (exit 1 / 130).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runSched, type RunOptions } from '../helpers/run.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { startBulkServer, type BulkServer } from './bulk-server.js';

const A = '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c';
const B = 'a7c3e1f0-52d4-4b6a-8e9f-0a1b2c3d4e5f';

let srv: BulkServer;
const config = useConfigDir('sched-bulk-');

beforeAll(async () => {
  srv = await startBulkServer();
});
afterAll(async () => {
  await srv.close();
});
beforeEach(() => srv.reset());

const link = (args: string[], opts: RunOptions = {}) =>
  runSched(['link', 'create', ...args], {
    ...opts,
    env: { ...srv.env, SCHED_CONFIG_DIR: config.path, ...opts.env },
  });

const lines = (s: string) => s.split('\n').filter(Boolean);
const createdUrls = () => srv.created.map((c) => c.url);
const typeOf = (url: string) => srv.created.find((c) => c.url === url)?.meetingType;
const posts = () => srv.arrivals.filter((a) => a.method === 'POST');

describe('link create --count under a rate limit', () => {
  it('halves what is in flight on 429, re-sends, and still mints each link exactly once, in order', async () => {
    // 429 whenever more than 3 requests are in flight; every answer (429 too) takes 40 ms.
    srv.set({ maxInFlight: 3, delayMs: () => 40, rateLimitDelayMs: 40 });
    const r = await link([A, B, '--count', '30', '--concurrency', '8']);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
    const printed = lines(r.stdout);
    // Exactly the links the server created: none lost, none twice.
    expect(printed).toHaveLength(60);
    expect(new Set(printed).size).toBe(60);
    expect([...printed].sort()).toEqual([...createdUrls()].sort());
    expect(srv.created).toHaveLength(60);
    // Request order: the 30 links of A, then the 30 of B.
    expect(printed.map(typeOf)).toEqual([...Array(30).fill(A), ...Array(30).fill(B)]);

    // The service did push back, and the whole job slowed down: the first burst had up to 8
    // in flight; once the limiter reacted, the server never again saw that many.
    expect(srv.rateLimited()).toBeGreaterThan(0);
    const all = posts();
    const early = Math.max(...all.slice(0, 8).map((a) => a.inFlight));
    const later = Math.max(...all.slice(Math.floor(all.length / 2)).map((a) => a.inFlight));
    expect(early).toBeGreaterThan(3);
    expect(later).toBeLessThan(8);
    expect(later).toBeLessThan(early);
    // Every 429 was answered before anything was created: processed POSTs == links.
    expect(all.filter((a) => a.status === 200)).toHaveLength(60);

    expect(r.stderr).toContain('The service is rate limiting (429): slowing down to');
    expect(r.stderr).toMatch(/Rate limited: \d+ answers? 429, each request sent again/);
    // Kept-alive pool: never more connections than requests allowed in flight.
    expect(srv.connections()).toBeLessThanOrEqual(8);
  });

  it('honours Retry-After and finishes every link', async () => {
    srv.set({ maxInFlight: 2, retryAfter: '0.05', delayMs: () => 20 });
    const r = await link([A, '--count', '25', '--concurrency', '6', '--json']);
    expect(r.code).toBe(0);
    const arr = JSON.parse(r.stdout) as Array<{ code: string; url: string }>;
    expect(arr.map((l) => l.url).sort()).toEqual([...createdUrls()].sort());
    expect(srv.created).toHaveLength(25);
    expect(srv.rateLimited()).toBeGreaterThan(0);
  });

  it('without rate limits: keeps --concurrency connections alive for the whole job', async () => {
    srv.set({ delayMs: (n) => (n % 7) * 3 });
    const r = await link([A, B, A, '--count', '70', '--concurrency', '8']);
    expect(r.code).toBe(0);
    const printed = lines(r.stdout);
    expect([...printed].sort()).toEqual([...createdUrls()].sort());
    expect(srv.created).toHaveLength(210);
    // Answers come back out of order (varying delays); the output keeps request order.
    expect(printed.map(typeOf)).toEqual([
      ...Array(70).fill(A),
      ...Array(70).fill(B),
      ...Array(70).fill(A),
    ]);
    expect(srv.connections()).toBeLessThanOrEqual(8);
    expect(Math.max(...posts().map((a) => a.inFlight))).toBeLessThanOrEqual(8);
    expect(r.stderr).toBe('');
  });
});

describe('link create --count cut short', () => {
  it('a 503 part-way: exit 1, every minted link printed, the summary says how many', async () => {
    srv.set({ delayMs: () => 5, fault: (n) => (n === 20 ? 503 : undefined) });
    const r = await link([A, '--count', '50', '--concurrency', '4']);
    expect(r.code).toBe(1);
    const printed = lines(r.stdout);
    expect([...printed].sort()).toEqual([...createdUrls()].sort());
    expect(printed.length).toBeGreaterThanOrEqual(19);
    expect(r.stderr).toContain(`created ${printed.length} of 50 links (printed on stdout), then:`);
    expect(r.stderr).toContain('503');
    expect(r.stderr).toContain(`the other ${50 - printed.length} links were not created`);
  });

  it('a connection reset before the server created anything: printed == created, exit 1', async () => {
    srv.set({ delayMs: () => 5, fault: (n) => (n === 20 ? 'reset-before' : undefined) });
    const r = await link([A, '--count', '50', '--concurrency', '4']);
    expect(r.code).toBe(1);
    const printed = lines(r.stdout);
    expect([...printed].sort()).toEqual([...createdUrls()].sort());
    expect(r.stderr).toMatch(/the outcome of POST http:\/\/\S+\/api\/single-use-link is unknown/);
    expect(r.stderr).toContain(`created ${printed.length} of 50 links`);
  });

  it('a reset after the server created the link: the one unknown link is named as unknown, not lost silently', async () => {
    srv.set({ delayMs: () => 5, fault: (n) => (n === 20 ? 'reset-after' : undefined) });
    const r = await link([A, '--count', '50', '--concurrency', '4']);
    expect(r.code).toBe(1);
    const printed = lines(r.stdout);
    // The server minted exactly one link more than could be shown: the reset one.
    expect(srv.created).toHaveLength(printed.length + 1);
    const unknown = createdUrls().filter((u) => !printed.includes(u));
    expect(unknown).toEqual(['https://book.example/s/c000020']);
    expect(r.stderr).toMatch(/outcome of POST http:\/\/\S+\/api\/single-use-link is unknown/);
    expect(r.stderr).toContain('a link may have been created without being shown');
    expect(r.stderr).toContain(
      `the other ${50 - printed.length} links were not shown: 1 failed (its answer was lost, so it may have created a link anyway)`,
    );
  });

  it('Ctrl-C with slow answers: requests in flight finish and are printed, nothing new starts, exit 130', async () => {
    const ac = new AbortController();
    srv.set({
      delayMs: () => 30,
      onProcessed: (n) => {
        if (n === 15) ac.abort('SIGINT');
      },
    });
    const r = await link([A, '--count', '100', '--concurrency', '4'], { signal: ac.signal });
    expect(r.code).toBe(130);
    const printed = lines(r.stdout);
    expect([...printed].sort()).toEqual([...createdUrls()].sort());
    expect(printed.length).toBeGreaterThanOrEqual(15);
    expect(printed.length).toBeLessThan(100);
    expect(posts().length).toBe(printed.length);
    expect(r.stderr).toContain(`interrupted: created ${printed.length} of 100 links`);
    expect(r.stderr).toContain(`the other ${100 - printed.length} links were not created`);
  });

  it('Ctrl-C while paused by a Retry-After: the waiting requests are dropped, not sent', async () => {
    const ac = new AbortController();
    // Two at a time; the rest are told to come back in 15 s (under the 20 s we wait at most).
    srv.set({ maxInFlight: 2, retryAfter: '15', delayMs: () => 30 });
    const run = link([A, '--count', '40', '--concurrency', '8', '-o', 'ndjson'], {
      signal: ac.signal,
    });
    while (srv.rateLimited() === 0) await new Promise((res) => setTimeout(res, 5));
    ac.abort('SIGINT');
    const r = await run;
    expect(r.code).toBe(130);
    const printed = lines(r.stdout).map((l) => (JSON.parse(l) as { url: string }).url);
    expect([...printed].sort()).toEqual([...createdUrls()].sort());
    // Only the first burst ever reached the server: nothing was re-sent or started after.
    expect(posts().length).toBeLessThanOrEqual(8);
    expect(r.stderr).toContain(`interrupted: created ${printed.length} of 40 links`);
  });

  it('-o table given explicitly: a table on a terminal, TSV rows when piped', async () => {
    const tty = await link([A, '--count', '2', '-o', 'table', '--no-color'], { tty: true });
    expect(tty.code).toBe(0);
    const rows = lines(tty.stdout);
    expect(rows[0]).toMatch(/MEETING TYPE\s+URL\s+CODE/);
    expect(rows.slice(1)).toHaveLength(2);
    expect(rows[1]).toContain(A);
    srv.reset();
    const piped = await link([A, '--count', '2', '-o', 'table']);
    expect(lines(piped.stdout).map((l) => l.split('\t'))).toEqual(
      srv.created.map((c) => [A, c.url, c.code]),
    );
    srv.reset();
    // Not given: the default stays one URL per line, on a terminal too.
    const dflt = await link([A, '--count', '2'], { tty: true });
    expect(lines(dflt.stdout)).toEqual(createdUrls());
  });
});
