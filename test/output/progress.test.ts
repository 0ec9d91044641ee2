import { describe, expect, it } from 'vitest';
import { createBufferIO } from '../helpers/buffer-io.js';
import { bar, createProgress } from '../../src/output/progress.js';

describe('createProgress', () => {
  it('draws a bar on stderr when stderr is a terminal, redrawn with \\r, then erases itself', () => {
    const io = createBufferIO({ stderrIsTTY: true, stdoutIsTTY: false });
    const p = createProgress(io, 'Creating links', 50);
    p.update(1);
    p.update(50);
    p.done();
    expect(io.stderrText()).toContain('\rCreating links [>                   ] 1/50\x1b[K');
    expect(io.stderrText()).toContain('\rCreating links [====================] 50/50\x1b[K');
    expect(io.stderrText().endsWith('\r\x1b[K')).toBe(true);
    expect(io.stderrText()).not.toContain('\n');
    expect(io.stdoutText()).toBe('');
  });

  it('once done, a late update draws nothing (the line stays clean)', () => {
    const io = createBufferIO({ stderrIsTTY: true, stdoutIsTTY: false });
    const p = createProgress(io, 'Creating links', 50);
    p.update(50);
    p.done();
    const after = io.stderrText();
    p.update(49, 'late');
    expect(io.stderrText()).toBe(after);
  });

  it('stays silent when stderr is not a terminal, or for small jobs', () => {
    for (const o of [
      { stderrIsTTY: false, stdoutIsTTY: false, total: 50 },
      { stderrIsTTY: false, stdoutIsTTY: true, total: 50 },
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

  it('shows a note after the counts, and draws again when the note changes', () => {
    const io = createBufferIO({ stderrIsTTY: true });
    const p = createProgress(io, 'Creating links', 100);
    p.update(10);
    p.update(11, '4 at a time (rate limited)');
    p.done();
    expect(io.stderrText()).toContain('11/100 · 4 at a time (rate limited)');
  });

  it('with stdout on the same terminal, results take the bar off the line and it comes back below', async () => {
    const io = createBufferIO({ tty: true });
    const p = createProgress(io, 'Creating links', 100);
    const out = p.wrap(io);
    p.update(10);
    await out.out('https://x/s/1\n');
    p.done();
    // Erase (\r ESC[K) before the result; the bar again after it.
    expect(io.stderrText()).toBe(
      '\rCreating links [==>                 ] 10/100\x1b[K' +
        '\r\x1b[K' +
        '\rCreating links [==>                 ] 10/100\x1b[K' +
        '\r\x1b[K',
    );
    expect(io.stdoutText()).toBe('https://x/s/1\n');
  });

  it('wrap() leaves a piped stdout alone', () => {
    const io = createBufferIO({ stderrIsTTY: true, stdoutIsTTY: false });
    const p = createProgress(io, 'Working', 100);
    expect(p.wrap(io)).toBe(io);
  });

  it('keeps the line narrower than the terminal', () => {
    const io = createBufferIO({ stderrIsTTY: true, columns: 40 });
    const p = createProgress(io, 'Creating links', 1000);
    p.update(500, 'a rather long note that would wrap the line');
    const line = io.stderrText().replace('\r', '').replace('\x1b[K', '');
    expect(line.length).toBeLessThanOrEqual(39);
    expect(line.endsWith('…')).toBe(true);
  });
});

describe('bar', () => {
  it('fills in proportion, with an arrow head until full', () => {
    expect(bar(0, 10, 10)).toBe('[>         ]');
    expect(bar(5, 10, 10)).toBe('[=====>    ]');
    expect(bar(10, 10, 10)).toBe('[==========]');
    expect(bar(3, 0, 4)).toBe('[====]');
  });
});
