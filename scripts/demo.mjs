#!/usr/bin/env node
// `npm run demo`: a guided tour of `sched` against an embedded sandbox, run with the built
// binary (bin/sched.js) as child processes, so every step shows a real command line and its
// real output. Nothing outside a temporary directory is touched (SCHED_CONFIG_DIR points
// there), and every process it starts is stopped on success, on failure and on Ctrl-C.
//
// The tour: meeting types → single-use links → a local listener subscribed as a webhook →
// book the link (meetingScheduled, signature checked by the listener, by `sched sig verify`
// and by openssl) → reschedule → cancel → the used link refused → webhooks ls, auth status →
// clean up.
//
// Plain Node ESM on purpose: it runs right after `npm install`, with no compile step.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/sched.js', import.meta.url));
const SLUG = 'intro-call';
/** A readable, fixed secret: the demo shows it so the openssl step can be copied. */
const SECRET = 'demo-secret-4f1c8a2e';
/** Longest wait for anything (a command, a delivery); the whole tour takes a few seconds. */
const WAIT_MS = 15_000;
/** The whole tour gives up after this, whatever hangs. */
const DEADLINE_MS = 90_000;

// ── output ──────────────────────────────────────────────────────────────────────────────

const env0 = process.env;
const useColor =
  env0.NO_COLOR === undefined &&
  ((env0.FORCE_COLOR !== undefined && env0.FORCE_COLOR !== '0') || Boolean(process.stdout.isTTY));
const sgr = (open, close) => (s) => (useColor ? `\x1b[${open}m${s}\x1b[${close}m` : s);
const bold = sgr(1, 22);
const dim = sgr(2, 22);
const cyan = sgr(36, 39);
const green = sgr(32, 39);
const red = sgr(31, 39);
const yellow = sgr(33, 39);

const out = (s = '') => process.stdout.write(s + '\n');
// eslint-disable-next-line no-control-regex
const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');

let stepNo = 0;
function heading(title, explain) {
  stepNo += 1;
  out();
  out(bold(cyan(`━━ ${stepNo}. ${title}`)));
  if (explain) out(dim(explain));
}

/** Quotes an argument the way a POSIX shell would need it. */
function shq(a) {
  return /^[A-Za-z0-9_\-.,:/=@%+]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

function showCommand(argv, suffix = '') {
  out(`${bold('$')} ${bold(argv.map(shq).join(' '))}${suffix}`);
}

// ── processes ───────────────────────────────────────────────────────────────────────────

/** Every child still running; stopped on any exit. */
const live = new Set();
const stop = new AbortController();

class DemoError extends Error {}
class Interrupted extends Error {
  constructor(signal) {
    super(signal);
    this.signal = signal;
  }
}

function track(child) {
  live.add(child);
  child.once('exit', () => live.delete(child));
  child.once('error', () => live.delete(child));
  return child;
}

function checkStopped() {
  if (stop.signal.aborted) throw stop.signal.reason;
}

/** Resolves when `pred()` holds; re-checked on every `poke()`, bounded by WAIT_MS and Ctrl-C. */
const pokes = new Set();
function poke() {
  for (const p of [...pokes]) p();
}
function waitFor(pred, what) {
  return new Promise((resolve, reject) => {
    const done = (fn, v) => {
      pokes.delete(check);
      clearTimeout(timer);
      stop.signal.removeEventListener('abort', onAbort);
      fn(v);
    };
    const check = () => {
      let v;
      try {
        v = pred();
      } catch (e) {
        return done(reject, e);
      }
      if (v) done(resolve, v);
    };
    const onAbort = () => done(reject, stop.signal.reason);
    const timer = setTimeout(
      () => done(reject, new DemoError(`${what} did not happen within ${WAIT_MS / 1000} s`)),
      WAIT_MS,
    );
    pokes.add(check);
    stop.signal.addEventListener('abort', onAbort, { once: true });
    if (stop.signal.aborted) onAbort();
    else check();
  });
}

let childEnv = {};
let workDir = '';

/**
 * Runs `sched <argv>` to completion. Shown output goes straight to the terminal (so tables are
 * tables there); `capture` also returns stdout (printed afterwards). Throws unless the exit
 * code is `expect` (a number, or 'nonzero').
 */
async function sched(argv, { expect = 0, capture = false, show = true } = {}) {
  checkStopped();
  if (show) showCommand(['sched', ...argv]);
  const child = track(
    spawn(process.execPath, [BIN, ...argv], {
      cwd: workDir,
      env: childEnv,
      stdio: ['ignore', capture ? 'pipe' : 'inherit', capture ? 'pipe' : 'inherit'],
    }),
  );
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c) => (stdout += c));
  child.stderr?.on('data', (c) => (stderr += c));
  const code = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new DemoError(`\`sched ${argv.join(' ')}\` did not finish within ${WAIT_MS / 1000} s`),
      );
    }, WAIT_MS);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new DemoError(`could not start \`sched ${argv.join(' ')}\`: ${e.message}`));
    });
    child.once('close', (c, sig) => {
      clearTimeout(timer);
      resolve(c ?? (sig ? 128 : 1));
    });
  });
  checkStopped();
  if (capture && show) {
    process.stdout.write(stdout);
    process.stderr.write(stderr);
  }
  const ok = expect === 'nonzero' ? code !== 0 : code === expect;
  if (!ok) {
    if (capture && !show) process.stderr.write(stderr);
    throw new DemoError(
      `\`sched ${argv.map(shq).join(' ')}\` exited ${code}, expected ${expect === 'nonzero' ? 'a failure' : expect}`,
    );
  }
  return { code, stdout, stderr };
}

