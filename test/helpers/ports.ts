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

/** Whether connecting to 127.0.0.1:port is refused (nothing listens there now). */
function isRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', () => resolve(true));
  });
}

/** The fixed ports the docs' examples show for the servers they start (listeners, an app). */
export const EXAMPLE_PORTS = [4020, 4021, 3000] as const;

/**
 * Shell code from the docs with each readable port of EXAMPLE_PORTS replaced by a random one
 * that nothing listens on now, so an example never sends to a server the test did not start.
 * The caller retries with new ports when a server it starts finds its port taken meanwhile
 * (`exampleRetry`).
 */
export async function withFreeExamplePorts(code: string): Promise<string> {
  const chosen = new Map<number, number>();
  for (const fixed of EXAMPLE_PORTS) {
    let port = randomPort();
    while ([...chosen.values()].includes(port) || !(await isRefused(port))) port = randomPort();
    chosen.set(fixed, port);
  }
  // A port after a host (`127.0.0.1:4020`, `localhost:3000`), `--port 4020`, or `.listen(3000`.
  const re = /(?<=(?:127\.0\.0\.1:|localhost:|--port |\.listen\())(4020|4021|3000)\b/g;
  return code.replace(re, (m) => String(chosen.get(Number(m))));
}

/** Whether a run failed because a server it started found its port taken: try other ports. */
export function portWasTaken(stderr: string): boolean {
  return /already in use|EADDRINUSE/.test(stderr);
}
