// What every soak run shares: its scale (SOAK_SCALE=ci, the default, or full), the spawned
// binary under test, and the memory check. Memory is sampled from the process under test
// (VmRSS in /proc/<pid>/status, `ps` elsewhere) against the share of the work done, so the
// check reads "memory after 75% of the work" rather than anything about time.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { BIN } from '../helpers/run.js';
import { until } from '../helpers/until.js';

export type Scale = 'ci' | 'full';

export function soakScale(): Scale {
  const s = process.env.SOAK_SCALE ?? 'ci';
  if (s !== 'ci' && s !== 'full') throw new Error(`SOAK_SCALE must be ci or full, not ${s}`);
  return s;
}

/** The count for this run: the small one in CI, the full one when SOAK_SCALE=full. */
export function count(ci: number, full: number): number {
  return soakScale() === 'full' ? full : ci;
}

/** Resident memory of a process in bytes; undefined once it is gone. */
export function rssOf(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // no /proc (macOS): ask ps
  }
  try {
    const kb = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }));
    return Number.isFinite(kb) && kb > 0 ? kb * 1024 : undefined;
  } catch {
    return undefined;
  }
}

const MB = 1024 * 1024;
const round1 = (n: number) => Math.round(n * 10) / 10;

export interface MemorySample {
  /** Share of the work done, 0..1. */
  progress: number;
  rss: number;
}

/** Samples the process's memory every `everyMs` along with `progress()`, until stop(). */
export function sampleMemory(
  pid: number,
  progress: () => number,
  everyMs = 50,
): { stop(): MemorySample[] } {
  const samples: MemorySample[] = [];
  let tenth = 0;
  const take = () => {
    const rss = rssOf(pid);
    if (rss === undefined) return;
    const p = Math.min(1, progress());
    samples.push({ progress: p, rss });
    // A line per tenth of the work, so a long run shows where it is.
    if (p >= (tenth + 1) / 10) {
      tenth = Math.floor(p * 10);
      console.log(`  ${tenth * 10}% done, rss ${round1(rss / MB)} MB`);
    }
  };
  take();
  const t = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(t);
      take();
      return samples;
    },
  };
}

export interface MemoryVerdict {
  samples: number;
  /** Highest RSS (MB) in the first quarter of the work after warm-up. */
  firstMB: number;
  /** Highest RSS (MB) in the last quarter of the work. */
  lastMB: number;
  peakMB: number;
  /** lastMB / firstMB. */
  growth: number;
  flat: boolean;
}

/**
 * Flat memory: after the first `warmUp` share of the work, the highest RSS of the last quarter
 * is at most `maxGrowth` (0.5 = 50%) above the highest of the first quarter. The margin is
 * generous on purpose: garbage collection comes in steps, a leak grows with the work.
 */
export function memoryVerdict(
  samples: readonly MemorySample[],
  opts: { warmUp?: number; maxGrowth?: number } = {},
): MemoryVerdict {
  const warmUp = opts.warmUp ?? 0.1;
  const maxGrowth = opts.maxGrowth ?? 0.5;
  const quarter = (1 - warmUp) / 4;
  const max = (xs: MemorySample[]) => Math.max(...xs.map((s) => s.rss));
  const first = samples.filter((s) => s.progress >= warmUp && s.progress < warmUp + quarter);
  const last = samples.filter((s) => s.progress >= 1 - quarter);
  if (first.length === 0 || last.length === 0) {
    throw new Error(
      `too few memory samples to judge (${samples.length}: ${first.length} in the first quarter, ${last.length} in the last)`,
    );
  }
  const firstMax = max(first);
  const lastMax = max(last);
  return {
    samples: samples.length,
    firstMB: round1(firstMax / MB),
    lastMB: round1(lastMax / MB),
    peakMB: round1(max([...samples]) / MB),
    growth: Math.round((lastMax / firstMax) * 100) / 100,
    flat: lastMax <= firstMax * (1 + maxGrowth),
  };
}

/** One line for the run's log (and BENCHMARKS.md): what ran, how long, memory, result. */
export function report(name: string, facts: Record<string, string | number>, mem: MemoryVerdict) {
  const parts = Object.entries(facts).map(([k, v]) => `${k}=${v}`);
  console.log(
    `soak ${name} [${soakScale()}]: ${parts.join(' ')} rss first-quarter max ${mem.firstMB} MB, ` +
      `last-quarter max ${mem.lastMB} MB (x${mem.growth}), peak ${mem.peakMB} MB, ` +
      `${mem.samples} samples`,
  );
}

export interface Spawned {
  child: ChildProcess;
  pid: number;
  /** The last 64 KiB of stderr. */
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Spawns `sched <argv>`; stdout is read line by line into `onLine` (nothing kept), stderr is
 * kept up to its last 64 KiB (for failure messages).
 */
export function spawnLong(
  argv: string[],
  env: Record<string, string>,
  onLine: (line: string) => void,
): Spawned {
  const child = spawn(process.execPath, [BIN, ...argv], {
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let partial = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    for (const l of lines) onLine(l);
  });
  let err = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    err = (err + chunk).slice(-64 * 1024);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      if (partial) onLine(partial);
      resolve({ code, signal });
    }),
  );
  return { child, pid: child.pid!, stderr: () => err, exited };
}

/** Runs `workers` async loops over the items 0..n-1 (each taken once), like concurrent clients. */
export async function runConcurrently(
  n: number,
  workers: number,
  work: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

/** `sched sandbox --port 0 --json`, the binary, once it printed its address and key. */
export async function startSandboxBinary(): Promise<Spawned & { baseUrl: string; apiKey: string }> {
  let info: { baseUrl: string; apiKey: string } | undefined;
  const proc = spawnLong(['sandbox', '--port', '0', '--json'], {}, (line) => {
    info ??= JSON.parse(line) as { baseUrl: string; apiKey: string };
  });
  await until(() => info !== undefined, 'the sandbox to start', proc.stderr, {
    timeoutMs: 20_000,
    unless: proc.exited,
  });
  return { ...proc, baseUrl: info!.baseUrl, apiKey: info!.apiKey };
}
