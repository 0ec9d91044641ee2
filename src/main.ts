// The entry point: runs the CLI on the real process, turns signals into an aborted context,
// and is the only place that exits the process.
import { runCli } from './cli.js';
import { createProcessIO } from './io.js';

const controller = new AbortController();
let signals = 0;
const onSignal = (name: 'SIGINT' | 'SIGTERM') => {
  signals += 1;
  // First signal: let the command stop cleanly and report what it did. Second: leave now.
  if (signals > 1) process.exit(name === 'SIGINT' ? 130 : 143);
  controller.abort(name);
};
process.on('SIGINT', () => onSignal('SIGINT'));
process.on('SIGTERM', () => onSignal('SIGTERM'));

const code = await runCli(process.argv.slice(2), {
  io: (o) => createProcessIO(o),
  env: process.env,
  signal: controller.signal,
});
// Let stdout drain before leaving (a pipe may still hold data).
process.exitCode = code;
if (process.stdout.writableLength > 0) {
  process.stdout.once('drain', () => process.exit(code));
} else {
  process.exit(code);
}
