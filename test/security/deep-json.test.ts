// Issue 20, point 8: JSON nested 20,000 deep from a server (or a sender) is valid JSON: it is
// printed, never an "unexpected failure", and pretty-printing it on a terminal does not take
// memory growing with the square of its depth.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { createBufferIO } from '../helpers/buffer-io.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { envelope, f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runSched } from '../helpers/run.js';
import { until } from '../helpers/until.js';

const DEPTH = 20_000;
const deep = () => '['.repeat(DEPTH) + ']'.repeat(DEPTH);
const TYPE = `{"uuid":"3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c","slug":"intro","name":"Intro","duration":15,"deep":${deep()}}`;

/** How deep `v` is nested (iteratively: the value itself is too deep to recurse over). */
function depthOf(v: unknown): number {
  let d = 0;
  let cur = v;
  while (Array.isArray(cur)) {
    d++;
    cur = cur[0];
  }
  return d;
}

const config = useConfigDir('sched-sec-deep-');
let srv: FaultServer;
beforeAll(async () => {
  srv = await startFaultServer();
  const list = JSON.stringify(envelope([], { path: '/api/users/me/meeting-types' })).replace(
    '"items":[]',
    `"items":[${TYPE}]`,
  );
  srv.on('GET', '/api/users/me/meeting-types', {
    kind: 'respond',
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: list,
  });
  srv.on('GET', '/api/deep', f.text(200, deep(), 'application/json'));
});
afterAll(() => srv.close());

const env = () => ({
  SCHED_BASE_URL: srv.baseUrl,
  SCHED_API_KEY: 'k',
  SCHED_CONFIG_DIR: config.path,
});

describe('a server answer nested 20,000 deep is printed', () => {
  it.each([
    ['types list --json', ['types', 'list', '--json'], false],
    ['types list -o ndjson', ['types', 'list', '-o', 'ndjson'], false],
    ['types list --json on a terminal', ['types', 'list', '--json'], true],
    ['api --paginate', ['api', '/users/me/meeting-types', '--paginate'], false],
  ])('%s: exit 0, the deep field intact', async (_what, argv, tty) => {
    const r = await runSched(argv, { env: env(), stdoutIsTTY: tty });
    expect(r.stderr).not.toContain('unexpected failure');
    expect(r.code, r.stderr).toBe(0);
    const parsed = JSON.parse(r.stdout) as Array<{ deep: unknown }> | { deep: unknown };
    const item = Array.isArray(parsed) ? parsed[0]! : parsed;
    expect(depthOf(item.deep)).toBe(DEPTH);
  });

  it.each([false, true])('sched api (terminal: %s): the body as received', async (tty) => {
    const r = await runSched(['api', '/deep'], { env: env(), stdoutIsTTY: tty });
    expect(r.stderr).not.toContain('unexpected failure');
    expect(r.code, r.stderr).toBe(0);
    expect(depthOf(JSON.parse(r.stdout))).toBe(DEPTH);
    // Pretty, it would hold about DEPTH² spaces of indentation: it is written compact instead.
    expect(r.stdout.length).toBeLessThan(4 * DEPTH + 10);
  });
});

describe('webhooks listen --json', () => {
  it('prints a correctly signed delivery nested 20,000 deep', async () => {
    const secret = 'deep-secret-1234';
    const body = `{"event":"meetingScheduled","uuid":"0f8fad5b-d9cb-469f-a165-70867728950e","data":${deep()}}`;
    const ac = new AbortController();
    const io = createBufferIO({ env: {} });
    const done = runCli(['webhooks', 'listen', '--port', '0', '--json', '--secret', secret], {
      io,
      env: { SCHED_CONFIG_DIR: config.path },
      signal: ac.signal,
    });
    await until(() => /ready/.test(io.stderrText()), 'listen to start', io.stderrText);
    const url = /listening on (http:\/\/\S+)/.exec(io.stderrText())![1]!;
    const res = await fetch(url, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'webhook-signature': createHmac('sha256', secret).update(body).digest('base64'),
      },
    });
    expect(res.status).toBe(200);
    // The first line is {"listening": …}; the delivery's is the next.
    const deliveryLine = () =>
      io
        .stdoutText()
        .split('\n')
        .find((l) => l !== '' && !l.startsWith('{"listening"'));
    await until(() => deliveryLine() !== undefined, 'the delivery line', io.stderrText);
    ac.abort('SIGINT');
    expect(await done).toBe(0);
    expect(io.stderrText()).not.toContain('unexpected');
    const line = JSON.parse(deliveryLine()!) as Record<string, unknown>;
    expect(line.signature).toBe('valid');
    expect(line.event).toBe('meetingScheduled');
    expect(depthOf((line.payload as { data: unknown } | undefined)?.data ?? line.body)).toBe(DEPTH);
  });
});
