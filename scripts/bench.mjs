#!/usr/bin/env node
// `npm run bench`: how fast `sched` starts, lists and mints compared with the cheapest
// alternatives (an empty `node -e 0`, a bare node:http GET, `curl --parallel` with 8 transfers
// in flight), and how much memory a long streamed listing needs. See BENCHMARKS.md for the
// method and the recorded results.
//
// Usage: node scripts/bench.mjs [--quick] [--runs N] [--warmup N] [--types N]
//          [--big-types N] [--links N] [--no-build] [--keep-ca-env] [--json FILE]
//          [--compare-bin PATH]
//
// --compare-bin runs the start-up rows with another build too (another checkout's
// bin/sched.js, built), in the same interleaved rounds: a before/after of a change.
//
// Method: a fixed server (scripts/bench-server.mjs, its own process) answers the API from
// memory on loopback, the same for sched and for curl. Every command runs as a child process, exactly as a user runs it; the commands
// being compared run interleaved, round after round (order reversed every other round), after
// warm-up runs, so machine noise hits both sides alike. The figures are medians.
import { spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'sched.js');
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

async function startServer(types, env) {
  const child = spawn(NODE, [join(ROOT, 'scripts', 'bench-server.mjs'), String(types)], {
    env,
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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

function printTable(rows) {
  const head = ['row', 'median ms', 'baseline', 'baseline ms', 'ratio', 'target', 'met?'];
  const body = rows.map((r) => [
    r.name,
    r.value,
    r.baselineName ?? '',
    r.baselineValue ?? '',
    r.ratio ?? '',
    r.target ?? '',
    r.met,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => String(b[i]).length)));
  const line = (cells) =>
    '| ' + cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ') + ' |';
  const out = [
    line(head),
    '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|',
    ...body.map(line),
  ];
  process.stdout.write(out.join('\n') + '\n');
}

// ---------------------------------------------------------------------------------------------
// The benchmark

const log = (s) => process.stderr.write(s + '\n');

async function main() {
  if (opt.build && !opt['no-build']) {
    log('building dist/ ...');
    const b = spawnSync(NODE, [join(ROOT, 'scripts', 'build.mjs')], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (b.status !== 0) throw new Error('the build failed');
  } else if (!existsSync(join(ROOT, 'dist', 'main.js'))) {
    throw new Error('dist/main.js is missing: run `npm run build` (or drop --no-build)');
  }

  const machine = machineInfo();
  const baseEnv = { ...process.env };
  for (const k of Object.keys(baseEnv)) {
    if (k.startsWith('SCHED_') || k === 'FORCE_COLOR') delete baseEnv[k];
  }
  // NODE_EXTRA_CA_CERTS makes every Node process read and parse the CA file when it starts
  // (~90 ms of CPU on the reference machine, where it is set for everything): it would pad
  // `node -e 0` and sched alike and flatter the ratios. Left out unless --keep-ca-env.
  const caEnv = baseEnv.NODE_EXTRA_CA_CERTS;
  if (!opt['keep-ca-env']) delete baseEnv.NODE_EXTRA_CA_CERTS;
  machine.env =
    caEnv === undefined
      ? 'NODE_EXTRA_CA_CERTS not set'
      : opt['keep-ca-env']
        ? `NODE_EXTRA_CA_CERTS kept (${caEnv})`
        : "NODE_EXTRA_CA_CERTS removed from the commands' environment";
  if (process.env.NODE_OPTIONS) machine.env += `; NODE_OPTIONS=${process.env.NODE_OPTIONS}`;
  // A config directory of our own: the user's profiles are neither read nor touched.
  baseEnv.SCHED_CONFIG_DIR = join(tmp, 'config');
  baseEnv.NO_COLOR = '1';

  log(`starting the fixed server with ${cfg.types} meeting types ...`);
  const sb = await startServer(cfg.types, baseEnv);
  const env = { ...baseEnv, SCHED_BASE_URL: sb.baseUrl, SCHED_API_KEY: sb.apiKey };
  const uuid = sb.uuid;

  const payloadFile = join(tmp, 'payload.json');
  const payload = JSON.stringify({ event: 'meetingScheduled', bench: true }) + '\n';
  writeFileSync(payloadFile, payload);
  const secret = 'bench-secret';
  const signature = createHmac('sha256', secret).update(payload).digest('base64');
  // The least a Node program can do for `types list --json`: one node:http GET, the items out.
  const httpGet = join(tmp, 'get.cjs');
  writeFileSync(
    httpGet,
    `const e = process.env;
require('node:http').get(e.SCHED_BASE_URL + '/users/me/meeting-types',
  { headers: { 'x-api-key': e.SCHED_API_KEY } }, (r) => {
  let b = ''; r.setEncoding('utf8'); r.on('data', (c) => (b += c));
  r.on('end', () => process.stdout.write(JSON.stringify(JSON.parse(b)._embedded.items, null, 2) + '\\n'));
});
`,
  );

  const found = (cmd) => spawnSync(cmd, ['--version']).status === 0;
  const noCurl = found('curl') ? undefined : 'curl not found (apt-get install -y curl)';
  const noCurlJq = noCurl ?? (found('jq') ? undefined : 'jq not found (apt-get install -y jq)');
  const sched = (...args) => [NODE, BIN, ...args];
  const compareBin = opt['compare-bin'] ? resolvePath(opt['compare-bin']) : undefined;
  const other = (...args) => [NODE, compareBin, ...args];
  const curlHead = ['curl', '-sS', '--fail-with-body', '-H', `X-API-KEY: ${sb.apiKey}`];
  const pages = Math.ceil(cfg.types / PAGE_SIZE);
  // The best a shell user can do: one curl, 8 transfers in flight, kept-alive connections.
  const curlPar = `curl -sS --no-progress-meter --fail-with-body --parallel --parallel-max ${INFLIGHT} -H "X-API-KEY: $SCHED_API_KEY"`;
  const pageLoop =
    `set -o pipefail; ${curlPar} "$SCHED_BASE_URL/users/me/meeting-types?page=[1-${pages}]&limit=${PAGE_SIZE}" ` +
    `| jq -c '._embedded.items[]'`;
  const postLoop =
    `${curlPar} -X POST -H 'content-type: application/json' -d '{"meeting_type_uuid":"${uuid}"}' ` +
    `-w '\\n' "$SCHED_BASE_URL/single-use-link?n=[1-${cfg.links}]"`;

  const expectLines = (n, what) => (r) =>
    r.lines === n ? undefined : `expected ${n} ${what}, got ${r.lines}`;
  const linkCheck = (r) => {
    const codes = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const m = /"code"\s*:\s*"([^"]+)"/.exec(l);
        return m ? m[1] : l.trim().replace(/\/+$/, '').split('/').pop();
      });
    const dups = codes.length - new Set(codes).size;
    lastLinkCheck = { links: codes.length, duplicates: dups };
    if (codes.length !== cfg.links) return `expected ${cfg.links} links, got ${codes.length}`;
    return dups > 0 ? `${dups} duplicate codes` : undefined;
  };
  let lastLinkCheck = { links: 0, duplicates: 0 };
  const sigArgs = [
    'sig',
    'verify',
    '--signature',
    signature,
    '--secret',
    secret,
    '--payload-file',
    payloadFile,
  ];

  // Start-up: every command here answers at once, so the time is mostly start-up.
  log(`start-up rows: ${cfg.warmup} warm-up + ${cfg.runs} interleaved rounds ...`);
  const startup = await measureGroup(
    [
      { key: 'node', argv: [NODE, '-e', '0'], env },
      { key: 'version', argv: sched('--version'), env, check: expectLines(1, 'line') },
      { key: 'help', argv: sched('--help'), env },
      { key: 'sigVerify', argv: sched(...sigArgs), env },
      { key: 'typesList', argv: sched('types', 'list', '--json'), env },
      { key: 'nodeHttp', argv: [NODE, httpGet], env },
      {
        key: 'curlOne',
        argv: [...curlHead, `${sb.baseUrl}/users/me/meeting-types`],
        env,
        missing: noCurl,
      },
      ...(compareBin
        ? [
            { key: 'helpB', argv: other('--help'), env },
            { key: 'sigVerifyB', argv: other(...sigArgs), env },
            { key: 'typesListB', argv: other('types', 'list', '--json'), env },
          ]
        : []),
    ],
    cfg.runs,
    cfg.warmup,
    log,
  );

  // CPU time of the same commands: batches of a few runs, the commands interleaved.
  const cpuBatch = quick ? 2 : 5;
  const cpuRounds = quick ? 1 : Math.max(1, Math.round(cfg.runs / cpuBatch));
  log(`start-up CPU time: ${cpuRounds} rounds of ${cpuBatch} runs per command ...`);
  const cpuKeys = Object.keys(startup).filter((k) => !startup[k].unavailable && k !== 'curlOne');
  const cpu = Object.fromEntries(cpuKeys.map((k) => [k, []]));
  for (let round = 0; round < cpuRounds; round++) {
    const order = round % 2 === 0 ? cpuKeys : [...cpuKeys].reverse();
    for (const k of order) cpu[k].push(await cpuPerRun(startup[k].argv, env, cpuBatch));
  }
  const cpuMs = (k) => (cpu[k] ? median(cpu[k]) : NaN);

  log(`--all rows (${cfg.types} types, ${pages} pages of ${PAGE_SIZE}): ${heavyRuns} rounds ...`);
  const listAll = await measureGroup(
    [
      {
        key: 'sched',
        argv: sched('types', 'list', '--all', '-o', 'ndjson', '--limit', String(PAGE_SIZE)),
        env,
        check: expectLines(cfg.types, 'NDJSON lines'),
      },
      {
        key: 'curl',
        argv: ['bash', '-c', pageLoop],
        env,
        missing: noCurlJq,
        check: expectLines(cfg.types, 'NDJSON lines'),
      },
    ],
    heavyRuns,
    1,
    log,
  );

  log(`link rows (${cfg.links} links): ${heavyRuns} rounds ...`);
  const links = await measureGroup(
    [
      {
        key: 'sched',
        argv: sched('link', 'create', uuid, '--count', String(cfg.links)),
        env,
        check: linkCheck,
      },
      {
        key: 'curl',
        argv: ['bash', '-c', postLoop],
        env,
        missing: noCurl,
        check: expectLines(cfg.links, 'links'),
      },
    ],
    heavyRuns,
    1,
    log,
  );
  const schedLinkCheck = lastLinkCheck;

  // Memory: the same streamed listing at two sizes shows whether memory grows with the list.
  const rssRow = async (types, serverEnv) => {
    const argv = sched('types', 'list', '--all', '-o', 'ndjson', '--limit', String(PAGE_SIZE));
    const runs = [];
    for (let i = 0; i < rssRuns; i++) {
      const r = await peakRssOnce(argv, serverEnv);
      if (r.code !== 0) return { unavailable: `exit ${r.code}: ${lastLine(r.stderr)}` };
      if (r.lines !== types) return { unavailable: `expected ${types} lines, got ${r.lines}` };
      runs.push(r);
    }
    return { rssMb: median(runs.map((r) => r.rssMb)), ms: median(runs.map((r) => r.ms)) };
  };
  log(`peak memory of --all over ${cfg.types} types ...`);
  const rssSmall = await rssRow(cfg.types, env);
  await sb.stop();

  log(`starting the fixed server with ${cfg.bigTypes} meeting types ...`);
  const big = await startServer(cfg.bigTypes, baseEnv);
  log(`peak memory of --all over ${cfg.bigTypes} types ...`);
  const rssBig = await rssRow(cfg.bigTypes, {
    ...baseEnv,
    SCHED_BASE_URL: big.baseUrl,
    SCHED_API_KEY: big.apiKey,
  });
  await big.stop();
  const floodConnections = quick ? 30 : 150;
  log(`peak memory of webhooks listen under ${floodConnections} stalled 5 MB senders ...`);
  const flood = await listenFloodRss(floodConnections, baseEnv);
  machine.loadAfter = os.loadavg().map((x) => +x.toFixed(2));

  // ------------------------------------------------------------------------------------------
  const rows = [];
  const med = (c) => median(c.times);
  /** The command's median over the baseline's must stay at or under the target (if any). */
  const compare = (name, c, b, target, note) => {
    const row = { name, baselineName: b.label, target: '', met: '', note };
    if (c.unavailable) {
      Object.assign(row, { value: 'not available', met: 'n/a', why: c.unavailable });
      rows.push(row);
      return row;
    }
    const cm = med(c);
    row.value = fmtMs(cm);
    row.spread = `${fmtMs(quantile(c.times, 0.25))}–${fmtMs(quantile(c.times, 0.75))}`;
    if (b.unavailable) {
      // The command was measured; only the comparison is missing.
      Object.assign(row, { baselineValue: 'not available', met: 'n/a', why: b.unavailable });
      row.baselineSpread = '—';
      rows.push(row);
      return row;
    }
    const bm = med(b);
    row.baselineValue = fmtMs(bm);
    row.baselineSpread = `${fmtMs(quantile(b.times, 0.25))}–${fmtMs(quantile(b.times, 0.75))}`;
    const ratio = cm / bm;
    row.ratio = `${ratio.toFixed(2)}x`;
    row.ratioValue = ratio;
    if (target !== undefined) {
      row.target = `<= ${target.toFixed(2)}x`;
      row.met = ratio <= target ? 'yes' : `no (+${((ratio / target - 1) * 100).toFixed(0)}%)`;
    } else row.target = 'reference';
    if (c.problem || b.problem) {
      row.met = 'no';
      row.why = c.problem || b.problem;
    }
    rows.push(row);
    return row;
  };
  const label = (c, l) => Object.assign(c, { label: l });
  label(startup.node, 'node -e 0');
  label(startup.nodeHttp, 'node:http GET script');
  label(startup.curlOne, 'curl (1 page)');
  label(listAll.curl, `curl --parallel-max ${INFLIGHT} | jq, ${pages} pages`);
  label(links.curl, `curl --parallel-max ${INFLIGHT}, ${cfg.links} POSTs`);

  /** Adds the CPU-time cross-check to a start-up row compared with `node -e 0`. */
  const withCpu = (row, key, baseKey = 'node') => {
    const c = cpuMs(key);
    const b = cpuMs(baseKey);
    if (Number.isFinite(c) && Number.isFinite(b)) {
      row.cpu = { ms: +c.toFixed(1), baselineMs: +b.toFixed(1), ratio: +(c / b).toFixed(2) };
      row.note = [row.note, `CPU ${c.toFixed(1)} ms vs ${b.toFixed(1)} ms = ${(c / b).toFixed(2)}x`]
        .filter(Boolean)
        .join('; ');
    }
    return row;
  };
  withCpu(compare('sched --version', startup.version, startup.node, 1.1), 'version');
  withCpu(compare('sched --help', startup.help, startup.node, 1.5), 'help');
  withCpu(compare('sched sig verify', startup.sigVerify, startup.node, 1.5), 'sigVerify');
  withCpu(
    compare('sched types list --json (1 request)', startup.typesList, startup.node, 2.5),
    'typesList',
  );
  withCpu(
    compare('sched types list --json (1 request)', startup.typesList, startup.nodeHttp),
    'typesList',
    'nodeHttp',
  );
  withCpu(compare('node:http GET script (the limit)', startup.nodeHttp, startup.node), 'nodeHttp');
  compare('sched types list --json (1 request)', startup.typesList, startup.curlOne);
  if (compareBin) {
    const b = `compare-bin ${compareBin}`;
    withCpu(compare('(compare-bin) sched --help', startup.helpB, startup.node, 1.5, b), 'helpB');
    withCpu(
      compare('(compare-bin) sched sig verify', startup.sigVerifyB, startup.node, 1.5, b),
      'sigVerifyB',
    );
    withCpu(
      compare(
        '(compare-bin) sched types list --json (1 request)',
        startup.typesListB,
        startup.node,
        2.5,
        b,
      ),
      'typesListB',
    );
  }
  compare(
    `sched types list --all -o ndjson (${cfg.types} types)`,
    listAll.sched,
    listAll.curl,
    1.5,
  );
  const linkRow = compare(`sched link create --count ${cfg.links}`, links.sched, links.curl, 2.0);
  if (!links.sched.unavailable) {
    linkRow.duplicates = schedLinkCheck.duplicates;
    linkRow.note = `${schedLinkCheck.links} links, ${schedLinkCheck.duplicates} duplicate codes`;
  }
  for (const [types, r] of [
    [cfg.types, rssSmall],
    [cfg.bigTypes, rssBig],
  ]) {
    const row = { name: `peak RSS, types list --all -o ndjson (${types} types)` };
    if (r.unavailable)
      Object.assign(row, { value: 'not available', met: 'n/a', why: r.unavailable });
    else {
      row.value = `${r.rssMb.toFixed(1)} MB`;
      row.note = `${fmtMs(r.ms)} ms`;
      if (types === cfg.bigTypes) {
        row.target = '< 120 MB';
        row.met = r.rssMb < 120 ? 'yes' : `no (+${(r.rssMb - 120).toFixed(0)} MB)`;
      } else row.met = '';
    }
    rows.push(row);
  }

  {
    const row = {
      name: `peak RSS, webhooks listen, ${floodConnections} senders stalling on 5 MB bodies`,
    };
    if (flood.unavailable)
      Object.assign(row, { value: 'not available', met: 'n/a', why: flood.unavailable });
    else {
      row.value = `${flood.peakMb.toFixed(1)} MB`;
      row.note = `${flood.startMb.toFixed(1)} MB before; ${flood.refused} answered 503`;
      row.target = '< 200 MB';
      row.met = flood.peakMb < 200 ? 'yes' : `no (+${(flood.peakMb - 200).toFixed(0)} MB)`;
    }
    rows.push(row);
  }

  process.stdout.write(
    `\nsched benchmark — ${machine.date}\n` +
      `machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GiB; ${machine.os}\n` +
      `node ${machine.node}, curl ${machine.curl}, commit ${machine.commit}\n` +
      `load average before ${machine.loadBefore.join(' ')}, after ${machine.loadAfter.join(' ')}\n` +
      `environment: ${machine.env}\n` +
      `runs: start-up ${cfg.runs} rounds after ${cfg.warmup} warm-up; --all and links ${heavyRuns} rounds after 1; ` +
      `peak RSS ${rssRuns} run(s) (${hasGnuTime ? 'GNU time %M' : '/proc VmHWM polling'})\n\n`,
  );
  printTable(rows);
  const notes = rows.filter((r) => r.why || r.note || r.spread);
  if (notes.length) {
    process.stdout.write('\n');
    for (const r of notes) {
      const bits = [];
      if (r.spread) bits.push(`p25–p75 ${r.spread} ms vs ${r.baselineSpread} ms`);
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
