// `sched sandbox`: runs the local emulator of the service until Ctrl-C or SIGTERM. stdout gets
// only what a script needs (the addresses and key; with --json one JSON line first); the request
// and delivery log goes to stderr.
import type { Context } from '../../context.js';
import type { IO } from '../../io.js';
import type { SandboxServeOptions } from './inputs.js';
import { Failure, UsageError, whenAborted } from '../../errors.js';
import { listenFailure } from '../../http/listen.js';
import type { Sandbox, SandboxLogEvent } from '../../sandbox/library.js';
import type { FaultsSpec } from '../../sandbox/faults.js';
import { readUserFile } from '../../user-file.js';
import { jsonErrorPlace } from '../../text/json-error.js';
import { quote, quoteUrl, shellCommand } from '../../text/quote.js';
import { sandboxExposure } from './exposure.js';
import { printsData, renderJsonLine, renderLines, renderText } from '../../output/render.js';

function clock(): string {
  return new Date().toTimeString().slice(0, 8);
}

function checkPublicUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new UsageError(`--public-url ${quoteUrl(raw)} is not an absolute URL`, {
      hint: 'use e.g. --public-url https://my-tunnel.example.com',
    });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new UsageError(`--public-url ${quoteUrl(raw)} is not http(s)`);
  }
  return raw.replace(/\/+$/, '');
}

/** The sandbox's log on stderr: requests (unless --quiet), each delivery attempt, warnings. */
export function sandboxLog(io: IO, quiet: boolean): (e: SandboxLogEvent) => void {
  const dim = (s: string) => io.colorErr.dim(s);
  return (e) => {
    if (e.type === 'request') {
      if (!quiet) io.err(dim(`${clock()} ${e.method} ${e.path} ${e.status} ${e.ms}ms`));
    } else if (e.type === 'delivery') {
      const what = `${clock()} delivery ${e.event} -> ${e.url} attempt ${e.attempt}:`;
      const answer = e.status !== undefined ? `HTTP ${e.status}` : `no answer (${e.error})`;
      const result = e.fault === undefined ? answer : `${answer} [${e.fault}]`;
      if (e.outcome === 'delivered') io.err(`${what} ${io.colorErr.green(result)}`);
      else {
        const next = e.outcome === 'retrying' ? ', will retry' : ', giving up';
        io.err(`${what} ${io.colorErr.yellow(result + next)}`);
      }
    } else if (e.type === 'fault') {
      io.err(io.colorErr.yellow(`${clock()} ${e.method} ${e.path}: ${e.fault}`));
    } else {
      io.err(`${io.colorErr.red('warning:')} ${e.message}`);
    }
  };
}

/** The largest faults file read (a list of faults is a few hundred bytes). */
const MAX_FAULTS_FILE = 1024 * 1024;

/** Reads and checks --faults: one clear line naming the file (and the field) when wrong. */
async function readFaultsFile(file: string, signal: AbortSignal): Promise<FaultsSpec> {
  const r = await readUserFile(file, { what: '--faults', max: MAX_FAULTS_FILE, signal });
  if ('tooLarge' in r) throw new UsageError(`--faults ${quote(file)} is larger than 1 MiB`);
  const text = r.bytes.toString('utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new UsageError(`--faults ${quote(file)} is not valid JSON${jsonErrorPlace(text)}`);
  }
  const { parseFaults, FaultSpecError } = await import('../../sandbox/faults.js');
  try {
    parseFaults(data);
  } catch (e) {
    if (e instanceof FaultSpecError) {
      throw new UsageError(`--faults ${quote(file)}: ${e.message}`, {
        hint: 'e.g. {"api":[{"route":"GET /users/me/meeting-types","times":2,"type":"status","status":429,"retryAfter":1}]}; see docs/sandbox.md',
      });
    }
    throw e;
  }
  return data as FaultsSpec;
}

export async function run(ctx: Context, flags: SandboxServeOptions): Promise<void> {
  const { io } = ctx;
  const quiet = ctx.globals.quiet;
  if (flags.apiKey !== undefined && flags.apiKey.trim() === '') {
    throw new UsageError('--api-key must not be empty');
  }
  const publicUrl = flags.publicUrl === undefined ? undefined : checkPublicUrl(flags.publicUrl);
  // Before listening: a non-loopback host with the public default key is refused.
  const exposure = sandboxExposure({
    host: flags.host,
    apiKey: flags.apiKey,
    insecureDefaultKey: flags.insecureDefaultKey === true,
  });

  const faults =
    flags.faults === undefined ? undefined : await readFaultsFile(flags.faults, ctx.signal);
  const dim = (s: string) => io.colorErr.dim(s);
  const log = sandboxLog(io, quiet);

  // The same entry as `import { startSandbox } from 'sched/sandbox'`.
  const { startSandbox, StateFileError } = await import('../../sandbox/library.js');
  let sb: Sandbox;
  try {
    sb = await startSandbox({
      host: flags.host,
      port: flags.port,
      apiKey: flags.apiKey,
      state: flags.state,
      serviceName: flags.serviceName,
      publicUrl,
      seedTypes: flags.types,
      seed: flags.seed,
      faults,
      log,
    });
  } catch (e) {
    if (e instanceof StateFileError) {
      throw new UsageError(e.message, {
        hint: e.hint ?? 'move the file away or choose another --state file',
      });
    }
    throw listenFailure(e as NodeJS.ErrnoException, flags.host, flags.port);
  }
  // Whatever ends the command (a signal, an error while printing), the server is closed.
  ctx.defer(() => sb.close());
  for (const line of exposure) io.err(io.colorErr.yellow(line));

  const info = { baseUrl: sb.baseUrl, publicUrl: sb.publicUrl, apiKey: sb.apiKey };
  if (printsData(ctx.globals)) {
    await renderJsonLine(io, info);
  } else if (quiet) {
    await renderLines(io, [sb.baseUrl]);
  } else {
    await renderText(
      io,
      `Base URL:   ${sb.baseUrl}
Public URL: ${sb.publicUrl}
Console:    ${sb.consoleUrl}
API key:    ${sb.apiKey}
`,
    );
  }
  if (sb.loaded) {
    io.err(
      `Loaded ${flags.state}: ${sb.loaded.webhooks} webhooks, ${sb.loaded.links} links, ` +
        `${sb.loaded.meetings} meetings.`,
    );
    if (flags.types !== undefined) {
      io.err('note: --types is ignored because the state file already has meeting types');
    }
  }
  if (!quiet) {
    io.err(
      dim(
        `Try: ${shellCommand`SCHED_BASE_URL=${sb.baseUrl} SCHED_API_KEY=${sb.apiKey} sched types list`}`,
      ),
    );
    io.err(dim('Press Ctrl-C to stop.'));
  }

  await whenAborted(ctx.signal);

  // A signal is how a server is meant to end: close cleanly and exit 0.
  try {
    await sb.close();
  } catch (e) {
    throw new Failure(`could not save the state: ${(e as Error).message}`);
  }
  io.err(flags.state ? `Sandbox stopped; state saved to ${flags.state}.` : 'Sandbox stopped.');
}
