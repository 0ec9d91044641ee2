// A run leaves nothing of its own running: every process a test starts (a tmux server, a
// sandbox, a listener, the CLI) inherits SCHED_TEST_RUN, a tag the global setup makes per run,
// and the global teardown looks for processes still carrying it once every test file ended.
// Found ones are named, ended, and fail the run (a test must close what it starts).
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

export const RUN_TAG_VAR = 'SCHED_TEST_RUN';

/** A new tag for this run, set in the environment the test workers inherit. */
export function tagRun(env: NodeJS.ProcessEnv = process.env): string {
  const tag = randomBytes(8).toString('hex');
  env[RUN_TAG_VAR] = tag;
  return tag;
}

export interface Leftover {
  pid: number;
  command: string;
}

/** Processes (not this one) whose environment carries `tag`; [] where /proc is not readable. */
export function processesTagged(tag: string): Leftover[] {
  const needle = `${RUN_TAG_VAR}=${tag}`;
  const found: Leftover[] = [];
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return [];
  }
  for (const p of pids) {
    const pid = Number(p);
    if (pid === process.pid) continue;
    try {
      const env = readFileSync(`/proc/${p}/environ`, 'utf8').split('\0');
      if (!env.includes(needle)) continue;
      const command = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' ').trim();
      found.push({ pid, command });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/**
 * Waits up to `graceMs` for the tagged processes to end by themselves (a child that was sent
 * SIGTERM by its test may still be exiting), then ends the rest with SIGKILL and returns them.
 */
export async function endLeftovers(tag: string, graceMs = 3000): Promise<Leftover[]> {
  const until = Date.now() + graceMs;
  let left = processesTagged(tag);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    left = processesTagged(tag);
  }
  for (const l of left) {
    try {
      process.kill(l.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return left;
}