/**
 * A long-running `sched` (the sandbox, the listener): its output is collected line by line so
 * the tour can wait for a line and show it at the right moment.
 */
function background(label, argv, extraEnv = {}) {
  const child = track(
    spawn(process.execPath, [BIN, ...argv], {
      cwd: workDir,
      env: { ...childEnv, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const bg = { label, child, lines: [], shown: 0, exited: null, argv };
  const collect = (stream, name) => {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      partial += chunk;
      const parts = partial.split('\n');
      partial = parts.pop() ?? '';
      for (const text of parts) bg.lines.push({ stream: name, text });
      poke();
    });
  };
  collect(child.stdout, 'out');
  collect(child.stderr, 'err');
  child.once('error', (e) => {
    bg.exited = { code: null, error: e };
    poke();
  });
  // 'close', not 'exit': by then every line it wrote has been read.
  child.once('close', (code, signal) => {
    bg.exited = { code, signal };
    poke();
  });
  return bg;
}

/**
 * `sched mcp` as an AI assistant starts it: the handshake and `tools/list` on its stdin, stdin
 * closed; returns the tools it answered with.
 */
async function mcpTools() {
  checkStopped();
  const frames = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'sched-demo', version: '1' },
      },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ];
  const child = track(
    spawn(process.execPath, [BIN, 'mcp'], { cwd: workDir, env: childEnv, stdio: 'pipe' }),
  );
  let stdout = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', () => {});
  child.stdin.end(frames.map((f) => JSON.stringify(f)).join('\n') + '\n');
  const code = await new Promise((resolve) => child.once('close', (c) => resolve(c)));
  const answer = stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .find((m) => m.id === 2);
  if (code !== 0 || !answer?.result) {
    throw new DemoError(`\`sched mcp\` exited ${code} without listing its tools`);
  }
  return answer.result.tools;
}

function notExited(bg) {
  if (bg.exited) {
    const why = bg.exited.error
      ? bg.exited.error.message
      : `exited ${bg.exited.code ?? bg.exited.signal}`;
    const tail = bg.lines
      .slice(-5)
      .map((l) => `  ${stripAnsi(l.text)}`)
      .join('\n');
    throw new DemoError(`the ${bg.label} stopped unexpectedly (${why})${tail ? `:\n${tail}` : ''}`);
  }
}

