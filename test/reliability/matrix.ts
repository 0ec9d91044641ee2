// The fault × command matrix: one case per (command, request it makes, fault that applies to
// that request), plus one per (command, whole-server fault). Each case starts a fault server
// that answers the command's requests as a healthy service would, except the target request,
// which gets the fault's script; then runs the command in-process with --verbose and a
// distinctive key and secret, and checks:
//   - the outcome: a recovery (the good output) or exit code + one clear "error:" line;
//   - no stack trace, no hang (watchdog), no secret in stdout or stderr;
//   - how many times the target reached the server (retries per policy, never a duplicate
//     POST), and that no other POST was sent twice and no request outside the table was made.
import { describe, expect, it } from 'vitest';
import { startFaultServer, f, type RecordedRequest } from '../helpers/fault-server.js';
import { COMMANDS, type CaseContext, type CommandSpec, type RequestSpec } from './commands.js';
import { FAULTS, HEALTHY, type FaultSpec, type Outcome } from './faults.js';
import {
  API_KEY,
  MASKED_KEY,
  errorLines,
  expectNoCrash,
  expectNoSecrets,
  expectOneError,
  run,
  tempDir,
} from './harness.js';

export interface FaultCase {
  cmd: CommandSpec;
  fault: FaultSpec;
  /** The request that meets the fault; undefined for whole-server faults. */
  target: RequestSpec | undefined;
}

export function faultCases(): FaultCase[] {
  const out: FaultCase[] = [];
  for (const cmd of COMMANDS) {
    for (const fault of FAULTS) {
      if (fault.baseUrl) {
        out.push({ cmd, fault, target: undefined });
        continue;
      }
      for (const rq of cmd.requests) {
        if (!fault.appliesTo || fault.appliesTo(rq)) out.push({ cmd, fault, target: rq });
      }
    }
  }
  return out;
}

function pathMatches(pattern: string, p: string): boolean {
  return pattern.endsWith('*') ? p.startsWith(pattern.slice(0, -1)) : pattern === p;
}

function specFor(cmd: CommandSpec, req: RecordedRequest): RequestSpec | undefined {
  return cmd.requests.find(
    (s) => s.method === req.method && pathMatches(s.path, req.path) && (!s.match || s.match(req)),
  );
}

/** What the case must end in. */
function expected(c: FaultCase): Outcome {
  const rq = c.target ?? c.cmd.requests.find((r) => !r.optional)!;
  if (c.target?.optional) return { ok: true };
  const o = c.fault.expect(rq);
  if (!o.ok && rq.failAs && c.target) return { ...o, ...rq.failAs };
  return o;
}

export function caseName(c: FaultCase): string {
  return `${c.cmd.name} | ${c.target ? c.target.id : 'every request'} | ${c.fault.id}`;
}

export async function runFaultCase(c: FaultCase): Promise<void> {
  const { cmd, fault, target } = c;
  const label = caseName(c);
  const srv = await startFaultServer();
  const config = await tempDir('config');
  const scratch = await tempDir('files');
  const hits = new Map<RequestSpec, number>();
  const unexpected: string[] = [];
  srv.on('*', '/*', (req) => {
    const rq = specFor(cmd, req);
    if (!rq) {
      unexpected.push(`${req.method} ${req.url}`);
      return f.json(404, { code: 404, message: 'Not found.' });
    }
    const n = hits.get(rq) ?? 0;
    hits.set(rq, n + 1);
    const good = rq.good(req);
    if (rq !== target || !fault.script) return good;
    const steps = fault.script(good, { body: req.body, headers: req.headers });
    return steps[Math.min(n, steps.length - 1)]!;
  });
  try {
    const ctx: CaseContext = { configDir: config.path, dir: scratch.path, requests: srv.requests };
    cmd.setup?.(ctx);
    const baseUrl = fault.baseUrl ? await fault.baseUrl() : srv.baseUrl;
    const env = {
      SCHED_CONFIG_DIR: config.path,
      SCHED_BASE_URL: baseUrl,
      SCHED_API_KEY: cmd.noEnvKey ? undefined : API_KEY,
      ...cmd.env,
    };
    const argv = ['--verbose', ...(fault.globals ?? ['--timeout', '5']), ...cmd.argv(ctx)];
    const stopWhen = cmd.stopWhen;
    const r = await run(argv, {
      env,
      stdin: cmd.stdin,
      abortWhen: stopWhen ? (s) => stopWhen.test(s) : undefined,
    });
    const want = expected(c);

    expectNoCrash(r, label);
    expectNoSecrets(r, label);
    if (!cmd.showsMaskedKey) expect(r.stdout + r.stderr, label).not.toContain(MASKED_KEY);
    expect(unexpected, `${label}: requests outside the table`).toEqual([]);

    if (cmd.completion) {
      // Under a TAB key: never an error, never a word on stderr; candidates or nothing.
      expect(r.code, label).toBe(0);
      expect(r.stderr, label).toBe('');
      if (r.stdout !== '') cmd.checkOk(r, ctx);
    } else if (cmd.protocolError) {
      // `sched mcp` serves on: the process ends 0 when its client closes stdin, and a failure
      // is the tool's error result, in the words every other command prints.
      expect(r.code, `${label}: exit code; stderr:\n${r.stderr}`).toBe(0);
      const error = cmd.protocolError(r);
      if (want.ok) {
        expect(error, label).toBeUndefined();
        cmd.checkOk(r, ctx);
      } else {
        expect(error, `${label}: the tool's error result`).toMatch(want.error);
      }
    } else if (want.ok) {
      expect(r.code, `${label}: exit code; stderr:\n${r.stderr}`).toBe(cmd.okCode ?? 0);
      expect(errorLines(r.stderr), label).toEqual([]);
      cmd.checkOk(r, ctx);
    } else {
      expectOneError(r, want.code, want.error, label);
    }
    cmd.checkAlways?.(r, ctx, want.ok && !cmd.completion);

    if (target && !target.optional && want.hits !== undefined && !cmd.completion) {
      expect(hits.get(target) ?? 0, `${label}: times the target reached the server`).toBe(
        want.hits,
      );
    }
    if (fault.verbose && target && !target.optional && !cmd.completion) {
      expect(r.stderr, `${label}: --verbose shows the policy`).toMatch(fault.verbose);
    }
    for (const rq of cmd.requests) {
      if (rq.method === 'POST' && rq !== target) {
        expect(hits.get(rq) ?? 0, `${label}: ${rq.id} sent twice`).toBeLessThanOrEqual(1);
      }
    }
  } finally {
    await srv.close();
    await config.remove();
    await scratch.remove();
  }
}

/** Registers every case: the healthy baseline first, one at a time, then the faults at once. */
export function defineFaultMatrix(): void {
  // One at a time, first: the first run of each command loads its modules (seconds on a busy
  // machine), which must not happen inside a case that counts on a 1 s --timeout.
  describe('healthy baseline of every command', () => {
    for (const cmd of COMMANDS) {
      const c: FaultCase = { cmd, fault: HEALTHY, target: undefined };
      it(caseName(c), () => runFaultCase(c), 20_000);
    }
  });
  const all = faultCases();
  // Concurrent: a case mostly waits (timeouts, Retry-After, backoff); each has its own server,
  // config directory and in-process run, so they do not share state.
  describe.concurrent(`fault matrix (${all.length} cases)`, () => {
    for (const c of all) {
      it(caseName(c), () => runFaultCase(c), 20_000);
    }
  });
}
