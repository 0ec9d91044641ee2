// Runs the CLI on the real process, turns signals into an aborted context, and is the only
// place that exits the process. Its entries: src/main.ts (the npm package's bundle) and
// src/binary.ts (the standalone executable). Imports nothing at the top (see src/main.ts).

export async function main(): Promise<void> {
  const { runCli, invokedName, loadProcessIO } = await import('./cli.js');
  const makeIO = await loadProcessIO();

  const controller = new AbortController();
  let signals = 0;
  let echo: { name: string; until: number } | undefined;
  const onSignal = (name: 'SIGINT' | 'SIGTERM') => {
    // Once conf is loaded, its atomic writer (atomically -> when-exit) also listens for signals
    // and re-sends the one it saw to this process. That echo is not a second Ctrl-C: ignore it
    // once, or every command that read the config would die mid-cleanup on the first Ctrl-C.
    if (echo && echo.name === name && Date.now() < echo.until) {
      echo = undefined;
      return;
    }
    signals += 1;
    // First signal: let the command stop cleanly and report what it did. Second: leave now.
    if (signals > 1) process.exit(name === 'SIGINT' ? 130 : 143);
    if (process.listenerCount(name) > 1) echo = { name, until: Date.now() + 1000 };
    controller.abort(name);
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));

  const code = await runCli(process.argv.slice(2), {
    io: makeIO,
    env: process.env,
    signal: controller.signal,
    name: invokedName(process.argv[1]),
    exits: true,
  });
  // Let stdout drain before leaving (a pipe may still hold data).
  process.exitCode = code;
  if (process.stdout.writableLength > 0) {
    process.stdout.once('drain', () => process.exit(code));
  } else {
    process.exit(code);
  }
}
