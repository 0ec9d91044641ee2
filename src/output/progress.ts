// A one-line progress bar on stderr for long bulk work:
//
//   Creating links [=========>          ] 412/1000 · 4 at a time (rate limited)
//
// Shown only when stderr is a terminal (never in a pipe or a CI log), for jobs big enough to
// be worth it; redrawn in place with \r at most every 100 ms, and erased when done. When stdout
// is the same terminal, results printed through wrap(io) first take the bar off the line and
// then draw it again below them, so results and bar never tangle.
import type { IO } from '../io.js';

export interface Progress {
  /** `done` of the total are finished; `note` (optional) is shown after the counts. */
  update(done: number, note?: string): void;
  /** Takes the bar off the screen (before other stderr output); the next update redraws it. */
  clear(): void;
  /** Erases the bar for good; call however the work ended. */
  done(): void;
  /** An IO whose stdout writes take the bar off the line first and redraw it after. */
  wrap(io: IO): IO;
}

export interface ProgressOptions {
  /** No bar below this many items (default 20): a short job is over before it is read. */
  minTotal?: number;
  /** Bar width in characters (default 20). */
  width?: number;
}

const NONE: Progress = {
  update() {},
  clear() {},
  done() {},
  wrap: (io) => io,
};

const REDRAW_MS = 100;

/** `[=========>          ]` for done/total, `width` characters between the brackets. */
export function bar(done: number, total: number, width: number): string {
  const ratio = total <= 0 ? 1 : Math.min(1, Math.max(0, done / total));
  const filled = Math.floor(ratio * width);
  if (filled >= width) return `[${'='.repeat(width)}]`;
  return `[${'='.repeat(filled)}>${' '.repeat(width - filled - 1)}]`;
}

export function createProgress(
  io: IO,
  label: string,
  total: number,
  opts: ProgressOptions = {},
): Progress {
  if (!io.stderrIsTTY || total < (opts.minTotal ?? 20)) return NONE;
  const width = opts.width ?? 20;
  let last = 0;
  let shown = false;
  let finished = false;
  let state: { done: number; note: string | undefined } = { done: 0, note: undefined };

  const draw = () => {
    let line = `${label} ${bar(state.done, total, width)} ${state.done}/${total}`;
    if (state.note) line += ` · ${state.note}`;
    // A line wider than the terminal wraps, and \r then redraws only its last part.
    const max = Math.max(20, io.columns - 1);
    if (line.length > max) line = line.slice(0, max - 1) + '…';
    io.errRaw(`\r${line}\x1b[K`);
    shown = true;
    last = Date.now();
  };

  const progress: Progress = {
    update(done, note) {
      if (finished) return;
      const changedNote = note !== state.note;
      state = { done, note };
      // Throttled, but the first and last states and a new note are always drawn.
      if (shown && !changedNote && done < total && Date.now() - last < REDRAW_MS) return;
      draw();
    },
    clear() {
      if (shown) io.errRaw('\r\x1b[K');
      shown = false;
    },
    done() {
      progress.clear();
      finished = true;
    },
    wrap(inner) {
      if (!inner.stdoutIsTTY) return inner;
      return {
        ...inner,
        out(text: string) {
          const wasShown = shown;
          progress.clear();
          // io.out writes synchronously before its first await (a terminal write is
          // synchronous), so the bar is redrawn below the text, never inside it.
          const written = inner.out(text);
          if (wasShown && !finished) draw();
          return written;
        },
      };
    },
  };
  return progress;
}
