// "Did you mean …?": the one nearness rule behind every suggestion (commands, help topics, sync
// file keys, event names). A leaf module: no imports, usable from every layer.

/** Optimal string alignment distance: insert, delete, replace, or swap two neighbours = 1 edit. */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
      }
    }
  }
  return d[a.length]![b.length]!;
}

/** Case, `_`, `-` and other punctuation do not count: `secret_env` is `secretEnv`. */
function squash(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** How many edits still count as near: 1 for a short word, 40% of a longer one, at most 3. */
function nearLimit(squashed: string): number {
  return Math.min(3, Math.max(1, Math.floor(squashed.length * 0.4)));
}

/**
 * How far a candidate is from a mistyped word (edits, case and punctuation ignored), or
 * undefined when it is not near (see nearLimit).
 */
export function nearness(word: string, candidate: string): number | undefined {
  const w = squash(word);
  const dist = editDistance(w, squash(candidate));
  return dist <= nearLimit(w) ? dist : undefined;
}

/**
 * The candidate nearest to a mistyped word, or undefined when none is near: at most 1 edit for
 * a short word, 40% of its length for a longer one, never more than 3. Case and punctuation are
 * ignored; on a tie the first candidate wins.
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const dist = nearness(word, c);
    if (dist !== undefined && dist < bestDistance) {
      best = c;
      bestDistance = dist;
    }
  }
  return best;
}

/** `\n(Did you mean X?)`, as commander words its own suggestions, or ''. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const best = nearest(word, candidates);
  return best === undefined ? '' : `\n(Did you mean ${best}?)`;
}

/** ` (did you mean "X"?)` for the middle of a message, or ''. */
export function didYouMeanInline(word: string, candidates: readonly string[]): string {
  const best = nearest(word, candidates);
  return best === undefined ? '' : ` (did you mean "${best}"?)`;
}
