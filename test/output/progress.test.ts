import { describe, expect, it } from 'vitest';
import { createBufferIO } from '../../src/io.js';
import { createProgress } from '../../src/output/progress.js';

describe('createProgress', () => {
  it('draws on stderr when stderr is a terminal and stdout is not, then erases itself', () => {
    const io = createBufferIO({ stderrIsTTY: true, stdoutIsTTY: false });
    const p = createProgress(io, 'Creating links', 50);
    p.update(1);
    p.update(50);
    p.done();
    expect(io.stderrText()).toContain('\rCreating links 1/50');
    expect(io.stderrText()).toContain('Creating links 50/50');
    expect(io.stderrText().endsWith('\r\x1b[K')).toBe(true);
    expect(io.stdoutText()).toBe('');
  });

  it('stays silent when stderr is not a terminal, when stdout is one, or for small jobs', () => {
    for (const o of [
      { stderrIsTTY: false, stdoutIsTTY: false, total: 50 },
      { stderrIsTTY: true, stdoutIsTTY: true, total: 50 },
      { stderrIsTTY: true, stdoutIsTTY: false, total: 5 },
    ]) {
      const io = createBufferIO(o);
      const p = createProgress(io, 'Working', o.total);
      p.update(1);
      p.update(o.total);
      p.done();
      expect(io.stderrText()).toBe('');
    }
  });
});
