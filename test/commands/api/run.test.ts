// `sched api <path>`: against the sandbox (real endpoints, real paging) and a fault server
// (exact bytes and headers received, scripted statuses, counted attempts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSched, type RunOptions } from '../../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { envelope, f, startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { useFastRetries } from '../../reliability/fast-retry.js';

useFastRetries();

const KEY = 'api-test-key-Zq81x';
const dir = mkdtempSync(path.join(tmpdir(), 'sched-api-'));
const env = (baseUrl: string) => ({
  SCHED_BASE_URL: baseUrl,
  SCHED_API_KEY: KEY,
  SCHED_CONFIG_DIR: dir,
});

let srv: FaultServer;
beforeAll(async () => {
  srv = await startFaultServer();
});
afterEach(() => srv.clear());
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

const api = (argv: string[], opts: RunOptions = {}) =>
  runSched(['api', ...argv], { env: env(srv.baseUrl), ...opts });

describe('sched api: the request', () => {
  it('takes the path with or without a leading slash, keeping the query string', async () => {
    srv.on('GET', '/api/users/me/meeting-types', f.json(200, { ok: true }));
    expect((await api(['users/me/meeting-types?limit=5&sorting[name]=asc'])).code).toBe(0);
    expect((await api(['/users/me/meeting-types'])).code).toBe(0);
    expect(srv.requests.map((r) => r.url)).toEqual([
      '/api/users/me/meeting-types?limit=5&sorting[name]=asc',
      '/api/users/me/meeting-types',
    ]);
    expect(srv.requests.map((r) => r.method)).toEqual(['GET', 'GET']);
    expect(srv.requests[0]!.headers['x-api-key']).toBe(KEY);
  });

  it('-f and -F build a JSON body, sent exactly as built, POST by default', async () => {
    srv.on('POST', '/api/webhooks', f.json(201, { uuid: 'w1' }));
    const r = await api([
      'webhooks',
      '-f',
      'url=https://example.com/hook?a=b',
      '-f',
      'events[]=meetingScheduled',
      '-f',
      'events[]=meetingCancelled',
      '-f',
      'label=42',
      '-F',
      'big=12345678901234567890',
      '-F',
      'ratio=-0.5e3',
      '-F',
      'on=true',
      '-F',
      'none=null',
      '-F',
      'word=hello',
      '-F',
      'ids[]=1',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"uuid":"w1"}\n');
    const got = srv.requests[0]!;
    expect(got.method).toBe('POST');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.body).toBe(
      '{"url":"https://example.com/hook?a=b","events":["meetingScheduled","meetingCancelled"],' +
        '"label":"42","big":12345678901234567890,"ratio":-0.5e3,"on":true,"none":null,' +
        '"word":"hello","ids":[1]}',
    );
  });

  it('--input sends a file, or stdin, byte for byte; -X chooses the method', async () => {
    srv.on('*', '/api/things', (req) => f.json(200, { method: req.method }));
    const bytes = '{ "name" : "spaced\\u00e9",\n  "n": 1.50 }\n';
    const file = path.join(dir, 'body.json');
    writeFileSync(file, bytes);
    expect((await api(['things', '--input', file])).code).toBe(0);
    expect((await api(['things', '-X', 'put', '--input', '-'], { stdin: bytes })).code).toBe(0);
    expect(srv.requests.map((r) => [r.method, r.body])).toEqual([
      ['POST', bytes],
      ['PUT', bytes],
    ]);
  });

  it('-H headers reach the server; their secret-looking values never show with --verbose', async () => {
    srv.on('GET', '/api/webhooks', f.json(200, {}));
    const r = await runSched(
      [
        '--verbose',
        'api',
        'webhooks',
        '-H',
        'Accept-Language: de',
        '-H',
        'Authorization: Bearer tok-secret-991',
        '-H',
        'X-Request-Id: abc',
      ],
      { env: env(srv.baseUrl) },
    );
    expect(r.code).toBe(0);
    const h = srv.requests[0]!.headers;
    expect(h['accept-language']).toBe('de');
    expect(h.authorization).toBe('Bearer tok-secret-991');
    expect(h['x-request-id']).toBe('abc');
    expect(h['x-api-key']).toBe(KEY);
    expect(r.stderr).toMatch(/header Accept-Language: de/);
    expect(r.stderr).toMatch(/header Authorization: \*\*\*\*/);
    expect(r.stderr).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/api\/webhooks -> 200 in \d+ ms/);
    expect(r.stderr + r.stdout).not.toContain('tok-secret-991');
    expect(r.stderr + r.stdout).not.toContain(KEY);
  });

  it('never prints the key, even when the server echoes it (--verbose, -i, the body)', async () => {
    srv.on('GET', '/api/echo', (req) =>
      f.json(
        401,
        { message: `bad key ${String(req.headers['x-api-key'])}` },
        {
          'x-echo': String(req.headers['x-api-key']),
        },
      ),
    );
    const r = await runSched(['--verbose', 'api', 'echo', '-i'], { env: env(srv.baseUrl) });
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/^HTTP\/1\.1 401 Unauthorized\n/);
    expect(r.stdout).toContain('x-echo: ****');
    expect(r.stdout).toContain('{"message":"bad key ****"}');
    expect(r.stderr + r.stdout).not.toContain(KEY);
  });
});

