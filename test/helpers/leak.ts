// What of a secret shows in a text: every piece of 6 or more characters of it (as given, and as
// JSON writes it), found anywhere. The rule tests of masking expect none.

/** The pieces of `secret`, in its own form and its JSON-escaped form, that `text` holds. */
export function leakedPieces(text: string, secret: string, size = 6): string[] {
  const found = new Set<string>();
  for (const form of [secret, JSON.stringify(secret).slice(1, -1)]) {
    for (let i = 0; i + size <= form.length; i++) {
      const piece = form.slice(i, i + size);
      // A piece of the mask itself (a secret full of `*`) is not a leak of the secret.
      if (/^\**$/.test(piece)) continue;
      if (text.includes(piece)) found.add(piece);
    }
  }
  return [...found];
}
