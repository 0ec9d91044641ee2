// A one-line progress counter on stderr for long bulk work ("Creating links 120/1000").
// Shown only when stderr is a terminal and stdout is not (results go to a file or a pipe):
// when both are the same terminal, redrawing a line would tangle with the results printed
// on it. Redraws at most every 100 ms and erases itself when done.
import type { IO } from '../io.js';

export interface Progress {
  update(done: number): void;
  /** Erases the line; call however the work ended. */
  done(): void;
}

const NONE: Progress = { update() {}, done() {} };

export function createProgress(
  io: IO,
  label: string,
  total: number,
  opts: { minTotal?: number } = {},
): Progress {
  if (!io.stderrIsTTY || io.stdoutIsTTY || total < (opts.minTotal ?? 20)) return NONE;
  let last = 0;
  let shown = false;
  return {
    update(done) {
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      shown = true;
      io.errRaw(`\r${label} ${done}/${total}\x1b[K`);
    },
    done() {
      if (shown) io.errRaw('\r\x1b[K');
      shown = false;
    },
  };
}
