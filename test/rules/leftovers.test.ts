// The run's leftover check (test/helpers/leftovers.ts, run by the global teardown) finds a
// process that carries the run's tag, ends it, and leaves untagged ones alone.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { endLeftovers, processesTagged, RUN_TAG_VAR } from '../helpers/leftovers.js';
import { runsElsewhere } from '../helpers/skip.js';

function sleeper(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], {
    env,
    stdio: 'ignore',
  });
  return child;
}

describe.skipIf(runsElsewhere(process.platform !== 'linux' && 'reads /proc, which Linux has'))(
  'leftover processes of a test run',
  () => {
    it('names and ends a process carrying the tag, not one without it', async () => {
      const tag = `leftover-test-${process.pid}`;
      const tagged = sleeper({ ...process.env, [RUN_TAG_VAR]: tag });
      const other = sleeper({ ...process.env, [RUN_TAG_VAR]: `${tag}-other` });
      try {
        await new Promise((r) => setTimeout(r, 200));
        expect(processesTagged(tag).map((l) => l.pid)).toEqual([tagged.pid]);
        const exited = new Promise((r) => tagged.once('exit', (_code, signal) => r(signal)));
        const left = await endLeftovers(tag, 200);
        expect(left.map((l) => l.pid)).toEqual([tagged.pid]);
        expect(left[0]!.command).toContain('setTimeout');
        expect(await exited).toBe('SIGKILL');
        expect(processesTagged(tag)).toEqual([]);
        expect(other.exitCode).toBeNull();
      } finally {
        tagged.kill('SIGKILL');
        other.kill('SIGKILL');
      }
    });

    it('finds nothing for a tag no process carries, at once', async () => {
      expect(await endLeftovers('no-such-run-tag', 0)).toEqual([]);
    });
  },
);
