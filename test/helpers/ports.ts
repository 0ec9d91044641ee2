// Ports for tests, without probing: a probed port (listen(0), read the port, close, hand it
// on) can be taken by anyone in between. Servers listen on port 0 and report their port;
// where a command must be told a port in advance, try random ports and retry on "in use".
import { connect } from 'node:net';

/**
 * A loopback port nothing listens on, so connecting is refused: port 1 is privileged and
 * outside the OS's ephemeral range, so no test server (all on port 0) can ever be given it.
 */
export const REFUSED_PORT = 1;

let checked: Promise<void> | undefined;

/** REFUSED_PORT, after making sure once that connecting to it is refused on this machine. */
export async function refusedPort(): Promise<number> {
  checked ??= new Promise<void>((resolve, reject) => {
    const s = connect(REFUSED_PORT, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      reject(new Error(`something listens on 127.0.0.1:${REFUSED_PORT}; the tests need it closed`));
    });
    s.once('error', (e: NodeJS.ErrnoException) =>
      e.code === 'ECONNREFUSED' ? resolve() : reject(e),
    );
  });
  await checked;
  return REFUSED_PORT;
}

/** A random port below the OS's ephemeral range (which port-0 servers draw from). */
export function randomPort(): number {
  return 20_000 + Math.floor(Math.random() * 12_000);
}

export const PORT_IN_USE = Symbol('port in use');

/**
 * Runs `attempt` on random ports until it does not report PORT_IN_USE (a command told
 * `--port` in advance that found it taken), at most `tries` times.
 */
export async function onSomePort<T>(
  attempt: (port: number) => Promise<T | typeof PORT_IN_USE>,
  tries = 10,
): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const r = await attempt(randomPort());
    if (r !== PORT_IN_USE) return r;
  }
  throw new Error(`${tries} random ports in a row were in use`);
}
