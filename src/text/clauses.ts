// How the parts of one message line are joined: a server's own sentence ("Invalid API key.")
// inside our message, or "nothing was stored" after an error. A leaf module: no imports, usable
// from every layer.

/** Punctuation that ends a sentence or a clause; inside a joined line it would be stray. */
const ENDING = /[\s.;,:]+$/;

/**
 * The clauses, trimmed, empty ones dropped, each without its ending punctuation, joined by "; ":
 * `joinClauses('the API rejected the key (401): Invalid API key.', 'nothing was stored')` is
 * `the API rejected the key (401): Invalid API key; nothing was stored`. "…", "?" and "!" stay.
 */
export function joinClauses(...clauses: Array<string | undefined>): string {
  return clauses
    .map((c) => (c ?? '').replace(ENDING, '').trim())
    .filter((c) => c !== '')
    .join('; ');
}
