// `webhooks listen --register` against the real sandbox: the webhook exists while the listener
// runs, deliveries of a real booking verify with the secret it registered, and nothing is left
// behind when it stops (Ctrl-C, SIGTERM) or fails to register.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { runCli } from '../../../src/cli.js';
import { createBufferIO } from '../../helpers/buffer-io.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { startReceiver } from '../../helpers/receiver.js';
import { runSched } from '../../helpers/run.js';
import { createHmac } from 'node:crypto';
import { until } from '../../helpers/until.js';
import { onSomePort, PORT_IN_USE } from '../../helpers/ports.js';
import { registerPortWarning } from '../../../src/domain/webhooks/listen/render.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

async function webhooksInSandbox(): Promise<
  Array<{ uuid: string; url: string; events: string[] }>
> {
  const res = await sb.api('/webhooks?limit=100');
  const body = (await res.json()) as {
    _embedded: { items: Array<{ uuid: string; url: string; events: string[] }> };
  };
  return body._embedded.items;
}

function start(argv: string[], env: Record<string, string>) {
  const ac = new AbortController();
  const io = createBufferIO({ env });
  let exit: number | undefined;
  const done = runCli(['webhooks', 'listen', ...argv], { io, env, signal: ac.signal }).then(
    (c) => (exit = c),
  );
  return { ac, io, done, exited: () => exit };
}

type Started = ReturnType<typeof start>;

/**
 * The listener must be told its port in advance (the URL it registers names it): starts it on
 * a random port, again on another while the port is in use; returns once it is ready or ended.
 */
async function startOnSomePort(
  argv: (port: number) => string[],
  env: Record<string, string>,
): Promise<{ l: Started; port: number }> {
  return onSomePort(async (port) => {
    const l = start(argv(port), env);
    await until(
      () => /^ready/m.test(l.io.stderrText()) || l.exited() !== undefined,
      'the listener',
      l.io.stderrText,
    );
    if (l.exited() !== undefined && /already in use/.test(l.io.stderrText())) return PORT_IN_USE;
    return { l, port };
  });
}

async function book(): Promise<void> {
  const types = (await (await sb.api('/users/me/meeting-types')).json()) as {
    _embedded: { items: Array<{ uuid: string }> };
  };
  const link = (await (
    await sb.api('/single-use-link', {
      method: 'POST',
      body: JSON.stringify({ meeting_type_uuid: types._embedded.items[0]!.uuid }),
    })
  ).json()) as { code: string };
  const booked = await sb.api('/_sandbox/book', {
    method: 'POST',
    body: JSON.stringify({ code: link.code }),
  });
  expect(booked.status).toBe(201);
}

