// One wording for "could not listen", whichever local server it is: `sched sandbox` and
// `sched webhooks listen` both answer through listenFailure (src/http/listen.ts).
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Failure, UsageError } from '../../src/errors.js';
import { listenFailure } from '../../src/http/listen.js';
import { runSched } from '../helpers/run.js';
import { useConfigDir } from '../helpers/config-dir.js';

const config = useConfigDir('sched-listen-failure-');
const CALLERS = [
  ['sched sandbox', ['sandbox', '--api-key', 'k']],
  ['sched webhooks listen', ['webhooks', 'listen', '--secret', 's']],
] as const;

describe.each(CALLERS)('%s', (_name, argv) => {
  const run = (extra: string[]) =>
    runSched([...argv, ...extra], { env: { SCHED_CONFIG_DIR: config.path } });

  it('a port in use: exit 1, which port, and how to pick another', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const r = await run(['--port', String(port)]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `error: port ${port} on 127.0.0.1 is already in use\n` +
          'hint: choose another with --port <n>, or --port 0 for any free port\n',
      );
    } finally {
      blocker.close();
    }
  });

  it.each([
    ['an address this machine does not have', '192.0.2.1'],
    ['a host name that does not resolve', '999.1.1.1'],
  ])('%s: exit 2 naming the host', async (_what, host) => {
    const r = await run(['--port', '0', '--host', host]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: cannot listen on host "${host}": not an address of this machine\n`,
    );
  });
});

describe('listenFailure', () => {
  const err = (code: string, message = `listen ${code}`) =>
    Object.assign(new Error(message), { code, syscall: 'listen' });

  it.each([
    ['EAI_AGAIN', UsageError, 'cannot listen on host "h": not an address of this machine'],
    ['EACCES', Failure, 'not allowed to listen on port 80'],
    ['EMFILE', Failure, 'cannot listen on h:80: listen EMFILE'],
  ] as const)('%s', (code, type, message) => {
    const e = listenFailure(err(code), 'h', 80);
    expect(e).toBeInstanceOf(type);
    expect(e.message).toBe(message);
  });
});