describe('sched api: refused before anything is sent (exit 2)', () => {
  const cases: Array<[string[], RegExp]> = [
    [['webhooks', '-H', 'X-API-KEY: other'], /-H X-API-KEY cannot be set/],
    [['webhooks', '-H', 'x-api-key:other'], /-H x-api-key cannot be set/],
    [['webhooks', '-H', 'Host: evil.example'], /Host comes from the base URL/],
    [['webhooks', '-H', 'Content-Length: 5'], /set by the HTTP client/],
    [['webhooks', '-H', 'no colon'], /is not a header/],
    [['webhooks', '-X', 'GET', '-f', 'a=b'], /a GET request has no body/],
    [['webhooks', '-X', 'FETCH'], /unknown method "FETCH"/],
    [['webhooks', '-f', 'novalue'], /write a field as key=value/],
    [['webhooks', '-f', 'a=1', '-f', 'a=2'], /"a" is given twice/],
    [['webhooks', '-f', 'a=1', '-F', 'a[]=2'], /both as a= and as a\[\]=/],
    [['webhooks', '-f', 'a=1', '--input', '-'], /either as fields .* or with --input/],
    [['webhooks', '--input', '/nonexistent/body.json'], /cannot read --input .*: no such file/],
    [['https://evil.example/api/webhooks'], /relative to the base URL, not a URL/],
    [['//evil.example/x'], /relative to the base URL, not a URL/],
    [['web hooks'], /white space/],
    [[''], /the path is empty/],
    [['/'], /the path is empty/],
    [['webhooks#top'], /contains "#"; percent-encode it as %23/],
    [
      ['webhooks', '-H', 'X-Note: a\u0007b'],
      /-H X-Note: the value contains a line break or a control character/,
    ],
    // Issue 20: a header value is bytes; one that is not ASCII was retried 4 times as a
    // network failure.
    [['webhooks', '-H', 'X-Name: café'], /-H X-Name: the value is not ASCII[\s\S]*percent-encode/],
    [['webhooks', '-H', 'X-Name: 東京'], /-H X-Name: the value is not ASCII/],
    [['webhooks?limit=0', '--paginate'], /limit=0 in the path is not a whole number of at least 1/],
    [['webhooks?limit=ten', '--paginate'], /limit=ten in the path is not a whole number/],
    [['webhooks', '--paginate', '-X', 'POST'], /--paginate reads the pages of a GET/],
    [['webhooks', '--paginate', '-i'], /--include cannot be combined with --paginate/],
    [['webhooks', '-o', 'csv'], /sched api cannot print csv; it prints table, json, ndjson/],
    [['webhooks', '-o', 'ndjson'], /-o ndjson .* needs --paginate/],
    [['webhooks', '--json', '-o', 'ndjson'], /--json and -o ndjson ask for two formats/],
  ];
  for (const [argv, error] of cases) {
    it(argv.join(' '), async () => {
      const r = await api(argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(error);
      expect(r.stderr.trim().split('\n')[0]).toMatch(/^error: /);
      expect(r.stdout).toBe('');
      expect(srv.requests).toEqual([]);
    });
  }
});

describe('sched api: the answer', () => {
  it('prints JSON compact in a pipe and pretty on a terminal, keeping the bytes of numbers', async () => {
    const body = '{"a": [1, 2.50, {"b": null}], "big": 98765432109876543210, "e": {}, "s": "x, y"}';
    srv.on('GET', '/api/x', f.text(200, body, 'application/json'));
    const piped = await api(['x']);
    expect(piped.stdout).toBe(
      '{"a":[1,2.50,{"b":null}],"big":98765432109876543210,"e":{},"s":"x, y"}\n',
    );
    const tty = await api(['x'], { stdoutIsTTY: true });
    expect(tty.stdout).toBe(
      '{\n  "a": [\n    1,\n    2.50,\n    {\n      "b": null\n    }\n  ],\n' +
        '  "big": 98765432109876543210,\n  "e": {},\n  "s": "x, y"\n}\n',
    );
  });

  it('prints a body that is not JSON as received', async () => {
    srv.on('GET', '/api/page', f.text(200, 'plain text\n  kept as is', 'text/plain'));
    const r = await api(['page']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('plain text\n  kept as is');
  });

  it('-i with a status Node has no name for: the number alone', async () => {
    srv.on('GET', '/api/webhooks', f.json(599, { ok: 0 }));
    const r = await api(['webhooks', '-i']);
    expect(r.stdout.split('\n')[0]).toBe('HTTP/1.1 599');
  });

  it('--input - from a terminal is refused before anything is sent', async () => {
    const r = await api(['webhooks', '--input', '-'], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'error: --input - reads the body from stdin, but stdin is a terminal\n',
    );
    expect(srv.requests).toEqual([]);
  });

  it('-i prints the status line and the headers first', async () => {
    srv.on('GET', '/api/webhooks', f.json(200, { ok: 1 }, { 'x-ratelimit-remaining': '9' }));
    const r = await api(['webhooks', '--include']);
    const [head, body] = r.stdout.split('\n\n');
    expect(head!.split('\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(head).toMatch(/^content-type: application\/json$/m);
    expect(head).toMatch(/^x-ratelimit-remaining: 9$/m);
    expect(body).toBe('{"ok":1}\n');
  });

  const table: Array<[number, number]> = [
    [400, 2],
    [422, 2],
    [401, 4],
    [403, 4],
    [404, 5],
    [409, 1],
    [418, 1],
  ];
  for (const [status, code] of table) {
    it(`an answer ${status} prints its body on stdout and exits ${code}`, async () => {
      srv.on('*', '/api/thing', f.json(status, { code: status, message: `said ${status}` }));
      for (const method of ['GET', 'POST', 'DELETE']) {
        const r = await api(['thing', '-X', method]);
        expect(r.code, method).toBe(code);
        expect(r.stdout).toBe(`{"code":${status},"message":"said ${status}"}\n`);
        const err = r.stderr.trim().split('\n');
        expect(err[0]).toMatch(new RegExp(`^error: .*${status}.*said ${status}`));
        expect(r.stderr).not.toMatch(/\n\s+at /);
      }
    });
  }

  it('a POST answered 503 is sent exactly once (exit 1, body on stdout)', async () => {
    srv.on('POST', '/api/webhooks', f.json(503, { message: 'down' }), f.json(201, { uuid: 'x' }));
    const r = await api(['webhooks', '-f', 'url=https://example.com/h']);
    expect(r.code).toBe(1);
    expect(srv.count('POST', '/api/webhooks')).toBe(1);
    expect(r.stdout).toBe('{"message":"down"}\n');
    expect(r.stderr).toMatch(
      /^error: the API failed with 503 Service Unavailable on POST \S*\/webhooks\b/,
    );
  });

  it('a PUT or PATCH is treated like a POST: a reset after sending is not retried', async () => {
    srv.on('*', '/api/thing', f.reset(), f.json(200, {}));
    const r = await api(['thing', '-X', 'PATCH', '-F', 'n=1']);
    expect(r.code).toBe(1);
    expect(srv.count('PATCH', '/api/thing')).toBe(1);
    expect(r.stderr).toMatch(/the outcome of PATCH \S*\/thing is unknown/);
  });

  it('a POST answered 429 is sent again; a GET answered 503 is retried', async () => {
    srv.on('POST', '/api/webhooks', f.rateLimit(0), f.json(201, { uuid: 'x' }));
    srv.on('GET', '/api/webhooks', f.status(503), f.json(200, { ok: true }));
    expect((await api(['webhooks', '-f', 'url=u'])).stdout).toBe('{"uuid":"x"}\n');
    expect((await api(['webhooks'])).stdout).toBe('{"ok":true}\n');
    expect(srv.count('POST', '/api/webhooks')).toBe(2);
    expect(srv.count('GET', '/api/webhooks')).toBe(2);
  });

  it('a DELETE answered 404 on a retry is gone either way: exit 0 with a note', async () => {
    srv.on('DELETE', '/api/webhooks/w9', f.status(503), f.json(404, { message: 'Not found.' }));
    const r = await api(['-X', 'DELETE', 'webhooks/w9']);
    expect(srv.count('DELETE', '/api/webhooks/w9')).toBe(2);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"message":"Not found."}\n');
    expect(r.stderr).toMatch(/^note: DELETE \/webhooks\/w9 answered 404 after an earlier attempt/);
  });

  it('never sends the key or an Authorization header to another host on a redirect', async () => {
    const other = await startFaultServer();
    try {
      other.on('GET', '/elsewhere', f.json(200, { moved: true }));
      srv.on('GET', '/api/moved', f.redirect(`${other.url}/elsewhere`));
      const r = await api(['moved', '-H', 'Authorization: Bearer t0k3n', '-H', 'X-Trace: 1']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('{"moved":true}\n');
      const h = other.requests[0]!.headers;
      expect(h['x-api-key']).toBeUndefined();
      expect(h.authorization).toBeUndefined();
      expect(h['x-trace']).toBe('1');
    } finally {
      await other.close();
    }
  });
});

describe('sched api --paginate', () => {
  const item = (n: number) => ({ uuid: `u${n}`, big: n });
  const pages = [[item(1), item(2)], [item(3), item(4)], [item(5)]];

  function serve(): void {
    srv.on('GET', '/api/webhooks', (req) => {
      const page = Number(req.query.get('page'));
      return f.json(200, envelope(pages[page - 1] ?? [], { page, pages: 3, limit: 2, total: 5 }));
    });
  }

  it('reads every page and prints one JSON array of all items, keeping the other query parameters', async () => {
    serve();
    const r = await api(['webhooks?limit=2&sorting[name]=desc', '--paginate']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(pages.flat());
    const asked = srv.requests.map((q) => [
      q.query.get('page'),
      q.query.get('limit'),
      q.query.get('sorting[name]'),
    ]);
    expect(asked.sort()).toEqual([
      ['1', '2', 'desc'],
      ['2', '2', 'desc'],
      ['3', '2', 'desc'],
    ]);
  });

  it('starts at the page the path gives (as gh api --paginate does), not page 1', async () => {
    serve();
    const r = await api(['webhooks?page=2&limit=2', '--paginate']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([...pages[1]!, ...pages[2]!]);
    expect(srv.requests.map((q) => q.query.get('page')).sort()).toEqual(['2', '3']);
    srv.clear();
    serve();
    const past = await api(['webhooks?page=7', '--paginate']);
    expect(past.code).toBe(0);
    expect(JSON.parse(past.stdout)).toEqual([]);
    expect(srv.requests.map((q) => q.query.get('page'))).toEqual(['7']);
    const bad = await api(['webhooks?page=0', '--paginate']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('page=0 in the path is not a whole number of at least 1');
  });

  it('-o ndjson prints one item per line', async () => {
    serve();
    const r = await runSched(['api', 'webhooks', '--paginate', '-o', 'ndjson'], {
      env: env(srv.baseUrl),
    });
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual(pages.flat());
  });

  it('an answer that is not a paged list is one clear error (exit 1)', async () => {
    srv.on('GET', '/api/single', f.json(200, { uuid: 'x' }));
    const r = await api(['single', '--paginate']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: unexpected response shape from GET \/single/);
  });

  it('a first page answered 404 prints its body and exits 5', async () => {
    const r = await api(['nothing', '--paginate']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('{"code":404,"message":"Not found."}\n');
  });
});

describe('sched api against the sandbox', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(() => sb.close());
  const run = (argv: string[]) =>
    runSched(['api', ...argv], { env: { ...sb.env, SCHED_CONFIG_DIR: dir } });

  it('creates, lists (every page) and deletes a webhook', async () => {
    const created = await run([
      'webhooks',
      '-f',
      'url=https://example.com/api-test',
      '-f',
      'events[]=meetingCancelled',
    ]);
    expect(created.code).toBe(0);
    const hook = JSON.parse(created.stdout) as { uuid: string; events: string[] };
    expect(hook.events).toEqual(['meetingCancelled']);

    const listed = await run(['/webhooks', '--paginate']);
    expect((JSON.parse(listed.stdout) as Array<{ uuid: string }>).map((w) => w.uuid)).toEqual([
      hook.uuid,
    ]);

    const gone = await run(['-X', 'DELETE', `webhooks/${hook.uuid}`]);
    expect(gone.code).toBe(0);
    expect(gone.stdout).toBe('');
    const again = await run(['-X', 'DELETE', `webhooks/${hook.uuid}`]);
    expect(again.code).toBe(5);
    expect(again.stdout).not.toBe('');
  });

  it('--paginate walks the seeded meeting types page by page (-o ndjson)', async () => {
    const whole = (await (await sb.api('/users/me/meeting-types?limit=100')).json()) as {
      _embedded: { items: Array<{ uuid: string }> };
    };
    const r = await run(['users/me/meeting-types?limit=2', '--paginate', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    const uuids = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { uuid: string }).uuid);
    expect(uuids.length).toBeGreaterThan(2);
    expect(uuids).toEqual(whole._embedded.items.map((t) => t.uuid));
    const pagesAsked = sb.requests.filter(
      (q) => q.pathname.endsWith('/meeting-types') && q.query.get('limit') === '2',
    ).length;
    expect(pagesAsked).toBeGreaterThan(1);
  });

  it('a key the sandbox rejects: exit 4, its body on stdout', async () => {
    const r = await runSched(['api', 'webhooks'], {
      env: { ...sb.env, SCHED_API_KEY: 'wrong-key-000', SCHED_CONFIG_DIR: dir },
    });
    expect(r.code).toBe(4);
    expect(r.stdout).not.toBe('');
    expect(r.stderr).toMatch(/^error: the API rejected the key \(401\)/);
  });
});