/** Waits for a line of `bg` matching `re` (ANSI stripped); returns its match. */
async function waitLine(bg, re, what, from = 0) {
  return waitFor(() => {
    for (let i = from; i < bg.lines.length; i++) {
      const m = re.exec(stripAnsi(bg.lines[i].text));
      if (m) return m;
    }
    notExited(bg);
    return null;
  }, what);
}

/** Prints the lines of `bg` not shown yet, prefixed with its label. */
function showNew(bg) {
  for (; bg.shown < bg.lines.length; bg.shown++) {
    const l = bg.lines[bg.shown];
    out(`  ${dim(`${bg.label} │`)} ${l.text}`);
  }
}

/** Stops a child with `signal`, then SIGKILL if it lingers; resolves when it is gone. */
function stopChild(child, signal = 'SIGTERM', graceMs = 3000) {
  if (child.exitCode !== null || child.signalCode !== null || !live.has(child)) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

// Last resort: whatever ends this process, no child outlives it.
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
]) {
  process.on(signal, () => {
    if (stop.signal.aborted) process.exit(code); // a second Ctrl-C: leave now
    stop.abort(new Interrupted(signal));
  });
}

// ── the "app" behind the listener ───────────────────────────────────────────────────────

/**
 * Stands for the integrator's own endpoint: `webhooks listen --forward-to` re-sends each
 * delivery here byte for byte, and this keeps the raw body and headers so the tour can verify
 * the exact bytes that arrived.
 */
