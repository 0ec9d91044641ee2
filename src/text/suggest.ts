// "Did you mean …?": the one nearness rule behind every suggestion (commands, help topics, sync
// file keys, event names). A leaf module: no imports, usable from every layer.

/** Optimal string alignment distance: insert, delete, replace, or swap two neighbours = 1 edit. */
export function editDistance(a: string, b: string): number {
  return boundedDistance(a, b, Math.max(a.length, b.length));
}

/**
 * editDistance when it is at most `max`, else `max + 1`: only the cells within `max` of the
 * diagonal are computed (a path outside that band costs more than `max`), so comparing a word
 * with a candidate costs O(length × max), never O(length²).
 */
function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const over = max + 1;
  // Three rows of the OSA table: two back (for swaps), the last one, this one.
  let back2 = new Array<number>(b.length + 1).fill(over);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => (j <= max ? j : over));
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(over);
    if (i <= max) row[0] = i;
    let best = row[0]!;
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    for (let j = from; j <= to; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, back2[j - 2]! + 1);
      }
      row[j] = Math.min(d, over);
      if (row[j]! < best) best = row[j]!;
    }
    // Every cell of this row is past `max`: no later one can come back under it.
    if (best > max) return over;
    back2 = prev;
    prev = row;
  }
  return Math.min(prev[b.length]!, over);
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
  const limit = nearLimit(w);
  const dist = boundedDistance(w, squash(candidate), limit);
  return dist <= limit ? dist : undefined;
}

/**
 * The longest word a suggestion is sought for: a meeting-type reference is cut at 200
 * characters before any lookup (checkMeetingTypeRefs), and no name we suggest for is longer.
 */
export const MAX_WORD = 200;
/** A name longer than this is far from every word (at most MAX_WORD): skipped, never compared. */
export const MAX_CANDIDATE = 4 * MAX_WORD;
/** The most items one suggestion looks at: the first ones, however long the list. */
export const MAX_COMPARED = 10_000;

/** What closest() found, and how many names it compared (the bound a test can check). */
export interface Closest<T> {
  /** Near misses first (fewest edits), then items with a name containing the word or inside it. */
  items: T[];
  /** Names compared with the word (never one longer than MAX_CANDIDATE). */
  compared: number;
}

/**
 * The items of a long list (meeting types) whose names are near `word`: a name within the
 * nearness limit ranks by its edits; one containing the word (or inside it), case ignored,
 * after every near miss. Bounded: a word longer than MAX_WORD gets nothing, a name longer than
 * MAX_CANDIDATE is skipped, and only the first MAX_COMPARED items are looked at. Ties keep the
 * list's order; at most `max` items.
 */
export function closest<T>(
  word: string,
  items: Iterable<T>,
  names: (item: T) => readonly string[],
  max = 5,
): Closest<T> {
  const ranked: Array<{ item: T; rank: number }> = [];
  let compared = 0;
  if (word.length > MAX_WORD) return { items: [], compared };
  const w = word.toLowerCase();
  let seen = 0;
  for (const item of items) {
    if (seen++ >= MAX_COMPARED) break;
    let rank = Infinity;
    for (const name of names(item)) {
      if (name.length > MAX_CANDIDATE) continue;
      compared++;
      const near = nearness(word, name);
      const n = name.toLowerCase();
      const r = near ?? (n !== '' && (n.includes(w) || w.includes(n)) ? CONTAINS : Infinity);
      if (r < rank) rank = r;
    }
    if (rank !== Infinity) ranked.push({ item, rank });
  }
  ranked.sort((a, b) => a.rank - b.rank);
  return { items: ranked.slice(0, max).map((r) => r.item), compared };
}

/** The rank of a name that contains the word (or is inside it): after every near miss. */
const CONTAINS = 10;

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
