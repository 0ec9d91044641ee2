// Why a local server (`sched sandbox`, `sched webhooks listen`) could not start listening,
// worded once for both, with what to do about it.
import { Failure, UsageError } from '../errors.js';
import { quote } from '../text/quote.js';

/** The error to show for `e`, thrown by listen() (or its host lookup) on host:port. */
export function listenFailure(e: NodeJS.ErrnoException, host: string, port: number): Error {
  if (e.code === 'EADDRINUSE') {
    return new Failure(`port ${port} on ${host} is already in use`, {
      hint: 'choose another with --port <n>, or --port 0 for any free port',
    });
  }
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') {
    return new UsageError(`cannot listen on host ${quote(host)}: not an address of this machine`);
  }
  if (e.code === 'EACCES') {
    return new Failure(`not allowed to listen on port ${port}`, {
      hint: 'ports below 1024 need privileges; use e.g. --port 4020',
    });
  }
  return new Failure(`cannot listen on ${host}:${port}: ${e.message}`);
}