describe('sched webhooks listen --register', () => {
  it('a loopback URL at another port than the listener: warned once, still registered', async () => {
    const { l, port } = await startOnSomePort(
      (port) => ['--port', String(port), '--register', `http://localhost:${port + 1}/hook`],
      { ...sb.env },
    );
    const other = port + 1;
    expect(l.io.stderrText()).toContain(
      `warning: --register http://localhost:${other}/hook is on this machine at port ${other}, but the listener is on port ${port}: deliveries will not reach it (use --port ${other}, or --register http://localhost:${port}/hook)\n`,
    );
    expect(l.io.stderrText().match(/warning: --register/g)).toHaveLength(1);
    l.ac.abort('SIGINT');
    expect(await l.done).toBe(0);
    expect(await webhooksInSandbox()).toEqual([]);
  });

  it.each([
    ['https://localhost/h', 443, undefined],
    ['https://localhost/h', 8443, 'at port 443'],
    ['http://[::1]:4020/h', 4020, undefined],
    ['http://127.0.0.2/h', 4020, 'at port 80'],
    ['https://example.com:9/h', 4020, undefined],
  ])('registerPortWarning(%s, %i)', (url, port, said) => {
    const w = registerPortWarning(url, port);
    if (said === undefined) expect(w).toBeUndefined();
    else expect(w).toContain(said);
  });

  it('subscribes for its lifetime, verifies real deliveries, and deletes the webhook on Ctrl-C', async () => {
    const { l, port } = await startOnSomePort(
      (port) => [
        '--json',
        '--port',
        String(port),
        '--register',
        `http://127.0.0.1:${port}/hook`,
        '--event',
        'meetingScheduled',
        '--event',
        'meetingCancelled',
      ],
      { ...sb.env },
    );
    const publicUrl = `http://127.0.0.1:${port}/hook`;
    expect(l.io.stderrText()).toMatch(
      /registered webhook [0-9a-f-]{36} for http:\/\/127\.0\.0\.1:\d+\/hook \(meetingScheduled, meetingCancelled\)/,
    );
    expect(l.io.stderrText()).toMatch(/verifying signatures with a generated secret/);
    expect(l.io.stderrText()).not.toContain('warning: --register');
    // The generated secret is not shown when nothing is forwarded.
    expect(l.io.stderrText()).not.toMatch(/signing secret/);
    const hooks = await webhooksInSandbox();
    expect(hooks).toHaveLength(1);
    expect(hooks[0]).toMatchObject({
      url: publicUrl,
      events: ['meetingScheduled', 'meetingCancelled'],
    });

    // The first line says where it listens, once the webhook is registered: a script waits for it.
    expect(JSON.parse(l.io.stdoutText().split('\n')[0]!)).toEqual({
      listening: `http://127.0.0.1:${port}/`,
    });
    await book();
    await until(() => l.io.stdoutText().split('\n').length > 2, 'the delivery');
    const rec = JSON.parse(l.io.stdoutText().split('\n')[1]!) as Record<string, unknown>;
    expect(rec).toMatchObject({
      event: 'meetingScheduled',
      signature: 'valid',
      duplicate: false,
      path: '/hook',
    });

    l.ac.abort('SIGINT');
    // Ctrl-C is its normal end: exit 0 once the webhook is deleted (130 before).
    expect(await l.done).toBe(0);
    expect(l.io.stderrText()).toMatch(
      new RegExp(`stopped listening .* after 1 delivery; deleted webhook ${hooks[0]!.uuid}\\n$`),
    );
    expect(await webhooksInSandbox()).toEqual([]);
  });

  it('uses the given secret, and deletes the webhook on SIGTERM too', async () => {
    const { l } = await startOnSomePort(
      (port) => ['--port', String(port), '--register', `http://127.0.0.1:${port}/`],
      { ...sb.env, SCHED_WEBHOOK_SECRET: 'given-secret-123' },
    );
    expect(l.io.stderrText()).toMatch(/from SCHED_WEBHOOK_SECRET/);
    expect(await webhooksInSandbox()).toHaveLength(1);
    await book();
    await until(() => /signature valid/.test(l.io.stdoutText()), 'a valid delivery');
    l.ac.abort('SIGTERM');
    expect(await l.done).toBe(0); // 143 before
    expect(await webhooksInSandbox()).toEqual([]);
  });

  it('with --forward-to, shows the generated secret once, on stdout (never stderr), so the app behind can verify', async () => {
    const app = await startReceiver({ path: '/app' });
    try {
      const { l } = await startOnSomePort(
        (port) => [
          '--port',
          String(port),
          '--register',
          `http://127.0.0.1:${port}/`,
          '--forward-to',
          app.url,
        ],
        { ...sb.env },
      );
      const secret = /^signing secret: (\S+)\n/.exec(l.io.stdoutText())?.[1];
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // A CI log keeps stderr: the secret is not there, only where it went.
      expect(l.io.stderrText()).not.toContain(secret);
      expect(l.io.stderrText()).toContain(
        'the generated signing secret is on stdout (shown once; give --secret to choose it)',
      );
      await book();
      const got = (await app.waitFor(1))[0]!;
      const expected = createHmac('sha256', secret!).update(got.body).digest('base64');
      expect(got.headers['webhook-signature']).toBe(expected);
      l.ac.abort('SIGINT');
      expect(await l.done).toBe(0); // 130 before
      expect(await webhooksInSandbox()).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('notes a webhook an earlier run left at the URL; one deleted meanwhile is "already gone"', async () => {
    const own = await startTestSandbox();
    try {
      const { l, port } = await onSomePort(async (p) => {
        // Left behind by an earlier run, at the URL this one registers.
        const left = await own.api('/webhooks', {
          method: 'POST',
          body: JSON.stringify({ url: `http://127.0.0.1:${p}/`, events: ['meetingScheduled'] }),
        });
        const leftUuid = ((await left.json()) as { uuid: string }).uuid;
        const started = start(['--port', String(p), '--register', `http://127.0.0.1:${p}/`], {
          ...own.env,
        });
        await until(
          () => /\bready;/.test(started.io.stderrText()) || started.exited() !== undefined,
          'the listener',
          started.io.stderrText,
        );
        if (started.exited() !== undefined && /already in use/.test(started.io.stderrText())) {
          await own.api(`/webhooks/${leftUuid}`, { method: 'DELETE' });
          return PORT_IN_USE;
        }
        return { l: started, port: p };
      });
      expect(l.io.stderrText()).toMatch(
        new RegExp(
          `note: webhook [0-9a-f-]{36} already points at http://127\\.0\\.0\\.1:${port}/; its deliveries will arrive too`,
        ),
      );
      const uuid = /registered webhook ([0-9a-f-]{36})/.exec(l.io.stderrText())![1]!;
      // Someone deletes the registered webhook while the listener runs.
      expect((await own.api(`/webhooks/${uuid}`, { method: 'DELETE' })).status).toBe(204);
      l.ac.abort('SIGINT');
      expect(await l.done).toBe(0);
      expect(l.io.stderrText()).toContain(`webhook ${uuid} was already gone`);
    } finally {
      await own.close();
    }
  });

  it('exits 1 naming the webhook left behind when its deletion fails on stop', async () => {
    const own = await startTestSandbox();
    let closed = false;
    try {
      const { l } = await startOnSomePort(
        (port) => ['--port', String(port), '--register', `http://127.0.0.1:${port}/`],
        { ...own.env },
      );
      const uuid = /registered webhook ([0-9a-f-]{36})/.exec(l.io.stderrText())?.[1];
      expect(uuid).toBeDefined();
      // The service goes away before the listener stops: the DELETE cannot be made.
      await own.close();
      closed = true;
      l.ac.abort('SIGINT');
      expect(await l.done).toBe(1);
      expect(l.io.stderrText()).toMatch(
        new RegExp(`error: the webhook ${uuid} for http://127\\.0\\.0\\.1:\\d+/ was left behind`),
      );
      expect(l.io.stderrText()).toContain(`hint: remove it with \`sched webhooks rm ${uuid}\``);
    } finally {
      if (!closed) await own.close();
    }
  });

  it('refuses what `webhooks add --url` refuses: exit 2, no port opened, nothing registered', async () => {
    const long = `http://127.0.0.1:9/${'a'.repeat(2100)}`;
    for (const url of ['http://user:pw-9e1d@127.0.0.1:9/hook', 'http://127.0.0.1:9/a b', long]) {
      const added = await runSched(['webhooks', 'add', '--url', url, '--no-secret'], {
        env: { ...sb.env },
      });
      expect(added.code, url).toBe(2);
      sb.requests.length = 0;
      const l = start(['--port', '0', '--register', url], { ...sb.env });
      expect(await l.done, url).toBe(2);
      expect(l.io.stderrText()).toMatch(/^error: --register must /m);
      expect(l.io.stderrText()).not.toMatch(/listening|pw-9e1d/);
      // Nothing reached the service: no POST, no webhook.
      expect(sb.requests.filter((r) => r.method === 'POST')).toEqual([]);
      expect(await webhooksInSandbox()).toEqual([]);
    }
  });

  it('exits with the API error and leaves nothing behind when registration fails', async () => {
    const { l, port } = await startOnSomePort(
      (port) => ['--port', String(port), '--register', `http://127.0.0.1:${port}/`],
      { ...sb.env, SCHED_API_KEY: 'wrong-key' },
    );
    expect(await l.done).toBe(4);
    expect(l.io.stderrText()).not.toMatch(/registered webhook [0-9a-f]/);
    expect(l.io.stderrText()).toMatch(/the API rejected the key/);
    expect(await webhooksInSandbox()).toEqual([]);
    // The port was released.
    const srv = createServer();
    await new Promise<void>((res, rej) => {
      srv.once('error', rej);
      srv.listen(port, '127.0.0.1', res);
    });
    srv.close();
  });
});