async function startApp() {
  const received = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
      poke();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/app`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// ── the tour ────────────────────────────────────────────────────────────────────────────

const hasOpenssl = (() => {
  const sh = spawnSync('sh', ['-c', 'command -v openssl && command -v base64'], {
    stdio: 'ignore',
  });
  return !sh.error && sh.status === 0;
})();

async function tour(state) {
  const t0 = Date.now();
  out(bold('sched demo') + dim(' — a tour of the CLI against a local sandbox of the service API'));
  out(dim(`Each step shows the command it runs (sched = node ${BIN}) and its real output.`));
  out(dim(`Working in ${workDir}; your own sched configuration is never read or changed.`));

  // ── sandbox
  heading(
    'Start the sandbox',
    'An emulator of the whole service API on a free local port, with seeded meeting types.\n' +
      'It also plays the service’s part: booking links and sending signed webhook deliveries.',
  );
  showCommand(['sched', 'sandbox', '--port', '0', '--json'], ' &');
  const sandbox = background('sandbox', ['sandbox', '--port', '0', '--json']);
  state.sandbox = sandbox;
  const first = await waitFor(() => {
    const l = sandbox.lines.find((x) => x.stream === 'out');
    if (l) return l.text;
    notExited(sandbox);
    return null;
  }, 'the sandbox’s first line');
  let info;
  try {
    info = JSON.parse(first);
  } catch {
    throw new DemoError(`the sandbox’s first line is not JSON: ${first}`);
  }
  if (typeof info.baseUrl !== 'string' || typeof info.apiKey !== 'string') {
    throw new DemoError(`the sandbox’s first line lacks baseUrl/apiKey: ${first}`);
  }
  out(first);
  sandbox.shown = sandbox.lines.length; // its request log stays in the background
  state.sandboxUrl = info.baseUrl;
  childEnv.SCHED_BASE_URL = info.baseUrl;
  childEnv.SCHED_API_KEY = info.apiKey;
  out(dim('Every command below runs with:'));
  out(`  export SCHED_BASE_URL=${shq(info.baseUrl)} SCHED_API_KEY=${shq(info.apiKey)}`);

  // ── meeting types
  heading(
    'List meeting types',
    'The meeting types of the account (one page; --all reads every page).',
  );
  await sched(['types', 'list']);

  // ── links
  heading(
    'Mint single-use links',
    `A link for the meeting type with slug "${SLUG}" (a UUID works too); it can be booked once.`,
  );
  const link = (await sched(['link', 'create', SLUG], { capture: true })).stdout.trim();
  if (!/^https?:\/\/\S+\/s\/\S+$/.test(link))
    throw new DemoError(`unexpected link output: ${link}`);
  out(dim('Several at once, as JSON for scripts:'));
  await sched(['link', 'create', SLUG, '--count', '3', '--json']);

  // ── listener
  heading(
    'Start a local webhook listener',
    'It receives deliveries, checks each signature with the secret, and (--forward-to) passes\n' +
      'the raw body and headers on to your app — here a tiny receiver inside this demo.',
  );
  const app = await startApp();
  state.app = app;
  const listenArgv = [
    'webhooks',
    'listen',
    '--port',
    '0',
    '--secret',
    SECRET,
    '--forward-to',
    app.url,
  ];
  showCommand(['sched', ...listenArgv], ' &');
  // Colour survives the pipe only when this demo itself is in colour.
  const listener = background('listener', listenArgv, useColor ? { FORCE_COLOR: '1' } : {});
  state.listener = listener;
  const m = await waitLine(listener, /listening on (http:\/\/\S+?)\/? /, 'the listener’s start');
  await waitLine(listener, /ready/, 'the listener to be ready');
  showNew(listener);
  const hookUrl = `${m[1].replace(/\/$/, '')}/hooks`;

  heading('Subscribe it', 'A webhook for all three events, signed with the same secret.');
  await sched(['webhooks', 'add', '--url', hookUrl, '--secret', SECRET]);
  state.hookUrl = hookUrl;

  /**
   * After an action that delivers `event`: the listener's verdict line, its forward line, and
   * what the app received, saved to `<event>.json` for the verification steps.
   */
  async function showDelivery(event, appBefore, lineBefore) {
    await waitLine(
      listener,
      new RegExp(`\\b${event}\\b.*signature \\w+`),
      `the ${event} delivery`,
      lineBefore,
    );
    await waitLine(
      listener,
      /forwarded to|forward to .* failed/,
      `the forward of ${event}`,
      lineBefore,
    );
    const d = await waitFor(() => app.received[appBefore], `the forwarded ${event} delivery`);
    out(dim('The listener printed:'));
    showNew(listener);
    const line = listener.lines
      .slice(lineBefore)
      .map((l) => stripAnsi(l.text))
      .find((t) => t.includes(event));
    if (!/signature valid/.test(line ?? '')) {
      throw new DemoError(`the listener did not find the ${event} signature valid: ${line}`);
    }
    const file = `${event}.json`;
    writeFileSync(join(workDir, file), d.body);
    let payload;
    try {
      payload = JSON.parse(d.body.toString('utf8'));
    } catch {
      throw new DemoError(`the ${event} delivery is not JSON`);
    }
    const sig = d.headers['webhook-signature'];
    if (typeof sig !== 'string')
      throw new DemoError(`the ${event} delivery has no webhook-signature header`);
    const excerpt = d.body.toString('utf8');
    out(dim(`Your app received (saved as ${file}):`));
    out(`  ${d.method} ${d.url}`);
    for (const h of ['content-type', 'user-agent', 'webhook-signature']) {
      out(`  ${h}: ${d.headers[h] ?? dim('(absent)')}`);
    }
    out(
      `  ${excerpt.length > 110 ? excerpt.slice(0, 110) + '…' : excerpt}  ${dim(`(${d.body.length} bytes)`)}`,
    );
    return { file, sig, payload };
  }

  async function verify(d, { openssl }) {
    await sched([
      'sig',
      'verify',
      '--signature',
      d.sig,
      '--secret',
      SECRET,
      '--payload-file',
      d.file,
    ]);
    if (!openssl) return;
    if (!hasOpenssl) {
      out(dim('(openssl or base64 not found: skipping the openssl check)'));
      return;
    }
    const cmd = `openssl dgst -sha256 -hmac ${shq(SECRET)} -binary < ${shq(d.file)} | base64`;
    out(`${bold('$')} ${bold(cmd)}`);
    const r = spawnSync('sh', ['-c', cmd], { cwd: workDir, encoding: 'utf8', timeout: WAIT_MS });
    checkStopped();
    process.stdout.write(r.stdout ?? '');
    process.stderr.write(r.stderr ?? '');
    if (r.status !== 0) throw new DemoError(`openssl exited ${r.status ?? r.signal}`);
    if (r.stdout.trim() !== d.sig) {
      throw new DemoError(`openssl computed ${r.stdout.trim()}, the header says ${d.sig}`);
    }
    out(green('✓ the same value as the webhook-signature header'));
  }

  async function action(argv, event) {
    const appBefore = app.received.length;
    const lineBefore = listener.lines.length;
    await sched(argv);
    return showDelivery(event, appBefore, lineBefore);
  }

  // ── book
  heading(
    'Book the link',
    'What an invitee does on the booking page: the sandbox creates the meeting, spends the link\n' +
      'and delivers meetingScheduled to every subscribed webhook.',
  );
  const booked = await action(['sandbox', 'book', link], 'meetingScheduled');
  const meeting = booked.payload?.data?.uuid;
  if (typeof meeting !== 'string')
    throw new DemoError('the meetingScheduled delivery has no data.uuid');

  heading(
    'Verify the signature yourself',
    'webhook-signature is base64(HMAC-SHA256(secret, exact body bytes)); check the saved body.',
  );
  await verify(booked, { openssl: true });

  // ── reschedule
  const start = new Date(booked.payload.data.scheduled_at ?? Date.now());
  const later = new Date(
    Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + 1, 15),
  );
  const at = later.toISOString().replace('.000Z', 'Z');
  heading(
    'Reschedule the meeting',
    'The invitee picks another time: meetingRescheduled, signed the same way.',
  );
  const moved = await action(['sandbox', 'reschedule', meeting, '--at', at], 'meetingRescheduled');
  await verify(moved, { openssl: false });

  // ── cancel
  heading('Cancel the meeting', 'meetingCancelled carries canceled_at and the cancellation.');
  const cancelled = await action(
    ['sandbox', 'cancel', meeting, '--reason', 'Something came up'],
    'meetingCancelled',
  );
  await verify(cancelled, { openssl: false });

  // ── used link
  heading(
    'Book the used link again',
    'A single-use link works once; the second booking is refused.',
  );
  const again = await sched(['sandbox', 'book', link], { expect: 'nonzero' });
  out(yellow(`→ exit code ${again.code}: the link was already used`));

  // ── status
  heading('List webhooks', 'The subscription made above.');
  await sched(['webhooks', 'ls']);

  heading(
    'Check the credentials',
    'Where the key comes from (here the environment), masked, and whether the API accepts it.',
  );
  await sched(['auth', 'status']);

  // ── for AI assistants
  heading(
    'Serve the tools to an AI assistant',
    'sched mcp speaks the Model Context Protocol on stdio, with the same key and base URL.\n' +
      'Here the handshake and tools/list go in on stdin; webhooks change only with --allow-write.',
  );
  showCommand(['sched', 'mcp'], dim('   # stdin: initialize, tools/list'));
  for (const t of await mcpTools()) {
    const a = t.annotations ?? {};
    const kind = a.readOnlyHint ? green('read-only') : yellow('creates');
    out(`  ${cyan(t.name.padEnd(26))} ${kind.padEnd(useColor ? 19 : 9)}  ${t.title}`);
  }

  // ── clean up
  heading('Clean up', 'Delete the webhook, stop the listener (as Ctrl-C would) and the sandbox.');
  await sched(['webhooks', 'rm', '--url', hookUrl, '--yes']);
  state.hookUrl = undefined;
  out(`${bold('$')} ${bold(`kill -INT ${listener.child.pid}`)}  ${dim('# the listener')}`);
  await stopChild(listener.child, 'SIGINT');
  await waitFor(() => listener.exited, 'the listener to stop');
  showNew(listener);
  out(`${bold('$')} ${bold(`kill -INT ${sandbox.child.pid}`)}  ${dim('# the sandbox')}`);
  await stopChild(sandbox.child, 'SIGINT');
  await waitFor(() => sandbox.exited, 'the sandbox to stop');
  const stopped = sandbox.lines.slice(sandbox.shown).filter((l) => /stopped/i.test(l.text));
  sandbox.shown = sandbox.lines.length - stopped.length;
  for (const l of stopped) out(`  ${dim('sandbox │')} ${l.text}`);
  await app.close();
  state.app = undefined;

  out();
  out(
    green(bold(`✓ Tour complete in ${((Date.now() - t0) / 1000).toFixed(1)} s.`)) +
      ' Try it yourself: `sched sandbox` in one terminal, then the commands above in another.',
  );
  // A clone does not put `sched` on the PATH: say how, or the first command a newcomer types
  // is "command not found".
  out(
    `  ${bold('sched')} is not on your PATH yet: run ${bold('npm link')} once in this clone, or call it as ${bold('./bin/sched.js')} (e.g. ${bold('./bin/sched.js sandbox')}).`,
  );
}

async function cleanup(state) {
  // Children first (the webhook dies with the sandbox's memory), then the files.
  await Promise.all([...live].map((c) => stopChild(c, 'SIGTERM')));
  await state.app?.close();
  try {
    rmSync(workDir, { recursive: true, force: true });
  } catch {
    // A leftover temp directory is harmless; never fail the demo over it.
  }
}

async function main() {
  workDir = mkdtempSync(join(tmpdir(), 'sched-demo-'));
  const configDir = join(workDir, 'config');
  childEnv = { ...process.env, SCHED_CONFIG_DIR: configDir };
  // Settings of the user's own shell must not steer the tour.
  for (const k of ['SCHED_PROFILE', 'SCHED_BASE_URL', 'SCHED_API_KEY', 'SCHED_WEBHOOK_SECRET']) {
    delete childEnv[k];
  }
  // Read in a log or a pager (`npm run demo | less`, CI), the tour still shows what a terminal
  // shows: tables with their headers, JSON pretty-printed; colour only when the demo has it.
  if (!process.stdout.isTTY) {
    childEnv.SCHED_FORCE_TTY = '1';
    childEnv.COLUMNS ||= '100';
    if (!useColor) childEnv.NO_COLOR = '1';
  }
  const state = {};
  const deadline = setTimeout(
    () => stop.abort(new DemoError(`the tour did not finish within ${DEADLINE_MS / 1000} s`)),
    DEADLINE_MS,
  );
  let code = 0;
  try {
    await tour(state);
  } catch (err) {
    // Ctrl-C reaches the children too; one of them may report its exit before this process
    // sees the signal, so give the signal a moment and let it name what happened.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const e = stop.signal.reason instanceof Interrupted ? stop.signal.reason : err;
    if (e instanceof Interrupted) {
      code = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 }[e.signal] ?? 130;
      process.stderr.write(`\n${yellow('interrupted')}: stopping the demo's processes…\n`);
    } else {
      code = 1;
      const msg = e instanceof DemoError ? e.message : (e?.stack ?? String(e));
      process.stderr.write(`\n${red(`✗ demo failed at step ${stepNo}:`)} ${msg}\n`);
      const log = state.sandbox?.lines.slice(-8) ?? [];
      if (log.length) {
        process.stderr.write(dim('last lines from the sandbox:') + '\n');
        for (const l of log) process.stderr.write(`  ${l.text}\n`);
      }
    }
  } finally {
    clearTimeout(deadline);
    await cleanup(state);
  }
  if (code !== 0) process.stderr.write(dim('stopped every process the demo started.') + '\n');
  process.exitCode = code;
}

await main();
